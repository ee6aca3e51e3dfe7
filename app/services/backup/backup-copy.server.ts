import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Config } from "../config.server";
import type { Database } from "../db/database.server";
import { backupRuns } from "../db/schema.server";
import { StartRefusal } from "../start-refusal.server";
import { isBackupFileName } from "./backup-file.server";

/*
 * Copies of the backups somewhere else, through rclone (decision 0804): BACKUP_COPY_TO is any destination rclone
 * knows (`remote:path` of its config file, a connection string `:sftp,host=...:path`, or a path on another disk).
 * rclone reads its config from RCLONE_CONFIG or ~/.config/rclone/rclone.conf, RCLONE_CONFIG_<REMOTE>_* variables,
 * and its flags from RCLONE_* variables (RCLONE_RETRIES, RCLONE_BWLIMIT...).
 */

export type BackupCopyConfig = Pick<Config, "BACKUP_COPY_TO" | "BACKUP_COPY_KEEP">;

/** A copy that failed, with a message that is safe to log: it never holds the destination's options. */
export class CopyError extends Error {
  override name = "CopyError";
}

/**
 * BACKUP_COPY_TO as it may be logged. A connection string (`:sftp,host=h,pass=p:dir`, `remote,key=v:path`) can
 * hold credentials, so its options are left out.
 */
export function describeDestination(destination: string): string {
  const comma = destination.indexOf(",");
  return comma === -1 ? destination : `${destination.slice(0, comma)}:…`;
}

/** rclone's words with the destination's options and any `user:password@` of a URL taken out. */
function scrubbed(text: string, destination: string): string {
  return text.replaceAll(destination, describeDestination(destination)).replace(/\/\/[^/@\s]*@/g, "//***@");
}

export type RcloneOptions = {
  /** Takes rclone's output as it comes, instead of resolving with it. */
  onOutput?: (chunk: Buffer) => void;
  /** What rclone reads (`rcat`). */
  input?: Readable;
  /** Ends rclone (the app shutting down). */
  signal?: AbortSignal;
};

/** Runs rclone; resolves with its output, or rejects with a CopyError carrying its last line of complaint. */
export function runRclone(
  args: string[],
  destination: string,
  { onOutput, input, signal }: RcloneOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("rclone", args, { stdio: [input ? "pipe" : "ignore", "pipe", "pipe"], signal });
    if (input && child.stdin) {
      // rclone ending early closes its input; its exit code says why.
      child.stdin.on("error", () => {});
      input.pipe(child.stdin);
    }
    const output: Buffer[] = [];
    let complaint = "";
    child.stdout?.on("data", (chunk: Buffer) => (onOutput ? onOutput(chunk) : output.push(chunk)));
    child.stderr?.on("data", (chunk: Buffer) => {
      complaint += chunk.toString("utf8");
    });
    // The error of a failed spawn lists the arguments, the destination among them: only its code is kept.
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(new CopyError(`rclone could not be run (${error.code ?? "unknown error"})`)),
    );
    child.on("close", (code) => {
      if (code === 0) return resolve(Buffer.concat(output).toString("utf8"));
      const lines = complaint
        .split("\n")
        .map((line) => line.replace(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /, "").trim())
        .filter((line) => line && !line.startsWith("NOTICE"));
      const reason = lines.at(-1) ?? `rclone ${args[0]} exited with code ${code}`;
      reject(new CopyError(scrubbed(reason, destination)));
    });
  });
}

/** The path of `name` inside the destination folder. */
export function inDestination(destination: string, name: string): string {
  return destination.endsWith(":") || destination.endsWith("/") ? `${destination}${name}` : `${destination}/${name}`;
}

type Digest = { bytes: number; sha256: string };

function digester() {
  const hash = createHash("sha256");
  let bytes = 0;
  return {
    add: (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    },
    digest: (): Digest => ({ bytes, sha256: hash.digest("hex") }),
  };
}

async function digestOfFile(file: string): Promise<Digest> {
  const digest = digester();
  for await (const chunk of createReadStream(file)) digest.add(chunk as Buffer);
  return digest.digest();
}

/** Reads the copy back byte by byte: a remote's own checksums differ by kind, and some (WebDAV) have none. */
async function digestOfCopy(remoteFile: string, destination: string, signal?: AbortSignal): Promise<Digest> {
  const digest = digester();
  await runRclone(["cat", remoteFile], destination, { onOutput: digest.add, signal });
  return digest.digest();
}

/**
 * Reads `remoteFile` back and compares it with what was sent; a copy that differs is deleted, so the next try
 * sends it again.
 */
async function readBack(remoteFile: string, destination: string, sent: Digest, signal?: AbortSignal): Promise<void> {
  const copy = await digestOfCopy(remoteFile, destination, signal);
  if (sent.bytes === copy.bytes && sent.sha256 === copy.sha256) return;
  await runRclone(["deletefile", remoteFile], destination).catch(() => {});
  throw new CopyError(
    `the copy of ${path.basename(remoteFile)} read back ${copy.bytes} bytes with SHA-256 ${copy.sha256}, not ${sent.bytes} bytes with ${sent.sha256}`,
  );
}

