import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { decodeDataEncryptionKey } from "../auth/data-encryption.server";
import type { Config } from "../config.server";

/*
 * Everything that leaves the database as a backup (the dumps, the base backups and the WAL copied off the machine) is
 * sealed with BACKUP_ENCRYPTION_KEY: encrypted and authenticated with AES-256-GCM, in chunks, so a file of any size
 * goes through in flat memory (decision 1007):
 *
 *   TRI-COUNTY-ELECTRIC SEALED\n
 *   <header as one line of JSON: version, cipher, keyId, chunkBytes, salt>\n
 *   chunks of chunkBytes of ciphertext and a 16-byte tag each; the last holds 0..chunkBytes bytes
 *
 * Each file has its own key, derived by HKDF from BACKUP_ENCRYPTION_KEY and the header's random salt; a chunk's nonce
 * is its index, and its associated data is the header's SHA-256, its index and whether it is the last. So a byte
 * changed anywhere, a header edited, chunks swapped, dropped, repeated or spliced from another file, and a file cut
 * short at a chunk's end all fail the check. The header is JSON so that later fields (a cluster's mark) fit in.
 */
const MAGIC = "TRI-COUNTY-ELECTRIC SEALED\n";
const VERSION = 1;
const CIPHER = "aes-256-gcm";
const TAG_BYTES = 16;
const NONCE_BYTES = 12;
const SALT_BYTES = 32;
export const CHUNK_BYTES = 64 * 1024;
const MAX_CHUNK_BYTES = 4 * 1024 * 1024;
const MAX_HEADER_BYTES = 4096;
const KEY_FILE = "backup-encryption-key";

export type BackupKey = { bytes: Buffer; id: string };

type SealedHeader = { version: number; cipher: string; keyId: string; chunkBytes: number; salt: string };

/** A file that is not a sealed backup, or one that fails its check; its message is one line saying which. */
export class SealedFileError extends Error {
  override name = "SealedFileError";
}

/** BACKUP_ENCRYPTION_KEY's 32 bytes (written as DATA_ENCRYPTION_KEY is), with the id a sealed file names it by. */
export function decodeBackupKey(text: string): BackupKey | undefined {
  const bytes = decodeDataEncryptionKey(text);
  if (!bytes) return undefined;
  const id = createHash("sha256").update("tri-county-electric backup key id").update(bytes).digest("hex").slice(0, 16);
  return { bytes, id };
}

/** The key a resolved config holds; the server and the commands resolve BACKUP_ENCRYPTION_KEY before any backup. */
export function backupKeyOf(config: Pick<Config, "BACKUP_ENCRYPTION_KEY">): BackupKey {
  const key = config.BACKUP_ENCRYPTION_KEY === undefined ? undefined : decodeBackupKey(config.BACKUP_ENCRYPTION_KEY);
  if (!key) throw new Error("BACKUP_ENCRYPTION_KEY is not resolved; the server and the commands set it first");
  return key;
}

/**
 * BACKUP_ENCRYPTION_KEY, or on a site where it is not required the one kept in DATA_DIR, made on first use
 * (`madeIn` says where, when made now). Never in BACKUP_DIR nor in a backup: DATA_DIR holds the cluster and this
 * file, and a base backup copies only the cluster and its roles' passwords.
 */
export async function resolveBackupEncryptionKey(
  config: Pick<Config, "BACKUP_ENCRYPTION_KEY" | "DATA_DIR">,
): Promise<{ key: string; madeIn?: string }> {
  const existing = await readKeyText(config);
  if (existing) return { key: existing };
  const key = randomBytes(32).toString("base64url");
  const file = path.join(config.DATA_DIR, KEY_FILE);
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return { key, madeIn: file };
}

/** The key as a restore finds it (the setting, else DATA_DIR's file), never made: a new key opens no backup. */
export async function readBackupKey(
  config: Pick<Config, "BACKUP_ENCRYPTION_KEY" | "DATA_DIR">,
): Promise<BackupKey | undefined> {
  const text = await readKeyText(config);
  return text === undefined ? undefined : decodeBackupKey(text);
}

