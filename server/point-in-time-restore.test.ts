import { existsSync } from "node:fs";
import { chmod, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "#tests/app-server";
import { postEstimate } from "#tests/estimate-post";
import { runNpm as runNpmScript } from "#tests/npm-run";
import { type OffMachinePlace, startOffMachinePlace } from "#tests/rclone-webdav";
import { appDataParent } from "#tests/test-run-directory";
import { waitFor } from "#tests/wait-for";
import { openEmbeddedPostgres, startEmbeddedPostgres } from "~/services/db/embedded-postgres.server";
import { ARCHIVE_TIMEOUT_SECONDS } from "~/services/db/wal-archiving.server";
import { listBaseBackups } from "~/services/point-in-time/base-backup.server";

const logger = pino({ level: "silent" });
let workDir: string;
let app: AppServer;
let dataDir: string;
let backupDir: string;
let offMachine: OffMachinePlace;
const METRICS_TOKEN = "a-metrics-token-for-the-point-in-time-test";

beforeAll(async () => {
  workDir = await mkdtemp(path.join(appDataParent(), "tce-pitr-"));
  // As root the embedded PostgreSQL runs as "postgres", which must pass through to its DATA_DIR and the archive.
  await chmod(workDir, 0o711);
  dataDir = path.join(workDir, "data");
  backupDir = path.join(workDir, "backups");
  offMachine = await startOffMachinePlace();
  app = await startAppServer({
    dataDir,
    env: {
      WAL_ARCHIVE: "on",
      BACKUP_DIR: backupDir,
      BACKUP_KEEP: "2",
      BACKUP_COPY_KEEP: "2",
      PUBLIC_FORM_RATE_LIMIT: "1000",
      METRICS_TOKEN,
      ...offMachine.env,
    },
  });
}, 90_000);
afterAll(async () => {
  await app?.stop();
  await offMachine?.close();
  await rm(workDir, { recursive: true, force: true });
});

/** The two commands, beside the running app, with its settings. */
function runNpm(script: "base-backup" | "restore-to-time", args: string[], env: Record<string, string> = {}) {
  return runNpmScript(script, args, {
    DATA_DIR: dataDir,
    BACKUP_DIR: backupDir,
    BACKUP_KEEP: "2",
    ...offMachine.env,
    ...env,
  });
}

/** What reached the second place: the copy's folder as the WebDAV server keeps it. */
const offMachineDir = (...names: string[]) => path.join(offMachine.servedDir, "tce-backups", ...names);

async function metric(name: string): Promise<number> {
  const body = await (
    await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  const line = body.split("\n").find((candidate) => candidate.startsWith(`${name} `));
  if (line === undefined) throw new Error(`/metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
}

async function baseBackup(): Promise<void> {
  const result = await runNpm("base-backup", []);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
}

/** Posts `count` estimate requests one after the other; resolves with their references. */
async function postEstimates(count: number, group: string): Promise<string[]> {
  const references: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const posted = await postEstimate(`${app.url}/lighting`, { comments: `${group} ${index}` });
    if (!posted.reference) throw new Error(`post ${group} ${index} was not stored (${posted.status})`);
    references.push(posted.reference);
  }
  return references;
}

async function superuserQuery<Row extends pg.QueryResultRow>(directory: string, text: string): Promise<Row[]> {
  const embedded = await openEmbeddedPostgres({ dataDir: directory, logger });
  const client = new pg.Client({ connectionString: embedded.superuserUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
    await embedded.stop();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("continuous protection: WAL archiving, its copy off the machine, and a restore to a moment between two base backups", () => {
  it("restores exactly what was committed up to the moment, and copies a commit off the machine within a minute or so", async () => {
    await app.waitForLine("base backup taken", 30_000);
    const beforeA = await postEstimates(3, "before A");
    await baseBackup();
    const betweenAAndTarget = await postEstimates(3, "after A");
    await pause(1_000);
    const target = new Date();
    await pause(1_000);
    const afterTarget = await postEstimates(3, "after the target");
    await baseBackup();

    // BACKUP_KEEP=2: the base backup taken at start is gone, with the archived WAL only it needed.
    const kept = await listBaseBackups(path.join(backupDir, "base"));
    expect(kept).toHaveLength(2);
    const [backupA, backupB] = kept;
    if (!backupA || !backupB) throw new Error("two base backups expected");
    expect(backupA.finishedAt.getTime()).toBeLessThan(target.getTime());
    expect(backupB.finishedAt.getTime()).toBeGreaterThan(target.getTime());
    const segments = (await readdir(path.join(backupDir, "wal"))).filter((name) => /^[0-9A-F]{24}\.gz$/.test(name));
    expect(segments.every((name) => name.slice(8) >= backupA.startWalFile.slice(8))).toBe(true);
    expect(segments).toContain(`${backupA.startWalFile}.gz`);

    // The recovery point: a commit made now is lost with the machine until its WAL segment is archived; with
    // nothing forcing a switch, archive_timeout bounds that. Measured while the restore runs.
    const marker = await postEstimates(1, "marker");
    const committedAt = Date.now();
    const [{ segment } = { segment: "" }] = await superuserQuery<{ segment: string }>(
      dataDir,
      "SELECT pg_walfile_name(pg_current_wal_lsn()) AS segment",
    );
    const archived = waitFor(
      "the marker's WAL segment in the archive",
      () => existsSync(path.join(backupDir, "wal", `${segment}.gz`)) && (Date.now() - committedAt) / 1000,
      (ARCHIVE_TIMEOUT_SECONDS + 15) * 1000,
    );
    // A lost machine loses what had not left it: the marker is safe once its segment is at the second place.
    const copiedOff = waitFor(
      "the marker's WAL segment off the machine",
      () => existsSync(offMachineDir("wal", `${segment}.gz`)) && (Date.now() - committedAt) / 1000,
      (ARCHIVE_TIMEOUT_SECONDS + 30) * 1000,
    );

    const restoredDir = path.join(workDir, "restored");
    const restoreStarted = Date.now();
    const restored = await runNpm("restore-to-time", [target.toISOString(), "--into", restoredDir]);
    const restoreSeconds = (Date.now() - restoreStarted) / 1000;
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`from ${backupA.directory}`);
    expect(restored.stdout).toContain(`start the app with DATA_DIR=${restoredDir}`);

    const embedded = await startEmbeddedPostgres({ dataDir: restoredDir, logger });
    const client = new pg.Client({ connectionString: embedded.url });
    await client.connect();
    try {
      const rows = await client.query<{ reference: string }>(
        "SELECT reference FROM submissions WHERE type = 'estimate'",
      );
      const references = rows.rows.map((row) => row.reference).sort();
      expect(references).toEqual([...beforeA, ...betweenAAndTarget].sort());
      for (const reference of [...afterTarget, ...marker]) expect(references).not.toContain(reference);
    } finally {
      await client.end();
      await embedded.stop();
    }
    // The machine is lost: `latest` from the copy alone, with no BACKUP_DIR on this machine to read.
    const archivedSeconds = await archived;
    const copiedOffSeconds = await copiedOff;
    // BACKUP_COPY_KEEP=2 there too: the start's base backup goes, and the WAL only it needed after it.
    const wanted = [backupA, backupB].flatMap((backup) =>
      [".json", ".tar"].map((suffix) => `${path.basename(backup.directory)}${suffix}`),
    );
    await waitFor(
      "base backups A and B off the machine, whole, and no other, with the WAL from A's start on",
      async () => {
        const names = (await readdir(offMachineDir("base")).catch(() => [])).sort();
        const segments = (await readdir(offMachineDir("wal"))).filter((name) => /^[0-9A-F]{24}\.gz$/.test(name));
        return (
          JSON.stringify(names) === JSON.stringify(wanted) &&
          segments.includes(`${backupA.startWalFile}.gz`) &&
          segments.every((name) => name.slice(8) >= backupA.startWalFile.slice(8))
        );
      },
      90_000,
    );
    // Archiving goes on (archive_timeout), so a copy may be under way at any scrape: it catches up within seconds.
    await waitFor(
      "no archived WAL waiting to leave the machine",
      async () => (await metric("tce_wal_copy_pending_files")) === 0,
    );
    expect(await metric("tce_wal_copy_last_success_timestamp_seconds")).toBeGreaterThan(committedAt / 1000);
    expect(await metric("tce_wal_archive_last_success_timestamp_seconds")).toBeGreaterThan(committedAt / 1000);
    expect(await metric("tce_wal_archive_failing")).toBe(0);

    const latest = await runNpm("restore-to-time", ["latest", "--into", path.join(workDir, "latest"), "--from-copy"], {
      BACKUP_DIR: path.join(workDir, "no-backups-on-this-machine"),
    });
    expect(latest.stderr).toBe("");
    expect(latest.stdout).toMatch(/^Restored to the end of the archive into /);
    expect(latest.stdout).toContain(`from offsite:tce-backups/base/${path.basename(backupB.directory)}`);
    expect(existsSync(path.join(workDir, "no-backups-on-this-machine"))).toBe(false);
    expect(existsSync(path.join(workDir, "latest.from-copy"))).toBe(false);
    const everything = await startEmbeddedPostgres({ dataDir: path.join(workDir, "latest"), logger });
    const latestClient = new pg.Client({ connectionString: everything.url });
    await latestClient.connect();
    try {
      const rows = await latestClient.query<{ reference: string }>("SELECT reference FROM submissions");
      const references = rows.rows.map((row) => row.reference);
      for (const reference of [...beforeA, ...betweenAAndTarget, ...afterTarget, ...marker])
        expect(references).toContain(reference);
    } finally {
      await latestClient.end();
      await everything.stop();
    }

    // Settings a trial restore wrote are gone: the restored cluster archives nothing until an app starts on it.
    const settings = await readFile(path.join(restoredDir, "postgres", "tce-wal-archiving.conf"), "utf8");
    expect(settings).toContain("archive_mode = off");
    expect(settings).not.toContain("recovery_target_time");

    console.info(
      `recovery point: a commit reached the WAL archive after ${archivedSeconds.toFixed(1)} s and the copy off the machine after ${copiedOffSeconds.toFixed(1)} s (archive_timeout ${ARCHIVE_TIMEOUT_SECONDS} s); restore to a time took ${restoreSeconds.toFixed(1)} s`,
    );
    expect(archivedSeconds).toBeLessThanOrEqual(ARCHIVE_TIMEOUT_SECONDS + 5);
    expect(copiedOffSeconds).toBeLessThanOrEqual(ARCHIVE_TIMEOUT_SECONDS + 15);
  }, 300_000);

  it("refuses a time before every base backup, and a folder that is not empty, changing nothing", async () => {
    const early = await runNpm("restore-to-time", ["2026-01-05 09:00", "--into", path.join(workDir, "early")]);
    expect(early.code).toBe(1);
    expect(early.stderr).toMatch(
      /^Refused: no base backup finished before 2026-01-05 09:00:00\.000 EST \(2026-01-05T14:00:00\.000Z\); the oldest in \S+ finished /,
    );
    expect(existsSync(path.join(workDir, "early"))).toBe(false);

    for (const from of [[], ["--from-copy"]]) {
      const taken = await runNpm("restore-to-time", [new Date().toISOString(), "--into", dataDir, ...from]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toBe(
        `Refused: ${dataDir} is not empty: restore into a new folder, which becomes the new DATA_DIR\n`,
      );
    }
    expect(existsSync(`${dataDir}.from-copy`)).toBe(false);
  }, 120_000);
});
