import { execFile } from "node:child_process";
import { once } from "node:events";
import { createReadStream } from "node:fs";
import { chmod, chown, cp, mkdtemp, readdir, rm, unlink } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, runAppExpectingFailure, startAppServer } from "#tests/app-server";
import { postEstimate } from "#tests/estimate-post";
import { runNpm } from "#tests/npm-run";
import { appDataParent } from "#tests/test-run-directory";
import { TEST_SESSION_SECRET } from "#tests/test-session-secret";
import { waitFor } from "#tests/wait-for";
import {
  archivedWalSystemIdentifier,
  clusterSystemIdentifier,
  readFolderMark,
} from "~/services/backup/backup-folder-mark.server";
import { openEmbeddedPostgres, startEmbeddedPostgres } from "~/services/db/embedded-postgres.server";
import { postgresOwner } from "~/services/db/wal-archiving.server";
import { listBaseBackups } from "~/services/point-in-time/base-backup.server";

/*
 * Two sites on one host with their data folders side by side and default settings (issue 47): each archives its
 * WAL into a folder of its own and takes its own base backups, a site pointed at the other's folder refuses, and a
 * restore reads nothing of the other's.
 */
const logger = pino({ level: "silent" });
const METRICS_TOKEN = "a-metrics-token-for-the-two-sites-test";
let workDir: string;
type Site = { name: string; dataDir: string; backupDir: string; app: AppServer; systemIdentifier: string };
let prod: Site;
let staging: Site;

async function startSite(name: string): Promise<Site> {
  const dataDir = path.join(workDir, name);
  // No BACKUP_DIR: the default, as an operator leaves it.
  const app = await startAppServer({
    dataDir,
    env: { BACKUP_DIR: undefined, WAL_ARCHIVE: "on", METRICS_TOKEN, PUBLIC_FORM_RATE_LIMIT: "1000" },
  });
  const systemIdentifier = await clusterSystemIdentifier(path.join(dataDir, "postgres"));
  if (!systemIdentifier) throw new Error(`${name} has no cluster`);
  return { name, dataDir, backupDir: `${dataDir}-backups`, app, systemIdentifier };
}

beforeAll(async () => {
  workDir = await mkdtemp(path.join(appDataParent(), "tce-two-sites-"));
  // As root the embedded PostgreSQL runs as "postgres", which must pass through to its DATA_DIR and the archive.
  await chmod(workDir, 0o711);
  [prod, staging] = await Promise.all([startSite("prod"), startSite("staging")]);
}, 120_000);
afterAll(async () => {
  await Promise.all([prod?.app.stop(), staging?.app.stop()]);
  await rm(workDir, { recursive: true, force: true });
});

