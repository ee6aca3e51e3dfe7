import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdtemp, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { desc } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot, startAppServer } from "#tests/app-server";
import { smallPdf, validApplication } from "#tests/application-fixture";
import { formActionHarness } from "#tests/form-action";
import { runNpm as runNpmScript } from "#tests/npm-run";
import { startOffMachinePlace } from "#tests/rclone-webdav";
import { addStaffUser, signInOverHttp } from "#tests/staff";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver } from "#tests/webhook-receiver";
import { submitApplication } from "~/features/careers/submit-application.server";
import { verifyPassword } from "~/services/auth/password.server";
import { findStaffUserByUsername } from "~/services/auth/staff-users.server";
import { CHUNK_BYTES, decodeBackupKey, openSealedFile } from "~/services/backup/backup-encryption.server";
import { verifyBackup } from "~/services/backup/backup-file.server";
import { connectDatabase, type Database } from "~/services/db/database.server";
import { startEmbeddedPostgres } from "~/services/db/embedded-postgres.server";
import { applyMigrations } from "~/services/db/migrations.server";
import { submissions } from "~/services/db/schema.server";

const logger = pino({ level: "silent" });
/** The key every command here runs with, as an operator's .env would give it. */
const BACKUP_ENCRYPTION_KEY = randomBytes(32).toString("base64");
const backupKey = decodeBackupKey(BACKUP_ENCRYPTION_KEY);
const runNpm = (script: string, args: string[], env: Record<string, string>) =>
  runNpmScript(script, args, { BACKUP_ENCRYPTION_KEY, ...env });
let source: TestDatabase;
let workDir: string;

beforeAll(async () => {
  source = await createTestDatabase();
  // As root the embedded PostgreSQL runs as "postgres", which must be able to enter its DATA_DIR.
  workDir = await mkdtemp(path.join(tmpdir(), "tce-backup-"));
  await chmod(workDir, 0o755);
});
afterAll(async () => {
  await source.drop();
  await rm(workDir, { recursive: true, force: true });
});

const harness = formActionHarness({
  path: "/apply",
  database: () => source.db,
  env: { WEBHOOK_APPLICATION_URL: "http://127.0.0.1:9/primary", STAFF_NOTIFY_EMAIL: "office@example.com" },
  clientIp: "192.0.2.30",
});

/** Posts one application with its own resume, as the careers page does; resolves with its reference. */
async function postApplication(index: number): Promise<string> {
  const request = harness.post(
    { ...validApplication, firstName: `Applicant${index}`, submissionKey: crypto.randomUUID() },
    { files: { resume: { bytes: smallPdf(`Resume number ${index}`), name: `resume-${index}.pdf` } } },
  );
  const response = await submitApplication(request, harness.contextFor({}, `192.0.2.${(index % 200) + 1}`));
  const reference = (response.data as { reference?: string }).reference;
  if (!reference) throw new Error(`post ${index} was not stored: ${JSON.stringify(response.data)}`);
  return reference;
}

