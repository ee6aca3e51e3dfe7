import { describe, expect, expectTypeOf, it } from "vitest";
import type { inWorker } from "./work-pool.server";
import { defineWorkTasks, type WorkTask } from "./work-task";

const double = (n: number) => n * 2;

describe("work tasks", () => {
  it("are named by the keys they are declared under, and no other name is one", () => {
    const tasks = defineWorkTasks({ double });
    expect(tasks.double).toEqual({ name: "double", run: double });
    // @ts-expect-error only a declared task can be run
    expect(tasks.triple).toBeUndefined();
  });

  it("type a run in the pool by the task's function: its arguments and its result", () => {
    type RunDouble = typeof inWorker<typeof double>;
    expectTypeOf<Parameters<RunDouble>>().toEqualTypeOf<
      [Parameters<typeof inWorker>[0], WorkTask<typeof double>, number]
    >();
    expectTypeOf<ReturnType<RunDouble>>().toEqualTypeOf<Promise<number>>();
  });
});
