import { spawn } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { projectRoot } from "#tests/app-server";
import { LOST_DATA_ENCRYPTION_KEY, loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { enableTotp, replaceRecoveryCodes } from "~/services/auth/second-factor.server";
import { startSession } from "~/services/auth/sessions.server";
import { staffRecoveryCodes, staffSessions, staffUsers } from "~/services/db/schema.server";

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

/** `npm run user -- ...args` against the test database, as an operator runs it; its exit code and everything it printed. */
function runUserCommand(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("npm", ["run", "--silent", "user", "--", ...args], {
      cwd: projectRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: database.url,
        LOG_LEVEL: "warn",
        ...env,
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
}

it("npm run user runs beside a live server without building or touching build/, whatever SITE_URL and PORT say", async () => {
  const user = await addStaffUser(database.db);
  const before = await buildState();
  const result = await runUserCommand(["list"], { SITE_URL: "https://shell.example.com", PORT: "4999" });
  expect(result.output).not.toContain("building");
  expect(result.output).toContain(`${user.username}\t`);
  expect(result.code).toBe(0);
  expect(await buildState()).toBe(before);
});

it("npm run user -- reset-two-factor removes a second factor the key cannot read, and signs the user out", async () => {
  const user = await addStaffUser(database.db);
  // Sealed with a key this server no longer has: the backup was restored without DATA_ENCRYPTION_KEY.
  await enableTotp(database.db, LOST_DATA_ENCRYPTION_KEY, user.id, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", null);
  await replaceRecoveryCodes(database.db, user.id);
  await startSession(database.db, loadContextFor(database.db).config, { userId: user.id, secondFactorPending: false });
  const result = await runUserCommand(["reset-two-factor", user.username.toUpperCase()]);
  expect(result.output).toContain(`The two-step verification of ${user.username} was removed`);
  expect(result.code).toBe(0);
  const [stored] = await database.db.select().from(staffUsers).where(eq(staffUsers.id, user.id));
  expect(stored?.totpSecret).toBeNull();
  expect(await database.db.select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, user.id))).toEqual([]);
  expect(await database.db.select().from(staffSessions).where(eq(staffSessions.userId, user.id))).toEqual([]);
  const unknown = await runUserCommand(["reset-two-factor", "nobody-by-that-name"]);
  expect(unknown).toEqual({ code: 1, output: "No user is called nobody-by-that-name\n" });
});