async function backUp(databaseUrl: string, backupDir: string, env: Record<string, string> = {}): Promise<string> {
  const result = await runNpm("backup", [], { DATABASE_URL: databaseUrl, BACKUP_DIR: backupDir, ...env });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const file = /^(\S+\.backup) \(/.exec(result.stdout)?.[1];
  if (!file) throw new Error(`no backup file named in: ${result.stdout}`);
  return file;
}

/** What must survive a restore, by reference: the answers, each file's bytes and each delivery's state. */
async function snapshotOf(db: Database, reference: string) {
  const { submission, deliveries, files } = await storedByReference(db, reference);
  return {
    payload: submission.payload,
    files: files.map((file) => ({
      name: file.fileName,
      sha256: createHash("sha256").update(file.content).digest("hex"),
    })),
    deliveries: deliveries.map((delivery) => ({
      target: delivery.target,
      status: delivery.status,
      attempts: delivery.attemptCount,
    })),
  };
}

describe("npm run backup and npm run restore", () => {
  it("backs up during a burst of posts, copies off the machine; the copy restored into a fresh DATA_DIR holds everything acknowledged before it", async () => {
    const staff = await addStaffUser(source.db);
    const acknowledged: string[] = [];
    for (let index = 0; index < 10; index += 1) acknowledged.push(await postApplication(index));

    let postsStopped = false;
    const duringBackup: string[] = [];
    const burst = (async () => {
      for (let index = 100; !postsStopped; index += 1) duringBackup.push(await postApplication(index));
    })();
    const acknowledgedBeforeBackup = [...acknowledged];
    const backupDir = path.join(workDir, "backups");
    const offsite = await startOffMachinePlace();
    let file: string;
    try {
      file = await backUp(source.url, backupDir, offsite.env);
    } finally {
      postsStopped = true;
      await burst;
      await offsite.stop();
    }
    expect(duringBackup.length).toBeGreaterThan(0);

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(backupDir)).mode & 0o777).toBe(0o700);

    // The machine is lost with its backups: the restore uses the copy, fetched back from the second place.
    const original = await readFile(file);
    await rm(file);
    const fetched = path.join(workDir, "fetched", path.basename(file));
    try {
      await offsite.start();
      await promisify(execFile)("rclone", ["copyto", `${offsite.copyTo}/${path.basename(file)}`, fetched], {
        env: { PATH: process.env.PATH, RCLONE_CONFIG: offsite.configFile },
      });
    } finally {
      await offsite.close();
    }
    expect(Buffer.compare(await readFile(fetched), original)).toBe(0);
    const checked = await runNpm("backup", ["--check", fetched], {});
    expect(checked).toMatchObject({ code: 0, stderr: "" });
    expect(checked.stdout).toMatch(/^OK: \S+\.backup \(taken .+, \d+ rows in \d+ tables\)\n$/);

    const freshDataDir = path.join(workDir, "fresh");
    const restored = await runNpm("restore", [fetched], { DATA_DIR: freshDataDir });
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/^Restored \S+\.backup \(taken .+, \d+ rows in \d+ tables\) in [\d.]+ s\n$/);

    const embedded = await startEmbeddedPostgres({ dataDir: freshDataDir, logger });
    const target = connectDatabase(embedded.url, logger);
    try {
      // The app's start on the restored database: nothing left to migrate, and new posts get new ids.
      await applyMigrations(target.pool, path.join(projectRoot, "drizzle"));
      for (const reference of acknowledgedBeforeBackup) {
        expect(await snapshotOf(target.db, reference)).toEqual(await snapshotOf(source.db, reference));
      }
      const restoredCount = await target.db.$count(submissions);
      expect(restoredCount).toBeGreaterThanOrEqual(acknowledgedBeforeBackup.length);
      expect(restoredCount).toBeLessThanOrEqual(acknowledgedBeforeBackup.length + duringBackup.length);

      const account = await findStaffUserByUsername(target.db, staff.username);
      expect(await verifyPassword(account?.passwordHash, staff.password)).toBe(true);

      const [highest] = await target.db.select({ id: submissions.id }).from(submissions).orderBy(desc(submissions.id));
      const restoredHarness = formActionHarness({ path: "/apply", database: () => target.db, clientIp: "192.0.2.50" });
      const response = await submitApplication(
        restoredHarness.post(
          { ...validApplication, submissionKey: crypto.randomUUID() },
          { files: { resume: { bytes: smallPdf("After the restore"), name: "after.pdf" } } },
        ),
        restoredHarness.contextFor(),
      );
      const after = await storedByReference(target.db, (response.data as { reference: string }).reference);
      expect(after.submission.id).toBeGreaterThan(highest?.id ?? Number.POSITIVE_INFINITY);
    } finally {
      await target.close();
      await embedded.stop();
    }

    // The built app started on the restored DATA_DIR carries on: the staff account signs in, every file of a
    // submission acknowledged before the backup downloads with the same bytes, and the deliveries left pending
    // are sent.
    const receiver = await startWebhookReceiver();
    const app = await startAppServer({
      dataDir: freshDataDir,
      env: { WEBHOOK_APPLICATION_URL: `${receiver.url}primary` },
    });
    try {
      const cookie = await signInOverHttp(app.url, staff.username, staff.password);
      for (const reference of acknowledgedBeforeBackup) {
        const { submission, files } = await storedByReference(source.db, reference);
        for (const file of files) {
          const download = await fetch(`${app.url}/admin/inbox/${submission.id}/files/${file.id}`, {
            headers: { cookie },
          });
          expect(download.status).toBe(200);
          expect(Buffer.compare(Buffer.from(await download.arrayBuffer()), file.content)).toBe(0);
        }
      }
      const delivered = () => new Set(receiver.requests.map((request) => request.headers["submission-reference"]));
      await waitFor("the pending deliveries sent", () =>
        acknowledgedBeforeBackup.every((reference) => delivered().has(reference)),
      );
    } finally {
      await app.stop();
      await receiver.close();
    }
  }, 180_000);
});

