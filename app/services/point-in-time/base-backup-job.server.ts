import type { Logger } from "pino";
import type { BackupFolderConfig } from "../backup/backup-folder-mark.server";
import type { Config } from "../config.server";
import { baseBackupsDirectory, listBaseBackups, pruneBaseBackups, takeBaseBackup } from "./base-backup.server";

/** How often the job looks whether a base backup is due: the newest one's age, read from BACKUP_DIR, decides. */
const LOOK_EVERY_MS = 10 * 60_000;
/** A timer fires a little late or early: a base backup this close to BACKUP_EVERY old counts as due. */
const DUE_SLACK = 0.9;

export type BaseBackupJobConfig = BackupFolderConfig & Pick<Config, "DATA_DIR" | "BACKUP_EVERY" | "BACKUP_KEEP">;

/**
 * Takes a base backup of the embedded cluster at start when none is BACKUP_EVERY young, then looks again every ten
 * minutes (or every BACKUP_EVERY when shorter); after each, keeps the newest BACKUP_KEEP and the WAL they need. The
 * due time is read from the folder, so a restart neither skips one nor takes an extra. BACKUP_EVERY=0 is off.
 */
export function createBaseBackupJob(options: { superuserUrl: string; config: BaseBackupJobConfig; logger: Logger }): {
  start: () => void;
  stop: () => Promise<void>;
} {
  const { config, logger } = options;
  const directory = baseBackupsDirectory(config);
  const aborted = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function run(): Promise<void> {
    const newest = (await listBaseBackups(directory)).at(-1);
    if (newest && Date.now() - newest.finishedAt.getTime() < config.BACKUP_EVERY * DUE_SLACK) return;
    const backup = await takeBaseBackup({ ...options, signal: aborted.signal });
    const pruned = await pruneBaseBackups(config, backup.systemIdentifier);
    logger.info({ directory: backup.directory, ...pruned }, "base backup taken");
  }
  const runLogged = () =>
    run().catch((error: unknown) => {
      if (!aborted.signal.aborted) logger.error({ err: error }, "base backup failed; trying again later");
    });

  return {
    start: () => {
      if (config.BACKUP_EVERY === 0) return;
      running = runLogged();
      timer = setInterval(
        () => {
          running = running.then(runLogged);
        },
        Math.min(LOOK_EVERY_MS, config.BACKUP_EVERY),
      );
    },
    stop: async () => {
      clearInterval(timer);
      aborted.abort();
      await running;
    },
  };
}
