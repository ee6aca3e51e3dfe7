import { spawn } from "node:child_process";
import { type FSWatcher, watch } from "node:fs";
import { chmod, mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import {
  CopyError,
  copyBackup,
  copyStream,
  describeDestination,
  inDestination,
  runRclone,
} from "../backup/backup-copy.server";
import type { Config } from "../config.server";
import { onePerProcess } from "../one-per-process.server";
import {
  archivedWalPosition,
  type BaseBackup,
  baseBackupsDirectory,
  listBaseBackups,
  MANIFEST,
  PointInTimeRefusal,
  parseManifest,
  walArchiveDirectory,
} from "./base-backup.server";

/*
 * The WAL archive and the base backups, copied off the machine to BACKUP_COPY_TO beside the dumps (decision 0805):
 *
 *   BACKUP_COPY_TO/wal/<archived file>.gz     each file as soon as PostgreSQL has archived it, read back whole
 *   BACKUP_COPY_TO/base/base-<UTC time>.tar   each base backup's folder, streamed through tar, read back whole
 *   BACKUP_COPY_TO/base/base-<UTC time>.json  its manifest, copied last: a base backup there is whole with it
 *
 * So a lost machine loses what was committed in the last minute or so (archive_timeout, then one copy), not what
 * came in since the last dump. The two are copied apart: a base backup of a large database takes minutes to send,
 * and the WAL never waits for it.
 */

export type ArchiveCopyConfig = Pick<Config, "BACKUP_DIR" | "BACKUP_COPY_TO" | "BACKUP_COPY_KEEP">;

/** What /metrics reads: archived files not yet at the destination, and when it last had every one of them. */
export const archiveCopyProgress = onePerProcess("archive-copy", () => ({ pendingFiles: 0, caughtUpAt: 0 }));

/** An archived file is written as `<name>.gz.tmp`, then renamed: only the renamed ones are whole. */
const isArchivedFile = (name: string) => name.endsWith(".gz") && !name.endsWith(".tmp");

const walDestination = (destination: string) => inDestination(destination, "wal");
const baseDestination = (destination: string) => inDestination(destination, "base");
const TAR = ".tar";
const JSON_SUFFIX = ".json";

/** The files of a folder at the destination with their sizes; none when the folder is not there yet. */
async function filesAt(folder: string, destination: string, signal?: AbortSignal): Promise<Map<string, number>> {
  const listing = await runRclone(["lsf", "--files-only", "--format", "sp", "--separator", "\t", folder], destination, {
    signal,
  }).catch((error: unknown) => {
    if (error instanceof CopyError && /directory not found/i.test(error.message)) return "";
    throw error;
  });
  const files = new Map<string, number>();
  for (const line of listing.split("\n")) {
    const [size, name] = line.split("\t");
    if (size && name) files.set(name, Number(size));
  }
  return files;
}

/**
 * The base backups whole at the destination (their tar and their manifest are there), oldest first; `directory`
 * is the destination's path of the pair without its suffix.
 */
async function baseBackupsAt(destination: string, signal?: AbortSignal): Promise<BaseBackup[]> {
  const folder = baseDestination(destination);
  const files = await filesAt(folder, destination, signal);
  const names = [...files.keys()]
    .filter((name) => name.endsWith(JSON_SUFFIX) && files.has(name.replace(JSON_SUFFIX, TAR)))
    .map((name) => name.slice(0, -JSON_SUFFIX.length))
    .sort();
  const backups: BaseBackup[] = [];
  for (const name of names) {
    const manifest = await runRclone(["cat", inDestination(folder, `${name}${JSON_SUFFIX}`)], destination, { signal });
    backups.push(parseManifest(manifest, inDestination(folder, name)));
  }
  return backups;
}

/**
 * Streams a base backup's folder through tar to `<name>.tar` and reads it back against what was sent, then copies
 * its manifest beside it as `<name>.json`, read back too, which makes it whole. One file rather than the
 * cluster's thousand-odd: a WebDAV or S3 request each would take a minute for the smallest database.
 */
async function copyBaseBackup(backup: BaseBackup, destination: string, signal: AbortSignal): Promise<void> {
  const name = path.basename(backup.directory);
  const tar = spawn("tar", ["-C", path.dirname(backup.directory), "-cf", "-", name], {
    stdio: ["ignore", "pipe", "ignore"],
    signal,
  });
  const tarExit = new Promise<void>((resolve, reject) => {
    tar.on("error", () => reject(new CopyError("tar could not be run")));
    tar.on("close", (code) => (code === 0 ? resolve() : reject(new CopyError(`tar could not read ${name}`))));
  });
  const remoteTar = inDestination(baseDestination(destination), `${name}${TAR}`);
  await Promise.all([copyStream(tar.stdout, remoteTar, destination, signal), tarExit]);
  await copyBackup(path.join(backup.directory, MANIFEST), baseDestination(destination), {
    as: `${name}${JSON_SUFFIX}`,
    signal,
  });
}

/**
 * Keeps the newest BACKUP_COPY_KEEP whole base backups at the destination and the archived files the oldest of
 * them needs; a tar left without its manifest by a copy cut short goes too, once this machine no longer has that
 * base backup to send again. Resolves with how many of each went.
 */
async function pruneCopies(
  destination: string,
  keep: number,
  localNames: ReadonlySet<string>,
): Promise<{ baseBackups: number; walFiles: number }> {
  const folder = baseDestination(destination);
  const whole = await baseBackupsAt(destination);
  const old = whole.slice(0, Math.max(0, whole.length - keep));
  for (const backup of old) {
    await runRclone(["deletefile", `${backup.directory}${JSON_SUFFIX}`], destination);
    await runRclone(["deletefile", `${backup.directory}${TAR}`], destination);
  }
  const wholeNames = new Set(whole.map((backup) => path.basename(backup.directory)));
  for (const file of (await filesAt(folder, destination)).keys()) {
    const name = file.slice(0, -TAR.length);
    if (file.endsWith(TAR) && !wholeNames.has(name) && !localNames.has(name))
      await runRclone(["deletefile", inDestination(folder, file)], destination);
  }
  const oldest = whole[old.length];
  if (!oldest) return { baseBackups: old.length, walFiles: 0 };
  const oldestNeeded = oldest.startWalFile.slice(8);
  let walFiles = 0;
  for (const name of (await filesAt(walDestination(destination), destination)).keys()) {
    const position = archivedWalPosition(name);
    if (position === undefined || position >= oldestNeeded) continue;
    await runRclone(["deletefile", inDestination(walDestination(destination), name)], destination);
    walFiles += 1;
  }
  return { baseBackups: old.length, walFiles };
}

/** Runs `work` one call at a time; a call while it runs asks for one more run after it. */
function oneAtATime(work: () => Promise<void>): { run: () => Promise<void>; idle: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let again = false;
  return {
    idle: () => running,
    run: () => {
      again = true;
      running = running.then(async () => {
        if (!again) return;
        again = false;
        await work();
      });
      return running;
    },
  };
}

/** Waits this long after PostgreSQL archives a file, so that a burst of them goes in one round. */
const SETTLE_MS = 500;
/** A round at least this often, whatever the watcher saw: a new base backup, a destination back after a failure. */
const SWEEP_EVERY_MS = 60_000;

/**
 * Copies the archive and the base backups to BACKUP_COPY_TO as they are made: the WAL when PostgreSQL archives a
 * file (the folder is watched), both every minute. What is at the destination is listed once at start; after
 * that, what this process copied is remembered. A failing copy is logged once, and its recovery once.
 */
export function createArchiveCopyJob(options: {
  config: ArchiveCopyConfig & { BACKUP_COPY_TO: string };
  logger: Logger;
}): { start: () => void; stop: () => Promise<void> } {
  const { config, logger } = options;
  const destination = config.BACKUP_COPY_TO;
  const archive = walArchiveDirectory(config);
  const bases = baseBackupsDirectory(config);
  const aborted = new AbortController();
  const signal = aborted.signal;
  let copiedWal: Map<string, number> | undefined;
  let copiedBases: Set<string> | undefined;
  let settle: NodeJS.Timeout | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;

  async function copyWal(): Promise<void> {
    const names = (await readdir(archive).catch(() => [] as string[])).filter(isArchivedFile).sort();
    if (!copiedWal) {
      // Until the destination has answered once, all of the archive counts as waiting, so a copy that never
      // started is seen too.
      archiveCopyProgress.pendingFiles = names.length;
      copiedWal = await filesAt(walDestination(destination), destination, signal);
    }
    const archived = new Set(names);
    for (const name of copiedWal.keys()) if (!archived.has(name)) copiedWal.delete(name);
    const pending = new Map<string, number>();
    for (const name of names) {
      const size = await stat(path.join(archive, name)).then(
        (stats) => stats.size,
        () => undefined,
      );
      if (size !== undefined && copiedWal.get(name) !== size) pending.set(name, size);
    }
    archiveCopyProgress.pendingFiles = pending.size;
    for (const [name, size] of pending) {
      await copyBackup(path.join(archive, name), walDestination(destination), { signal });
      copiedWal.set(name, size);
      archiveCopyProgress.pendingFiles -= 1;
    }
    archiveCopyProgress.caughtUpAt = Date.now();
  }

  async function copyBases(): Promise<void> {
    copiedBases ??= new Set(
      (await baseBackupsAt(destination, signal)).map((backup) => path.basename(backup.directory)),
    );
    const local = await listBaseBackups(bases);
    const localNames = new Set(local.map((backup) => path.basename(backup.directory)));
    let copied = 0;
    for (const backup of local) {
      if (copiedBases.has(path.basename(backup.directory))) continue;
      await copyBaseBackup(backup, destination, signal);
      copiedBases.add(path.basename(backup.directory));
      copied += 1;
      logger.info({ directory: backup.directory }, "base backup copied off the machine and read back whole");
    }
    if (copied === 0) return;
    const pruned = await pruneCopies(destination, config.BACKUP_COPY_KEEP, localNames);
    for (const name of copiedBases) if (!localNames.has(name)) copiedBases.delete(name);
    if (pruned.baseBackups + pruned.walFiles > 0)
      logger.info(pruned, "old base backups and WAL deleted off the machine");
  }

  /** Logs a lane's first failure and its recovery, not every try in between. */
  const logged = (what: string, work: () => Promise<void>) => {
    let failing: string | undefined;
    return async () => {
      try {
        await work();
        if (failing !== undefined) logger.info({ to: describeDestination(destination) }, `${what} copied again`);
        failing = undefined;
      } catch (error) {
        if (signal.aborted) return;
        const reason = error instanceof CopyError ? error.message : String(error);
        if (reason !== failing)
          logger.error({ to: describeDestination(destination), reason }, `${what} copy failed; tried again later`);
        failing = reason;
      }
    };
  };
  const wal = oneAtATime(logged("WAL archive", copyWal));
  const base = oneAtATime(logged("base backup", copyBases));
  const both = () => Promise.all([wal.run(), base.run()]);

  return {
    start: () => {
      void both();
      sweep = setInterval(both, SWEEP_EVERY_MS);
      try {
        watcher = watch(archive, (_event, name) => {
          if (!name || !isArchivedFile(name)) return;
          clearTimeout(settle);
          settle = setTimeout(wal.run, SETTLE_MS);
        });
        watcher.on("error", () => watcher?.close());
      } catch (error) {
        logger.warn({ err: error }, "the WAL archive folder cannot be watched; it is copied every minute instead");
      }
    },
    stop: async () => {
      clearInterval(sweep);
      clearTimeout(settle);
      watcher?.close();
      aborted.abort();
      await Promise.all([wal.idle(), base.idle()]);
    },
  };
}

/**
 * Brings from BACKUP_COPY_TO what a restore to `target` needs into `folder`, laid out as a BACKUP_DIR: the newest
 * whole base backup finished before it (or the newest, for `latest`), and every archived file from its start on.
 * For a lost machine: nothing of this machine's BACKUP_DIR is read.
 */
export async function fetchCopiesForRestore(options: {
  destination: string;
  target: Date | "latest";
  folder: string;
}): Promise<void> {
  const { destination, target, folder } = options;
  const backups = await baseBackupsAt(destination);
  const chosen = backups.filter((backup) => target === "latest" || backup.finishedAt <= target).at(-1);
  if (!chosen) {
    throw new PointInTimeRefusal(
      backups[0]
        ? `no base backup at ${describeDestination(destination)} finished before that time; the oldest finished ${backups[0].finishedAt.toISOString()}`
        : `no whole base backup at ${describeDestination(destination)}`,
    );
  }
  // As root, PostgreSQL runs as `postgres`, which reads the archive through these folders.
  const baseFolder = baseBackupsDirectory({ BACKUP_DIR: folder });
  await mkdir(path.join(folder, "wal"), { recursive: true });
  await mkdir(baseFolder, { recursive: true });
  await chmod(folder, 0o711);
  await chmod(path.join(folder, "wal"), 0o755);
  const tarFile = path.join(baseFolder, `${path.basename(chosen.directory)}${TAR}`);
  await runRclone(["copyto", `${chosen.directory}${TAR}`, tarFile], destination);
  await untar(tarFile, baseFolder);
  await rm(tarFile);
  const startPosition = chosen.startWalFile.slice(8);
  const needed = [...(await filesAt(walDestination(destination), destination)).keys()].filter((name) => {
    const position = archivedWalPosition(name);
    return position === undefined || position >= startPosition;
  });
  const list = path.join(folder, "wanted-wal-files");
  await writeFile(list, `${needed.join("\n")}\n`);
  try {
    await runRclone(
      ["copy", "--files-from-raw", list, walDestination(destination), path.join(folder, "wal")],
      destination,
    );
  } finally {
    await rm(list, { force: true });
  }
}

function untar(file: string, into: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const tar = spawn("tar", ["-C", into, "-xf", file], { stdio: "ignore" });
    tar.on("error", () => reject(new CopyError("tar could not be run")));
    tar.on("close", (code) =>
      code === 0 ? resolve() : reject(new CopyError(`the copy ${path.basename(file)} is not a whole tar file`)),
    );
  });
}
