import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";

const mappedLibraries = async (pid: number) => readFile(`/proc/${pid}/maps`, "utf8");

describe("the app's memory settings (scripts/with-memory-settings.sh)", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("run the app with jemalloc, which hands photo work's memory back, and leave its PostgreSQL its own allocator", async () => {
    expect(await mappedLibraries(app.process.pid ?? 0)).toContain("libjemalloc.so.2");
    const postmasterPid = Number(
      (await readFile(path.join(app.dataDir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0],
    );
    expect(postmasterPid).toBeGreaterThan(0);
    expect(await mappedLibraries(postmasterPid)).not.toContain("libjemalloc");
  });
});
