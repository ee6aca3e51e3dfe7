import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturingLogger } from "#tests/capturing-logger";
import { type OffMachinePlace, startOffMachinePlace } from "#tests/rclone-webdav";
import { decodeBackupKey, openSealedFile } from "../backup/backup-encryption.server";
import { archiveCopyProgress, createArchiveCopyJob } from "./archive-copy.server";
import { baseBackupsDirectory, walArchiveDirectory } from "./base-backup.server";

let place: OffMachinePlace;
let backupDir: string;
const savedEnv = { ...process.env };
beforeAll(async () => {
  place = await startOffMachinePlace();
  backupDir = await mkdtemp(path.join(tmpdir(), "tce-archive-copy-"));
  // Each try fails at once while the place is down, rather than after rclone's own retries.
  Object.assign(process.env, { RCLONE_CONFIG: place.configFile, RCLONE_RETRIES: "1", RCLONE_LOW_LEVEL_RETRIES: "1" });
});
afterAll(async () => {
  process.env = savedEnv;
  await place.close();
  await rm(backupDir, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the WAL archive's copy off the machine, when the second place is out of reach", () => {
  it("counts the archive as waiting and says so once, then copies all of it once the place answers again", async () => {
    const config = {
      BACKUP_DIR: backupDir,
      BACKUP_COPY_TO: place.copyTo,
      BACKUP_COPY_KEEP: 2,
      BACKUP_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };
    const key = decodeBackupKey(config.BACKUP_ENCRYPTION_KEY);
    if (!key) throw new Error("the test key does not decode");
    const archive = walArchiveDirectory(config);
    await mkdir(archive, { recursive: true });
    await mkdir(baseBackupsDirectory(config), { recursive: true });
    const archived = new Map<string, Buffer>();
    const archiveFile = async (segment: number) => {
      const name = `0000000100000000000000${segment.toString(16).toUpperCase().padStart(2, "0")}.gz`;
      const bytes = randomBytes(64 * 1024);
      await writeFile(path.join(archive, name), bytes);
      archived.set(name, bytes);
    };
    const { logger, lines } = capturingLogger();
    const said = (msg: string) =>
      lines.map((line) => JSON.parse(line) as { msg: string; reason?: string }).filter((line) => line.msg === msg);

    await place.stop();
    await archiveFile(1);
    const caughtUpBefore = archiveCopyProgress.caughtUpAt;
    const job = createArchiveCopyJob({ config, systemIdentifier: "7000000000000000001", logger });
    job.start();
    try {
      // The place never answered: what is archived counts as waiting, and the failure is said once.
      await until("the first failure", () => said("WAL archive copy failed; tried again later").length > 0);
      expect(archiveCopyProgress.pendingFiles).toBe(1);
      expect(said("WAL archive copy failed; tried again later")[0]?.reason).toBeTruthy();

      // A file archived while the place is down is a try more, and one more file waiting, not one more line.
      await archiveFile(2);
      await until("the second file counted as waiting", () => archiveCopyProgress.pendingFiles === 2);
      expect(said("WAL archive copy failed; tried again later")).toHaveLength(1);
      expect(archiveCopyProgress.caughtUpAt).toBe(caughtUpBefore);

      // Back: the next file archived brings the whole archive across, read back whole, and the recovery is said.
      await place.start();
      await archiveFile(3);
      // The round that was failing may be the one to succeed, with the third file's round after it.
      const copied = (name: string) => existsSync(path.join(place.servedDir, "tce-backups", "wal", name));
      await until(
        "the copy catching up",
        () => [...archived.keys()].every(copied) && archiveCopyProgress.pendingFiles === 0,
      );
      await job.stop();
      expect(said("WAL archive copied again")).toHaveLength(1);
      expect(archiveCopyProgress.pendingFiles).toBe(0);
      expect(archiveCopyProgress.caughtUpAt).toBeGreaterThan(caughtUpBefore);
      // What left the machine is sealed: it opens, with the key, to the archived file byte for byte.
      for (const [name, bytes] of archived) {
        const copy = path.join(place.servedDir, "tce-backups", "wal", name);
        expect((await readFile(copy)).includes(bytes.subarray(0, 64))).toBe(false);
        await openSealedFile(key, copy, path.join(backupDir, `${name}.opened`));
        expect(await readFile(path.join(backupDir, `${name}.opened`))).toEqual(bytes);
      }
      expect(said("WAL archive copy failed; tried again later")).toHaveLength(1);
    } finally {
      await job.stop();
    }
  });
});
