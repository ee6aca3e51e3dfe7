import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { functionLengths, functionsOver, SCREEN_LINES } from "./function-lengths.mjs";

describe("functions that fit a screen", () => {
  it("counts a function from its first line to its last, the functions inside it included, under the name a reader finds", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "function-lengths-"));
    const file = path.join(dir, "factory.ts");
    const inner = Array.from({ length: 5 }, (_, i) => `    const step${i} = () => ${i};`).join("\n");
    await writeFile(
      file,
      `export function outer() {\n  return {\n    run() {\n${inner}\n    },\n  };\n}\nconst arrow = () => 1;\n`,
    );
    const found = functionLengths(file);
    expect(found.find((fn) => fn.name === "outer")?.lines).toBe(11);
    expect(found.find((fn) => fn.name === "run")?.lines).toBe(7);
    expect(found.find((fn) => fn.name === "arrow")?.lines).toBe(1);
    expect(found.filter((fn) => fn.name.startsWith("step"))).toHaveLength(5);
  });

  it(`finds none over ${SCREEN_LINES} lines in app/ and server/ (tests aside)`, () => {
    expect(functionsOver(SCREEN_LINES).map((fn) => `${fn.name} (${fn.lines} lines) in ${fn.file}:${fn.line}`)).toEqual(
      [],
    );
  });
});