async function readKeyText(config: Pick<Config, "BACKUP_ENCRYPTION_KEY" | "DATA_DIR">): Promise<string | undefined> {
  if (config.BACKUP_ENCRYPTION_KEY) return config.BACKUP_ENCRYPTION_KEY;
  const kept = await readFile(path.join(config.DATA_DIR, KEY_FILE), "utf8").catch(() => undefined);
  return kept && decodeBackupKey(kept) ? kept.trim() : undefined;
}

function fileKey(key: BackupKey, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync("sha256", key.bytes, salt, "tri-county-electric sealed file 1", 32));
}

function nonceOf(index: number): Buffer {
  const nonce = Buffer.alloc(NONCE_BYTES);
  nonce.writeBigUInt64BE(BigInt(index), NONCE_BYTES - 8);
  return nonce;
}

function associatedData(headerHash: Buffer, index: number, last: boolean): Buffer {
  const data = Buffer.alloc(headerHash.length + 9);
  headerHash.copy(data);
  data.writeBigUInt64BE(BigInt(index), headerHash.length);
  data[headerHash.length + 8] = last ? 1 : 0;
  return data;
}

function headerBytes(header: SealedHeader): Buffer {
  return Buffer.from(`${MAGIC}${JSON.stringify(header)}\n`);
}

/** The size of `plainBytes` sealed: the header, the bytes, and a tag for each chunk (at least one). */
export function sealedLength(plainBytes: number): number {
  const header: SealedHeader = {
    version: VERSION,
    cipher: CIPHER,
    keyId: "0".repeat(16),
    chunkBytes: CHUNK_BYTES,
    salt: Buffer.alloc(SALT_BYTES).toString("base64"),
  };
  const chunks = Math.max(1, Math.ceil(plainBytes / CHUNK_BYTES));
  return headerBytes(header).length + plainBytes + chunks * TAG_BYTES;
}

/** Whether `start` (a file's first bytes) is a sealed file's beginning. */
export const isSealedStart = (start: Buffer) => start.subarray(0, MAGIC.length).toString("latin1") === MAGIC;