/**
 * Copies `file` into the destination (as `options.as`, else under its own name) and reads the copy back:
 * resolves once it has the file's size and SHA-256.
 */
export async function copyBackup(
  file: string,
  destination: string,
  options: { as?: string; signal?: AbortSignal } = {},
): Promise<void> {
  const remoteFile = inDestination(destination, options.as ?? path.basename(file));
  // The file is hashed while rclone sends it, not after: a dump can be gigabytes.
  const [, sent] = await Promise.all([
    runRclone(["copyto", file, remoteFile], destination, { signal: options.signal }),
    digestOfFile(file),
  ]);
  await readBack(remoteFile, destination, sent, options.signal);
}

/** Streams `input` to `remoteFile` (rclone rcat), then reads the copy back against what was streamed. */
export async function copyStream(
  input: Readable,
  remoteFile: string,
  destination: string,
  signal?: AbortSignal,
): Promise<void> {
  const digest = digester();
  input.on("data", digest.add);
  await runRclone(["rcat", remoteFile], destination, { input, signal });
  await readBack(remoteFile, destination, digest.digest(), signal);
}

/** Deletes all but the newest `keep` backups at the destination; resolves with the names deleted. */
async function keepNewestCopies(destination: string, keep: number): Promise<string[]> {
  const listing = await runRclone(["lsf", "--files-only", destination], destination);
  const names = listing.split("\n").filter(isBackupFileName).sort().reverse();
  const deleted = names.slice(keep);
  for (const name of deleted) await runRclone(["deletefile", inDestination(destination, name)], destination);
  return deleted;
}

export type CopyOutcome = {
  copied: string[];
  failed: { file: string; reason: string }[];
  deletedCopies: string[];
  /** Why the copies past BACKUP_COPY_KEEP could not be deleted, when they could not. */
  retentionFailure?: string;
};

const isThere = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Copies every good backup not copied yet, newest first, whose file is on this machine (a failed copy is tried
 * again at the next run), records each result on its run, then keeps the newest BACKUP_COPY_KEEP copies.
 * `claimCopy` first makes sure the destination is this database's: what it rejects with fails every copy of the
 * run, which are tried again at the next. Undefined when BACKUP_COPY_TO is unset.
 */
export async function copyPendingBackups(
  db: Database,
  config: BackupCopyConfig,
  claimCopy?: (destination: string) => Promise<unknown>,
): Promise<CopyOutcome | undefined> {
  const destination = config.BACKUP_COPY_TO;
  if (!destination) return undefined;
  const pending = await db
    .select({ id: backupRuns.id, file: backupRuns.file })
    .from(backupRuns)
    .where(and(isNotNull(backupRuns.file), isNull(backupRuns.copiedAt)))
    .orderBy(desc(backupRuns.startedAt))
    .limit(config.BACKUP_COPY_KEEP);
  const outcome: CopyOutcome = { copied: [], failed: [], deletedCopies: [] };
  let claimed: Promise<unknown> | undefined;
  for (const run of pending) {
    if (!run.file || !(await isThere(run.file))) continue;
    try {
      claimed ??= claimCopy?.(destination);
      await claimed;
      await copyBackup(run.file, destination);
      await db.update(backupRuns).set({ copiedAt: new Date(), copyError: null }).where(eq(backupRuns.id, run.id));
      outcome.copied.push(path.basename(run.file));
    } catch (error) {
      // CopyError's words and a foreign mark's line are safe to show; anything else may hold the destination.
      const reason =
        error instanceof CopyError || (error instanceof Error && error.name === "ForeignBackupFolder")
          ? error.message
          : "the copy failed";
      await db.update(backupRuns).set({ copyError: reason }).where(eq(backupRuns.id, run.id));
      outcome.failed.push({ file: path.basename(run.file), reason });
    }
  }
  if (outcome.copied.length > 0) {
    try {
      outcome.deletedCopies = await keepNewestCopies(destination, config.BACKUP_COPY_KEEP);
    } catch (error) {
      outcome.retentionFailure = error instanceof CopyError ? error.message : "the old copies could not be listed";
    }
  }
  return outcome;
}

/** `name` of `name:path` or `name,options:path`; undefined for a connection string or a local path. */
function remoteName(destination: string): string | undefined {
  return /^([\w.+@ -]+)[,:]/.exec(destination)?.[1];
}

/**
 * Refuses the start when BACKUP_COPY_TO is set but rclone is not installed, or names a remote rclone's config
 * does not have: found now rather than at the first backup, a day later.
 */
export async function checkCopyDestination(destination: string): Promise<void> {
  const remotes = await runRclone(["listremotes"], destination).catch((error: unknown) => {
    throw new StartRefusal(
      `BACKUP_COPY_TO is set, but rclone does not run: ${(error as Error).message} (Debian: apt-get install rclone)`,
    );
  });
  const name = remoteName(destination);
  if (name !== undefined && !remotes.split("\n").includes(`${name}:`)) {
    throw new StartRefusal(
      `BACKUP_COPY_TO names the rclone remote "${name}", which rclone's config does not have (RCLONE_CONFIG, or ~/.config/rclone/rclone.conf; rclone config creates it)`,
    );
  }
}
