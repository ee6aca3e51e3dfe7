import { execFile, spawn } from "node:child_process";
import { createReadStream, watch } from "node:fs";
import { chmod, chown, lstat, mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import type { Logger } from "pino";
import { CopyError, copyStream, describeDestination, inDestination, runRclone } from "../backup/backup-copy.server";
import {
  type BackupKey,
  backupKeyOf,
  openBuffer,
  openSealedFile,
  SealedFileError,
  sealedLength,
  sealStream,
} from "../backup/backup-encryption.server";
import { claimCopy, ForeignBackupFolder, MARK_FILE, readCopyMark } from "../backup/backup-folder-mark.server";
import type { Config } from "../config.server";
import { isWalFileName, postgresOwner } from "../db/wal-archiving.server";
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
 * The WAL archive and the base backups, copied off the machine to BACKUP_COPY_TO beside the dumps (decision 0805),
 * each file sealed with BACKUP_ENCRYPTION_KEY on the way (decision 1007):
 *
 *   BACKUP_COPY_TO/wal/<archived file>.gz     each file as soon as PostgreSQL has archived it, read back whole
 *   BACKUP_COPY_TO/base/base-<UTC time>.tar   each base backup's folder, streamed through tar, read back whole
 *   BACKUP_COPY_TO/base/base-<UTC time>.json  its manifest, copied last: a base backup there is whole with it
 *
 * A manifest there that does not open with the key (a copy from before they were sealed, or one altered) is not a
 * whole base backup: the job copies this machine's again, sealed, and prunes the rest like a tar left half-way.
 *
 * So a lost machine loses what was committed in the last minute or so (archive_timeout, then one copy), not what
 * came in since the last dump. The two are copied apart: a base backup of a large database takes minutes to send,
 * and the WAL never waits for it.
 */

export type ArchiveCopyConfig = Pick<
  Config,
  "BACKUP_DIR" | "BACKUP_COPY_TO" | "BACKUP_COPY_KEEP" | "BACKUP_ENCRYPTION_KEY"
>;

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
 * The base backups whole at the destination (their tar and their manifest, which opens with `key`, are there),
 * oldest first; `directory` is the destination's path of the pair without its suffix. `unreadable` gets the names
 * of the manifests that did not open.
 */
async function baseBackupsAt(
  destination: string,
  key: BackupKey,
  options: { signal?: AbortSignal; unreadable?: (name: string) => void } = {},
): Promise<BaseBackup[]> {
  const { signal } = options;
  const folder = baseDestination(destination);
  const files = await filesAt(folder, destination, signal);
  const names = [...files.keys()]
    .filter((name) => name.endsWith(JSON_SUFFIX) && files.has(name.replace(JSON_SUFFIX, TAR)))
    .map((name) => name.slice(0, -JSON_SUFFIX.length))
    .sort();
  const backups: BaseBackup[] = [];
  for (const name of names) {
    const sealed: Buffer[] = [];
    await runRclone(["cat", inDestination(folder, `${name}${JSON_SUFFIX}`)], destination, {
      signal,
      onOutput: (chunk) => sealed.push(chunk),
    });
    const manifest = await openBuffer(key, Buffer.concat(sealed)).catch((error: unknown) => {
      if (error instanceof SealedFileError) return undefined;
      throw error;
    });
    if (manifest) backups.push(parseManifest(manifest.toString("utf8"), inDestination(folder, name)));
    else options.unreadable?.(`${name}${JSON_SUFFIX}`);
  }
  return backups;
}

/** Streams `source` sealed with `key` to `remoteFile`, read back against what was sent. */
async function copySealed(
  source: Readable,
  remoteFile: string,
  destination: string,
  key: BackupKey,
  signal?: AbortSignal,
): Promise<void> {
  const sealed = sealStream(key);
  const sending = copyStream(sealed, remoteFile, destination, signal).catch((error: unknown) => {
    source.destroy();
    sealed.destroy();
    throw error;
  });
  await Promise.all([pipeline(source, sealed), sending]);
}

/**
 * Streams a base backup's folder through tar to `<name>.tar` and reads it back against what was sent, then copies
 * its manifest beside it as `<name>.json`, read back too, which makes it whole. One file rather than the
 * cluster's thousand-odd: a WebDAV or S3 request each would take a minute for the smallest database.
 */
async function copyBaseBackup(
  backup: BaseBackup,
  destination: string,
  key: BackupKey,
  signal: AbortSignal,
): Promise<void> {
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
  await Promise.all([copySealed(tar.stdout, remoteTar, destination, key, signal), tarExit]);
  const remoteManifest = inDestination(baseDestination(destination), `${name}${JSON_SUFFIX}`);
  await copySealed(createReadStream(path.join(backup.directory, MANIFEST)), remoteManifest, destination, key, signal);
}

/**
 * Keeps the newest BACKUP_COPY_KEEP whole base backups at the destination and the archived files the oldest of
 * them needs; a tar left without its manifest by a copy cut short goes too, once this machine no longer has that
 * base backup to send again. Resolves with how many of each went.
 */
async function pruneCopies(
  destination: string,
  key: BackupKey,
  keep: number,
  local: readonly BaseBackup[],
): Promise<{ baseBackups: number; walFiles: number }> {
  const folder = baseDestination(destination);
  const localNames = new Set(local.map((backup) => path.basename(backup.directory)));
  // Only this database's: a base backup whose manifest names another system is left alone.
  const ours = local.at(-1)?.systemIdentifier;
  const allWhole = await baseBackupsAt(destination, key);
  const whole = allWhole.filter((backup) => !backup.systemIdentifier || !ours || backup.systemIdentifier === ours);
  const old = whole.slice(0, Math.max(0, whole.length - keep));
  for (const backup of old) {
    await runRclone(["deletefile", `${backup.directory}${JSON_SUFFIX}`], destination);
    await runRclone(["deletefile", `${backup.directory}${TAR}`], destination);
  }
  const wholeNames = new Set(allWhole.map((backup) => path.basename(backup.directory)));
  for (const file of (await filesAt(folder, destination)).keys()) {
    const name = file.replace(/\.(tar|json)$/, "");
    if (name !== file && !wholeNames.has(name) && !localNames.has(name))
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

type ArchiveCopyJobConfig = ArchiveCopyConfig &
  Partial<Pick<Config, "SITE_URL" | "DATA_DIR">> & { BACKUP_COPY_TO: string };

/** What the copy job knows between rounds: its settings, and what it has copied so far. */
type CopyJob = {
  config: ArchiveCopyJobConfig;
  destination: string;
  key: BackupKey;
  /** This machine's WAL archive and base backups (in BACKUP_DIR). */
  archive: string;
  bases: string;
  /** The cluster archived: the destination must be its (its mark), or nothing is copied there. */
  systemIdentifier: string;
  logger: Logger;
  signal: AbortSignal;
  /** The archived files at the destination with their sizes, once it has been listed. */
  copiedWal?: Map<string, number>;
  /** The base backups whole at the destination, once it has been listed. */
  copiedBases?: Set<string>;
  claimed?: Promise<unknown>;
};

/** The destination's mark, checked (or written) once per process; a failure is checked again next round. */
function claimDestination(job: CopyJob): Promise<unknown> {
  job.claimed ??= claimCopy(job.destination, job.config, job.systemIdentifier).catch((error: unknown) => {
    job.claimed = undefined;
    throw error;
  });
  return job.claimed;
}

/** Copies the archived files the destination does not hold whole yet, counting them down in archiveCopyProgress. */
async function copyWal(job: CopyJob): Promise<void> {
  const { archive } = job;
  const names = (await readdir(archive).catch(() => [] as string[])).filter(isArchivedFile).sort();
  if (!job.copiedWal) {
    // Until the destination has answered once, all of the archive counts as waiting, so a copy that never
    // started is seen too.
    archiveCopyProgress.pendingFiles = names.length;
    await claimDestination(job);
    job.copiedWal = await filesAt(walDestination(job.destination), job.destination, job.signal);
  }
  const copiedWal = job.copiedWal;
  const archived = new Set(names);
  for (const name of copiedWal.keys()) if (!archived.has(name)) copiedWal.delete(name);
  const pending = new Map<string, number>();
  for (const name of names) {
    const size = await stat(path.join(archive, name)).then(
      (stats) => stats.size,
      () => undefined,
    );
    // A copy of another size is not this file sealed: one cut short, or one from before copies were sealed.
    if (size !== undefined && copiedWal.get(name) !== sealedLength(size)) pending.set(name, size);
  }
  archiveCopyProgress.pendingFiles = pending.size;
  for (const [name, size] of pending) {
    const remoteFile = inDestination(walDestination(job.destination), name);
    await copySealed(createReadStream(path.join(archive, name)), remoteFile, job.destination, job.key, job.signal);
    copiedWal.set(name, sealedLength(size));
    archiveCopyProgress.pendingFiles -= 1;
  }
  archiveCopyProgress.caughtUpAt = Date.now();
}

/** Copies the base backups the destination does not hold whole yet; after a copy, prunes the old ones there. */
async function copyBases(job: CopyJob): Promise<void> {
  const { destination, key, signal, logger } = job;
  await claimDestination(job);
  job.copiedBases ??= new Set(
    (await baseBackupsAt(destination, key, { signal })).map((backup) => path.basename(backup.directory)),
  );
  const copiedBases = job.copiedBases;
  const local = await listBaseBackups(job.bases);
  const localNames = new Set(local.map((backup) => path.basename(backup.directory)));
  let copied = 0;
  for (const backup of local) {
    if (copiedBases.has(path.basename(backup.directory))) continue;
    await copyBaseBackup(backup, destination, key, signal);
    copiedBases.add(path.basename(backup.directory));
    copied += 1;
    logger.info({ directory: backup.directory }, "base backup copied off the machine and read back whole");
  }
  if (copied === 0) return;
  const pruned = await pruneCopies(destination, key, job.config.BACKUP_COPY_KEEP, local);
  for (const name of copiedBases) if (!localNames.has(name)) copiedBases.delete(name);
  if (pruned.baseBackups + pruned.walFiles > 0) logger.info(pruned, "old base backups and WAL deleted off the machine");
}

/** `work` for a lane that logs its first failure and its recovery, not every try in between. */
function loggingFailures(job: CopyJob, what: string, work: (job: CopyJob) => Promise<void>): () => Promise<void> {
  const to = describeDestination(job.destination);
  let failing: string | undefined;
  return async () => {
    try {
      await work(job);
      if (failing !== undefined) job.logger.info({ to }, `${what} copied again`);
      failing = undefined;
    } catch (error) {
      if (job.signal.aborted) return;
      const reason = error instanceof CopyError || error instanceof ForeignBackupFolder ? error.message : String(error);
      if (reason !== failing) job.logger.error({ to, reason }, `${what} copy failed; tried again later`);
      failing = reason;
    }
  };
}

/**
 * Calls `onArchived` once a burst of files archived into `archive` has settled; undefined (and a warning) when the
 * folder cannot be watched. `stop` also drops a call still waiting.
 */
function watchArchive(archive: string, onArchived: () => void, logger: Logger): { stop: () => void } | undefined {
  let settle: NodeJS.Timeout | undefined;
  try {
    const watcher = watch(archive, (_event, name) => {
      if (!name || !isArchivedFile(name)) return;
      clearTimeout(settle);
      settle = setTimeout(onArchived, SETTLE_MS);
    });
    watcher.on("error", () => watcher.close());
    return {
      stop: () => {
        clearTimeout(settle);
        watcher.close();
      },
    };
  } catch (error) {
    logger.warn({ err: error }, "the WAL archive folder cannot be watched; it is copied every minute instead");
    return undefined;
  }
}

/**
 * Copies the archive and the base backups to BACKUP_COPY_TO as they are made: the WAL when PostgreSQL archives a
 * file (the folder is watched), both every minute. What is at the destination is listed once at start; after
 * that, what this process copied is remembered. A failing copy is logged once, and its recovery once.
 */
export function createArchiveCopyJob(options: {
  config: ArchiveCopyJobConfig;
  /** The cluster archived: the destination must be its (its mark), or nothing is copied there. */
  systemIdentifier: string;
  logger: Logger;
}): { start: () => void; stop: () => Promise<void> } {
  const { config, logger } = options;
  const aborted = new AbortController();
  const job: CopyJob = {
    config,
    destination: config.BACKUP_COPY_TO,
    key: backupKeyOf(config),
    archive: walArchiveDirectory(config),
    bases: baseBackupsDirectory(config),
    systemIdentifier: options.systemIdentifier,
    logger,
    signal: aborted.signal,
  };
  const wal = oneAtATime(loggingFailures(job, "WAL archive", copyWal));
  const base = oneAtATime(loggingFailures(job, "base backup", copyBases));
  const both = () => Promise.all([wal.run(), base.run()]);
  let sweep: NodeJS.Timeout | undefined;
  let watcher: { stop: () => void } | undefined;
  return {
    start: () => {
      void both();
      sweep = setInterval(both, SWEEP_EVERY_MS);
      watcher = watchArchive(job.archive, wal.run, logger);
    },
    stop: async () => {
      clearInterval(sweep);
      watcher?.stop();
      aborted.abort();
      await Promise.all([wal.idle(), base.idle()]);
    },
  };
}

/**
 * Brings from BACKUP_COPY_TO what a restore to `target` needs into `folder`, laid out as a BACKUP_DIR: the newest
 * whole base backup finished before it (or the newest, for `latest`), and every archived file from its start on.
 * For a lost machine: nothing of this machine's BACKUP_DIR is read. Each file is opened with `key` and checked whole
 * before it is used, the base backup is unpacked without owners, modes or links, and only WAL file names are
 * fetched; a file that fails is refused (PointInTimeRefusal), naming it.
 */
export async function fetchCopiesForRestore(options: {
  destination: string;
  key: BackupKey;
  target: Date | "latest";
  folder: string;
}): Promise<void> {
  const { destination, key, target, folder } = options;
  const unreadable: string[] = [];
  const backups = await baseBackupsAt(destination, key, { unreadable: (name) => unreadable.push(name) });
  const chosen = backups.filter((backup) => target === "latest" || backup.finishedAt <= target).at(-1);
  if (!chosen) {
    const leftOut =
      unreadable.length > 0
        ? ` (left out, as they do not open with BACKUP_ENCRYPTION_KEY: ${unreadable.join(", ")})`
        : "";
    throw new PointInTimeRefusal(
      backups[0]
        ? `no base backup at ${describeDestination(destination)} finished before that time; the oldest finished ${backups[0].finishedAt.toISOString()}${leftOut}`
        : `no whole base backup at ${describeDestination(destination)}${leftOut}`,
    );
  }
  // As root, PostgreSQL runs as `postgres`, which reads the archive through these folders.
  const baseFolder = baseBackupsDirectory({ BACKUP_DIR: folder });
  const sealedFolder = path.join(folder, "sealed");
  const walFolder = path.join(folder, "wal");
  await mkdir(walFolder, { recursive: true, mode: 0o700 });
  await mkdir(baseFolder, { recursive: true, mode: 0o700 });
  await mkdir(sealedFolder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o711);
  const name = path.basename(chosen.directory);
  const sealedTar = path.join(sealedFolder, `${name}${TAR}`);
  const tarFile = path.join(baseFolder, `${name}${TAR}`);
  const mark = await readCopyMark(destination);
  if (mark && chosen.systemIdentifier && chosen.systemIdentifier !== mark.systemIdentifier) {
    throw new PointInTimeRefusal(
      `the base backup ${name} at ${describeDestination(destination)} is of database system ${chosen.systemIdentifier}, not ${mark.systemIdentifier} (BACKUP_COPY_TO's mark): it is another database's; move it out of BACKUP_COPY_TO and restore again`,
    );
  }
  if (mark) await writeFile(path.join(folder, MARK_FILE), `${JSON.stringify(mark)}\n`);
  await runRclone(["copyto", `${chosen.directory}${TAR}`, sealedTar], destination);
  await openCopy(key, sealedTar, tarFile, `base/${name}${TAR}`);
  await untarSafely(tarFile, baseFolder, name);
  await rm(tarFile);
  const startPosition = chosen.startWalFile.slice(8);
  const needed = [...(await filesAt(walDestination(destination), destination)).keys()].filter((file) => {
    if (!file.endsWith(".gz") || !isWalFileName(file.slice(0, -".gz".length))) return false;
    const position = archivedWalPosition(file);
    return position === undefined || position >= startPosition;
  });
  const list = path.join(folder, "wanted-wal-files");
  await writeFile(list, `${needed.join("\n")}\n`);
  try {
    await runRclone(["copy", "--files-from-raw", list, walDestination(destination), sealedFolder], destination);
  } finally {
    await rm(list, { force: true });
  }
  const owner = await postgresOwner();
  for (const file of needed) {
    await openCopy(key, path.join(sealedFolder, file), path.join(walFolder, file), `wal/${file}`);
    if (owner) await chown(path.join(walFolder, file), owner.uid, owner.gid);
  }
  if (owner) await chown(walFolder, owner.uid, owner.gid);
  await rm(sealedFolder, { recursive: true, force: true });
}

/** Opens one fetched copy into `to`, refusing the restore, in one line naming it, when it fails its check. */
async function openCopy(key: BackupKey, sealed: string, to: string, shownAs: string): Promise<void> {
  await openSealedFile(key, sealed, to).catch((error: unknown) => {
    throw error instanceof SealedFileError ? new PointInTimeRefusal(`the copy's ${shownAs} ${error.message}`) : error;
  });
  await rm(sealed);
}

/**
 * Unpacks a base backup's tar into `into` as nothing but folders and files under `top`: an entry of another kind (a
 * link, a device), an absolute name or one with `..` refuses it before anything is written. Owners are not kept,
 * and every folder ends 0700 and every file 0600 (no set-uid, set-gid or sticky bit): PostgreSQL's own modes.
 */
export async function untarSafely(file: string, into: string, top: string): Promise<void> {
  const run = promisify(execFile);
  const list = async (args: string[]) => {
    const { stdout } = await run("tar", [...args, "--quoting-style=escape", "-P", "-f", file], {
      maxBuffer: 256 * 1024 * 1024,
    }).catch(() => {
      throw new PointInTimeRefusal(`the copy ${path.basename(file)} is not a whole tar file`);
    });
    return stdout.split("\n").filter((line) => line !== "");
  };
  const names = await list(["-t"]);
  const kinds = (await list(["-tv"])).map((line) => line[0]);
  names.forEach((name, index) => {
    const parts = name.replace(/\/$/, "").split("/");
    const safe =
      !name.startsWith("/") &&
      parts[0] === top &&
      !parts.some((part) => part === ".." || part === "") &&
      (kinds[index] === "-" || kinds[index] === "d");
    if (!safe) {
      throw new PointInTimeRefusal(
        `the copy ${path.basename(file)} holds "${name}", which is not a file or folder of ${top}: nothing was unpacked`,
      );
    }
  });
  await run("tar", ["-C", into, "--no-same-owner", "--no-same-permissions", "-x", "-f", file]).catch(() => {
    throw new PointInTimeRefusal(`the copy ${path.basename(file)} is not a whole tar file`);
  });
  await keepOwnerModesOnly(path.join(into, top));
}

async function keepOwnerModesOnly(entry: string): Promise<void> {
  const stats = await lstat(entry);
  if (stats.isDirectory()) {
    await chmod(entry, 0o700);
    for (const name of await readdir(entry)) await keepOwnerModesOnly(path.join(entry, name));
  } else if (stats.isFile()) {
    await chmod(entry, 0o600);
  } else {
    await rm(entry, { force: true });
  }
}
