import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { watch } from "node:fs";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { runNpm } from "#tests/npm-run";
import { type OffMachinePlace, startOffMachinePlace } from "#tests/rclone-webdav";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";

const TOKEN = "a-metrics-token-for-the-backup-tests-0123";
let database: TestDatabase;
let workDir: string;
let backupDir: string;
let offsite: OffMachinePlace;
let app: AppServer;

beforeAll(async () => {
  database = await createTestDatabase();
  workDir = await mkdtemp(path.join(tmpdir(), "tce-backup-by-hand-"));
  await chmod(workDir, 0o755);
  backupDir = path.join(workDir, "backups");
  await mkdir(backupDir, { mode: 0o700 });
  // Some 40 MB that do not compress: the backup takes long enough to write to be stopped midway.
  await database.pool.query("CREATE TABLE ballast (bytes bytea NOT NULL)");
  for (let index = 0; index < 40; index += 1) {
    await database.pool.query("INSERT INTO ballast VALUES ($1)", [randomBytes(1 << 20)]);
  }
  offsite = await startOffMachinePlace();
  // Backups by hand only, so what moves the series is the backup by hand.
  app = await startAppServer({
    env: { DATABASE_URL: database.url, BACKUP_EVERY: "0", METRICS_TOKEN: TOKEN },
  });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await offsite?.close();
  await database?.drop();
  await rm(workDir, { recursive: true, force: true });
});

/** As an operator's .env gives it: DATA_DIR is not this test's, so no key is made there. */
const BACKUP_ENCRYPTION_KEY = randomBytes(32).toString("base64");
const backUpByHand = () =>
  runNpm("backup", [], { DATABASE_URL: database.url, BACKUP_DIR: backupDir, BACKUP_ENCRYPTION_KEY, ...offsite.env });

async function backupSeries() {
  const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const text = await response.text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
  return {
    finishedAt: value("tce_backup_last_success_timestamp_seconds"),
    bytes: value("tce_backup_last_success_bytes"),
    copiedAt: value("tce_backup_copy_last_success_timestamp_seconds"),
  };
}

describe("npm run backup", () => {
  it("moves the backup series of the running app's /metrics, and its copy, read back whole, the copy series", async () => {
    expect(await backupSeries()).toEqual({ finishedAt: 0, bytes: 0, copiedAt: 0 });
    const before = Date.now() / 1000;
    const result = await backUpByHand();
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const file = /^(\S+\.backup) \(/.exec(result.stdout)?.[1] ?? "";
    expect(result.stdout).toContain(`Copied to offsite:tce-backups and read back whole: ${path.basename(file)}\n`);

    const series = await backupSeries();
    expect(series.bytes).toBe((await stat(file)).size);
    expect(series.finishedAt).toBeGreaterThanOrEqual(Math.floor(before));
    expect(series.copiedAt).toBeGreaterThanOrEqual(series.finishedAt);
    const copy = await readFile(path.join(offsite.servedDir, "tce-backups", path.basename(file)));
    expect(Buffer.compare(copy, await readFile(file))).toBe(0);
  }, 180_000);

  it("killed midway leaves its .partial, which the next backup deletes", async () => {
    const backup = spawn("npm", ["run", "--silent", "backup"], {
      cwd: projectRoot,
      // Its own process group: npm, tsx and node are killed together, as a power cut or the OOM killer would.
      detached: true,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: database.url,
        BACKUP_DIR: backupDir,
        BACKUP_ENCRYPTION_KEY,
      },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => backup.once("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      const watcher = watch(backupDir, (_event, name) => {
        if (!name?.endsWith(".backup.partial")) return;
        process.kill(-(backup.pid ?? 0), "SIGKILL");
        watcher.close();
        resolve();
      });
      void exited.then(() => {
        watcher.close();
        reject(new Error("the backup ended before it could be killed"));
      });
    });
    await exited;
    const left = (await readdir(backupDir)).filter((name) => name.endsWith(".partial"));
    expect(left).toHaveLength(1);

    const next = await backUpByHand();
    expect(next).toMatchObject({ code: 0, stderr: "" });
    expect(next.stdout).toContain(`Deleted what a stopped backup left: ${left[0]}\n`);
    expect((await readdir(backupDir)).filter((name) => name.endsWith(".partial"))).toEqual([]);
  }, 180_000);
});