describe("npm run restore refuses, leaving the target as it was", () => {
  let target: TestDatabase;
  let goodBackup: string;
  let targetReference: string;
  beforeAll(async () => {
    target = await createTestDatabase();
    goodBackup = await backUp(source.url, path.join(workDir, "refusals"));
    const targetHarness = formActionHarness({ path: "/apply", database: () => target.db, clientIp: "192.0.2.40" });
    const response = await submitApplication(
      targetHarness.post(
        { ...validApplication, submissionKey: crypto.randomUUID() },
        { files: { resume: { bytes: smallPdf("Target"), name: "target.pdf" } } },
      ),
      targetHarness.contextFor(),
    );
    targetReference = (response.data as { reference: string }).reference;
  });
  afterAll(() => target.drop());

  async function expectRefused(file: string, message: RegExp, extraArgs: string[] = []) {
    const before = await snapshotOf(target.db, targetReference);
    const countBefore = await target.db.$count(submissions);
    const result = await runNpm("restore", [file, ...extraArgs], { DATABASE_URL: target.url });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(await snapshotOf(target.db, targetReference)).toEqual(before);
    expect(await target.db.$count(submissions)).toBe(countBefore);
  }

  it("a truncated backup", async () => {
    const truncated = path.join(workDir, "truncated.backup");
    await writeFile(truncated, await readFile(goodBackup));
    await truncate(truncated, Math.floor((await stat(goodBackup)).size / 2));
    await expectRefused(truncated, /^Refused: \S+truncated\.backup fails its check at part \d+: it was changed/, [
      "--force",
    ]);
  });

  it("a damaged backup", async () => {
    const damaged = path.join(workDir, "damaged.backup");
    const bytes = await readFile(goodBackup);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    await writeFile(damaged, bytes);
    await expectRefused(damaged, /^Refused: \S+damaged\.backup fails its check at part \d+/, ["--force"]);
  });

  it("a backup whose parts were swapped, or cut at a part's end", async () => {
    const bytes = await readFile(goodBackup);
    const firstPart = bytes.indexOf(0x0a, bytes.indexOf(0x0a) + 1) + 1;
    const part = (index: number) => firstPart + index * (CHUNK_BYTES + 16);
    expect(bytes.length).toBeGreaterThan(part(2));
    const swapped = path.join(workDir, "swapped.backup");
    await writeFile(
      swapped,
      Buffer.concat([
        bytes.subarray(0, part(0)),
        bytes.subarray(part(1), part(2)),
        bytes.subarray(part(0), part(1)),
        bytes.subarray(part(2)),
      ]),
    );
    await expectRefused(swapped, /^Refused: \S+swapped\.backup fails its check at part 1/, ["--force"]);
    const cut = path.join(workDir, "cut.backup");
    await writeFile(cut, bytes.subarray(0, part(2)));
    await expectRefused(cut, /^Refused: \S+cut\.backup fails its check at part 2/, ["--force"]);
  });

  it("holds none of what it backs up in the clear: an applicant's name is only in the opened backup", async () => {
    const raw = await readFile(goodBackup);
    const opened = path.join(workDir, "opened.backup");
    if (!backupKey) throw new Error("the test key does not decode");
    await openSealedFile(backupKey, goodBackup, opened);
    const plain = await readFile(opened);
    for (const known of ["Applicant1", validApplication.email, "Resume number 1"]) {
      expect(plain.includes(Buffer.from(known))).toBe(true);
      expect(raw.includes(Buffer.from(known))).toBe(false);
    }
  });

  it("an unsealed backup (written before backups were sealed, or forged without the key), unless --plain is given", async () => {
    if (!backupKey) throw new Error("the test key does not decode");
    const unsealed = path.join(workDir, "unsealed.backup");
    await openSealedFile(backupKey, goodBackup, unsealed);
    await expectRefused(
      unsealed,
      /^Refused: \S+unsealed\.backup is not sealed: it was written before backups were encrypted, or by someone without BACKUP_ENCRYPTION_KEY; if it is one of yours, add --plain to take it$/m,
      ["--force"],
    );

    const checked = await runNpm("backup", ["--check", unsealed, "--plain"], {});
    expect(checked.code).toBe(0);
    expect(checked.stderr).toMatch(/^Warning: \S+unsealed\.backup is not sealed/);
    // Taken as asked, into a database of its own: the target above stays as the other refusals expect it.
    const spare = await createTestDatabase();
    try {
      const restored = await runNpm("restore", [unsealed, "--plain"], { DATABASE_URL: spare.url });
      expect(restored.code).toBe(0);
      expect(restored.stderr).toBe(
        `Warning: ${unsealed} is not sealed (a backup from before backups were encrypted): nothing proves who wrote it\n`,
      );
      expect(await spare.db.$count(submissions)).toBe(await countInBackup(goodBackup));
    } finally {
      await spare.drop();
    }
  });

  it("a backup sealed with another key, naming both keys' ids", async () => {
    const other = randomBytes(32).toString("hex");
    const result = await runNpm("restore", [goodBackup, "--force"], {
      DATABASE_URL: target.url,
      BACKUP_ENCRYPTION_KEY: other,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Refused: ${goodBackup} was sealed with another key (key id ${backupKey?.id}; BACKUP_ENCRYPTION_KEY's is ${decodeBackupKey(other)?.id}): set BACKUP_ENCRYPTION_KEY to the key it was sealed with\n`,
    );
  });

  it("a foreign file", async () => {
    const foreign = path.join(workDir, "resume.pdf");
    await writeFile(foreign, smallPdf());
    await expectRefused(foreign, /^Refused: \S+resume\.pdf is not a backup of this app$/m, ["--force"]);
  });

  it("npm run backup -- --check, which says OK of a good backup and what is wrong with a bad one", async () => {
    const good = await runNpm("backup", ["--check", goodBackup], {});
    expect(good).toMatchObject({ code: 0, stderr: "" });
    expect(good.stdout).toMatch(/^OK: \S+\.backup \(taken .+, \d+ rows in \d+ tables\)\n$/);

    const bytes = await readFile(goodBackup);
    const damaged = path.join(workDir, "checked-damaged.backup");
    bytes[bytes.length - 200] = (bytes[bytes.length - 200] ?? 0) ^ 0x01;
    await writeFile(damaged, bytes);
    const truncated = path.join(workDir, "checked-truncated.backup");
    await writeFile(truncated, bytes.subarray(0, bytes.length - 10));
    for (const [file, wrong] of [
      [damaged, / fails its check at part \d+: it was changed, cut short or damaged after it was written$/],
      [truncated, / fails its check at part \d+: it was changed, cut short or damaged after it was written$/],
      [path.join(workDir, "no-such.backup"), / cannot be read$/],
    ] as const) {
      const result = await runNpm("backup", ["--check", file], {});
      expect(result).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr.startsWith(`Not OK: ${file} `)).toBe(true);
      expect(result.stderr.trimEnd()).toMatch(wrong);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
  }, 180_000);

  it("a target that holds data, without --force", async () => {
    await expectRefused(goodBackup, /^Refused: The target database holds data: add --force/);
  });

  it("a target an app is connected to, even with --force", async () => {
    const runningApp = connectDatabase(target.url, logger);
    // Held, not left idle: the pool closes an idle connection after 10 s, sooner than a loaded machine runs npm.
    const connection = await runningApp.pool.connect();
    try {
      await expectRefused(goodBackup, /^Refused: An app is connected to the target database/, ["--force"]);
    } finally {
      connection.release();
      await runningApp.close();
    }
  });

  it("a DATA_DIR an app is running on", async () => {
    const dataDir = path.join(workDir, "running");
    const running = await startEmbeddedPostgres({ dataDir, logger });
    try {
      const result = await runNpm("restore", [goodBackup, "--force"], { DATA_DIR: dataDir });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Refused: DATA_DIR \S+ is in use by another running app \(pid \d+\)/);
    } finally {
      await running.stop();
    }
  });

  it("replaces a target that holds data with --force", async () => {
    const result = await runNpm("restore", [goodBackup, "--force"], { DATABASE_URL: target.url });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    await expect(storedByReference(target.db, targetReference)).rejects.toThrow(`no submission ${targetReference}`);
    expect(await target.db.$count(submissions)).toBe(await countInBackup(goodBackup));
  });
});

async function countInBackup(file: string): Promise<number> {
  const { manifest } = await verifyBackup(file, { key: backupKey, allowPlain: false });
  return manifest.tables.find((table) => table.name === "submissions")?.rows ?? -1;
}
