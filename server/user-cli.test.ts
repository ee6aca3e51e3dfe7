import { spawn } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** What build/ holds, with each entry's modification time: equal before and after means untouched. */
async function buildState(): Promise<string> {
  const buildDir = path.join(projectRoot, "build");
  const names = await readdir(buildDir).catch(() => undefined);
  if (!names) return "no build/";
  const entries = await Promise.all(
    names.sort().map(async (name) => `${name}:${(await stat(path.join(buildDir, name))).mtimeMs}`),
  );
  return entries.join("\n");
}

it("npm run user runs beside a live server without building or touching build/, whatever SITE_URL and PORT say", async () => {
  const user = await addStaffUser(database.db);
  const before = await buildState();
  const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("npm", ["run", "--silent", "user", "--", "list"], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: database.url,
        SITE_URL: "https://shell.example.com",
        PORT: "4999",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("exit", (code) => resolve({ code, output }));
  });
  expect(result.output).not.toContain("building");
  expect(result.output).toContain(`${user.username}\t`);
  expect(result.code).toBe(0);
  expect(await buildState()).toBe(before);
});