/** Encrypts what goes through it into the sealed format. */
export function sealStream(key: BackupKey): Transform {
  const salt = randomBytes(SALT_BYTES);
  const header = headerBytes({
    version: VERSION,
    cipher: CIPHER,
    keyId: key.id,
    chunkBytes: CHUNK_BYTES,
    salt: salt.toString("base64"),
  });
  const headerHash = createHash("sha256").update(header).digest();
  const derived = fileKey(key, salt);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let index = 0;
  const seal = (plain: Buffer, last: boolean): Buffer => {
    const cipher = createCipheriv(CIPHER, derived, nonceOf(index)).setAAD(associatedData(headerHash, index, last));
    index += 1;
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  return new Transform({
    construct(done) {
      this.push(header);
      done();
    },
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // A chunk is sealed as not the last only once more follows it: the last is sealed at the end.
      if (pendingBytes > CHUNK_BYTES) {
        let all = Buffer.concat(pending);
        while (all.length > CHUNK_BYTES) {
          this.push(seal(all.subarray(0, CHUNK_BYTES), false));
          all = all.subarray(CHUNK_BYTES);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      done();
    },
    flush(done: TransformCallback) {
      this.push(seal(Buffer.concat(pending), true));
      done();
    },
  });
}

/**
 * Checks and decrypts a sealed file going through it; fails with a SealedFileError at the first chunk that fails
 * its check, so what it let through before is to be thrown away (openSealedFile writes to a file it deletes then).
 */
export function openStream(key: BackupKey): Transform {
  let buffered: Buffer = Buffer.alloc(0);
  let opened: { derived: Buffer; headerHash: Buffer; chunkBytes: number } | undefined;
  let index = 0;
  const open = (sealed: Buffer, last: boolean): Buffer => {
    if (!opened) throw new SealedFileError("has no header");
    const decipher = createDecipheriv(CIPHER, opened.derived, nonceOf(index))
      .setAAD(associatedData(opened.headerHash, index, last))
      .setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
      index += 1;
      return plain;
    } catch {
      throw new SealedFileError(
        `fails its check at part ${index + 1}: it was changed, cut short or damaged after it was written`,
      );
    }
  };
  const readHeader = (): boolean => {
    if (buffered.length < MAGIC.length) return false;
    if (!isSealedStart(buffered)) throw new SealedFileError("is not a sealed backup of this app");
    const end = buffered.indexOf(0x0a, MAGIC.length);
    if (end === -1) {
      if (buffered.length > MAX_HEADER_BYTES) throw new SealedFileError("has a header that is not one");
      return false;
    }
    const header = parseHeader(buffered.subarray(MAGIC.length, end).toString("utf8"));
    if (header.keyId !== key.id) {
      throw new SealedFileError(
        `was sealed with another key (key id ${header.keyId}; BACKUP_ENCRYPTION_KEY's is ${key.id}): set BACKUP_ENCRYPTION_KEY to the key it was sealed with`,
      );
    }
    opened = {
      derived: fileKey(key, Buffer.from(header.salt, "base64")),
      headerHash: createHash("sha256")
        .update(buffered.subarray(0, end + 1))
        .digest(),
      chunkBytes: header.chunkBytes,
    };
    buffered = buffered.subarray(end + 1);
    return true;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      try {
        buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
        if (!opened && !readHeader()) return done();
        const sealedChunk = (opened?.chunkBytes ?? 0) + TAG_BYTES;
        while (buffered.length > sealedChunk) {
          this.push(open(buffered.subarray(0, sealedChunk), false));
          buffered = buffered.subarray(sealedChunk);
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done: TransformCallback) {
      try {
        if (!opened && !readHeader()) throw new SealedFileError("is not a sealed backup of this app");
        if (buffered.length < TAG_BYTES) throw new SealedFileError("is cut short: its last part is missing");
        this.push(open(buffered, true));
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

function parseHeader(text: string): SealedHeader {
  let header: Partial<SealedHeader>;
  try {
    header = JSON.parse(text) as Partial<SealedHeader>;
  } catch {
    throw new SealedFileError("has a header that is not one");
  }
  if (header.version !== VERSION || header.cipher !== CIPHER) {
    throw new SealedFileError(`is sealed in a format this version does not read (version ${header.version})`);
  }
  const { keyId, chunkBytes, salt } = header;
  if (
    typeof keyId !== "string" ||
    typeof salt !== "string" ||
    typeof chunkBytes !== "number" ||
    !Number.isInteger(chunkBytes) ||
    chunkBytes < 1 ||
    chunkBytes > MAX_CHUNK_BYTES
  ) {
    throw new SealedFileError("has a header that is not one");
  }
  return { version: VERSION, cipher: CIPHER, keyId, chunkBytes, salt };
}

/** Seals the file `from` into `to` (0600). */
export async function sealFile(key: BackupKey, from: string, to: string): Promise<void> {
  await pipeline(createReadStream(from), sealStream(key), createWriteStream(to, { mode: 0o600 }));
}

/**
 * Checks and decrypts the sealed `source` (a stream, or a file's path) into `to` (0600), whole: a SealedFileError when
 * it fails its check anywhere, `to` then deleted. Only a file that opened whole is there to be used.
 */
export async function openSealedFile(
  key: BackupKey,
  source: NodeJS.ReadableStream | string,
  to: string,
): Promise<void> {
  const input = typeof source === "string" ? createReadStream(source) : source;
  try {
    await pipeline(input, openStream(key), createWriteStream(to, { mode: 0o600 }));
  } catch (error) {
    await rm(to, { force: true });
    throw error;
  }
}

/** What a small sealed file (a manifest) holds; a SealedFileError when it fails its check. */
export async function openBuffer(key: BackupKey, sealed: Buffer): Promise<Buffer> {
  const parts: Buffer[] = [];
  const opener = openStream(key);
  opener.on("data", (part: Buffer) => parts.push(part));
  opener.end(sealed);
  await new Promise((resolve, reject) => opener.on("end", resolve).on("error", reject));
  return Buffer.concat(parts);
}