async function superuserQuery<Row extends pg.QueryResultRow>(site: Site, text: string): Promise<Row[]> {
  const running = await openEmbeddedPostgres({ dataDir: site.dataDir, logger });
  const client = new pg.Client({ connectionString: running.superuserUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

async function postEstimates(site: Site, count: number): Promise<string[]> {
  const references: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const posted = await postEstimate(`${site.app.url}/lighting`, { comments: `${site.name} ${index}` });
    if (!posted.reference) throw new Error(`${site.name} post ${index} was not stored (${posted.status})`);
    references.push(posted.reference);
  }
  return references;
}

/** Ends the segment in use and waits until the site's archive holds it: what was committed is then archived. */
async function archiveNow(site: Site): Promise<string> {
  const [{ segment } = { segment: "" }] = await superuserQuery<{ segment: string }>(
    site,
    "SELECT pg_walfile_name(pg_switch_wal()) AS segment",
  );
  await waitFor(
    `${site.name}'s ${segment} in its archive`,
    async () => (await readdir(path.join(site.backupDir, "wal"))).includes(`${segment}.gz`),
    20_000,
  );
  return segment;
}

async function metric(site: Site, name: string): Promise<number> {
  const response = await fetch(`${site.app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await response.text()).split("\n").find((candidate) => candidate.startsWith(`${name} `));
  if (line === undefined) throw new Error(`/metrics has no ${name}`);
  return Number(line.slice(name.length + 1));
}

const siteEnv = (site: Site, env: Record<string, string> = {}) => ({ DATA_DIR: site.dataDir, ...env });

describe("two sites with their data folders side by side and default settings", () => {
  it("each archives into and backs up to a folder of its own; staging restored to latest holds its own leads and none of production's", async () => {
    const started = Date.now();
    await Promise.all([prod, staging].map((site) => site.app.waitForLine("base backup taken", 60_000)));
    const prodLeads = await postEstimates(prod, 3);
    const stagingLeads = await postEstimates(staging, 3);
    for (const site of [prod, staging]) {
      const segment = await archiveNow(site);
      expect(await archivedWalSystemIdentifier(path.join(site.backupDir, "wal", `${segment}.gz`))).toBe(
        site.systemIdentifier,
      );
      const [archiver] = await superuserQuery<{ failed: string }>(
        site,
        "SELECT failed_count AS failed FROM pg_stat_archiver",
      );
      expect(archiver?.failed).toBe("0");
      const bases = await listBaseBackups(path.join(site.backupDir, "base"));
      expect(bases.map((base) => base.systemIdentifier)).toEqual([site.systemIdentifier]);
      expect(await readFolderMark(site.backupDir)).toEqual({
        systemIdentifier: site.systemIdentifier,
        siteUrl: expect.stringMatching(/^http:\/\/localhost:/),
        dataDir: site.dataDir,
      });
      expect(await metric(site, "tce_wal_archive_failing")).toBe(0);
    }
    expect(prod.systemIdentifier).not.toBe(staging.systemIdentifier);

    const restoredDir = path.join(workDir, "staging-restored");
    const restored = await runNpm("restore-to-time", ["latest", "--into", restoredDir], siteEnv(staging));
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`every file read was of database system ${staging.systemIdentifier}`);
    const replayed = Number(/(\d+) transactions? replayed \(commit records/.exec(restored.stdout)?.[1]);
    expect(replayed).toBeGreaterThanOrEqual(stagingLeads.length);
    const embedded = await startEmbeddedPostgres({ dataDir: restoredDir, logger });
    const client = new pg.Client({ connectionString: embedded.url });
    await client.connect();
    try {
      const rows = await client.query<{ reference: string }>("SELECT reference FROM submissions");
      const references = rows.rows.map((row) => row.reference);
      for (const reference of stagingLeads) expect(references).toContain(reference);
      for (const reference of prodLeads) expect(references).not.toContain(reference);
    } finally {
      await client.end();
      await embedded.stop();
    }
    console.info(
      `two sites: both protected and staging restored to latest in ${((Date.now() - started) / 1000).toFixed(1)} s (${replayed} transactions replayed)`,
    );
  }, 180_000);

  it("refuses, in one line naming BACKUP_DIR, a start, a base backup and a backup on another database's folder", async () => {
    const line = () =>
      `BACKUP_DIR ${prod.backupDir} holds the backups of another database (database system ${prod.systemIdentifier}, SITE_URL `;
    const otherDir = path.join(workDir, "other");
    const start = await runAppExpectingFailure({
      DATA_DIR: otherDir,
      BACKUP_DIR: prod.backupDir,
      WAL_ARCHIVE: "on",
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      SESSION_SECRET: TEST_SESSION_SECRET,
      LOG_LEVEL: "warn",
    });
    expect(start.code).toBe(1);
    const refusals = start.output.split("\n").filter((text) => text.includes("holds the backups of another database"));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(
      new RegExp(
        `^${asPattern(line())}\\S+, DATA_DIR ${asPattern(prod.dataDir)}\\): set BACKUP_DIR to a folder of this site's own \\(unset, it is ${asPattern(otherDir)}-backups\\)$`,
      ),
    );
    const onProdFolder = siteEnv(staging, { BACKUP_DIR: prod.backupDir });
    for (const script of ["base-backup", "backup"]) {
      const refused = await runNpm(script, [], onProdFolder);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(
          `^Refused: ${asPattern(line())}.*: set BACKUP_DIR to a folder of this site's own \\(unset, it is ${asPattern(staging.backupDir)}\\)\\n$`,
        ),
      );
    }
    // Nothing of the others reached production's folder.
    for (const name of (await readdir(path.join(prod.backupDir, "wal"))).filter((file) =>
      /^[0-9A-F]{24}\.gz$/.test(file),
    ))
      expect(await archivedWalSystemIdentifier(path.join(prod.backupDir, "wal", name))).toBe(prod.systemIdentifier);
    expect((await listBaseBackups(path.join(prod.backupDir, "base"))).map((base) => base.systemIdentifier)).toEqual([
      prod.systemIdentifier,
    ]);
  }, 120_000);

  it("restore-to-time refuses another cluster's base backup, and another cluster's WAL file among its own", async () => {
    const [stagingBase] = await listBaseBackups(path.join(staging.backupDir, "base"));
    if (!stagingBase) throw new Error("staging has no base backup");
    const foreignBase = path.join(prod.backupDir, "base", "base-20990101T000000.000Z");
    await cp(stagingBase.directory, foreignBase, { recursive: true });
    const into = path.join(workDir, "prod-restored");
    const refusedBase = await runNpm("restore-to-time", ["latest", "--into", into], siteEnv(prod));
    expect(refusedBase.code).toBe(1);
    expect(refusedBase.stderr).toBe(
      `Refused: the base backup base-20990101T000000.000Z in ${prod.backupDir} is of database system ${staging.systemIdentifier}, not ${prod.systemIdentifier} (BACKUP_DIR's mark): it is another database's; move it out of BACKUP_DIR and restore again\n`,
    );
    await rm(foreignBase, { recursive: true });

    const stagingSegment = (await readdir(path.join(staging.backupDir, "wal")))
      .filter((name) => /^[0-9A-F]{24}\.gz$/.test(name))
      .sort()
      .at(-1);
    const foreignSegment = "0000000100000000000000F0.gz";
    await cp(
      path.join(staging.backupDir, "wal", `${stagingSegment}`),
      path.join(prod.backupDir, "wal", foreignSegment),
    );
    const refusedWal = await runNpm("restore-to-time", ["latest", "--into", into], siteEnv(prod));
    expect(refusedWal.code).toBe(1);
    expect(refusedWal.stderr).toBe(
      `Refused: the archived WAL file ${foreignSegment} in ${prod.backupDir} is of database system ${staging.systemIdentifier}, not ${prod.systemIdentifier} (BACKUP_DIR's mark): another database's WAL among this one's; move it out of BACKUP_DIR and restore again\n`,
    );
    await rm(path.join(prod.backupDir, "wal", foreignSegment));
    expect(await readdir(workDir)).not.toContain("prod-restored");
  }, 60_000);

  it("reads 1 on tce_wal_archive_failing while archiving has stalled without failing, and 0 once it archives again", async () => {
    // The archive_command writes `<segment>.gz.tmp` first: made a named pipe, the write waits for a reader that
    // never comes, as on a hung network disk, and PostgreSQL records no failure.
    const [{ segment } = { segment: "" }] = await superuserQuery<{ segment: string }>(
      prod,
      "SELECT pg_walfile_name(pg_current_wal_lsn()) AS segment",
    );
    const pipe = path.join(prod.backupDir, "wal", `${segment}.gz.tmp`);
    await promisify(execFile)("mkfifo", [pipe]);
    const owner = await postgresOwner();
    if (owner) await chown(pipe, owner.uid, owner.gid);
    // A reader lets the write through; the pipe is gone before the command syncs it, so it fails once and the
    // archiver's next try writes a file. Done whatever happens: a stuck archiver would hold PostgreSQL's shutdown.
    const letThrough = async () => {
      const reader = createReadStream(pipe);
      reader.once("open", () => void unlink(pipe));
      reader.resume();
      await once(reader, "close");
    };
    // The series waits archive_timeout plus a 30 s margin; the app's 60 s would have the test wait 90 s. The
    // metric reads the server's setting, so a short one proves the same in 35 s.
    await superuserQuery(prod, "ALTER SYSTEM SET archive_timeout = 5");
    await superuserQuery(prod, "SELECT pg_reload_conf()");
    let seconds: number;
    try {
      await postEstimates(prod, 1);
      await superuserQuery(prod, "SELECT pg_switch_wal()");
      const stalledAt = Date.now();
      // archive_timeout (5 s here) plus the 30 s margin after the last segment archived, which came before the pipe.
      await waitFor(
        "the failing series at 1",
        async () => (await metric(prod, "tce_wal_archive_failing")) === 1,
        120_000,
      );
      seconds = (Date.now() - stalledAt) / 1000;
      const [archiver] = await superuserQuery<{ failed: string }>(
        prod,
        "SELECT failed_count AS failed FROM pg_stat_archiver",
      );
      expect(archiver?.failed).toBe("0");
    } finally {
      await letThrough();
    }
    await waitFor(
      "the stalled segment archived",
      async () => (await readdir(path.join(prod.backupDir, "wal"))).includes(`${segment}.gz`),
      30_000,
    );
    await waitFor("the failing series at 0", async () => (await metric(prod, "tce_wal_archive_failing")) === 0, 30_000);
    console.info(`tce_wal_archive_failing went to 1 ${seconds.toFixed(1)} s after the archive stalled`);
  }, 180_000);
});

function asPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
