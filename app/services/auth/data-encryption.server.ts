import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.server";

/** The 32 bytes of an AES-256 key, as DATA_ENCRYPTION_KEY gives them: 64 hex digits, or base64 / base64url. */
export function decodeDataEncryptionKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  const bytes = /^[0-9a-f]{64}$/i.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
      ? Buffer.from(trimmed, "base64url")
      : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

/**
 * The key that encrypts secrets at rest. Production on a public SITE_URL must set DATA_ENCRYPTION_KEY (the
 * config refuses to start without it); elsewhere one is made on the first start and kept in DATA_DIR beside the
 * session secret (`madeIn` says where, when it was made now). Losing it means an admin removes every user's second
 * factor, so back it up apart from the data.
 */
export async function resolveDataEncryptionKey(config: Config): Promise<{ key: string; madeIn?: string }> {
  if (config.DATA_ENCRYPTION_KEY) return { key: config.DATA_ENCRYPTION_KEY };
  const file = path.join(config.DATA_DIR, "data-encryption-key");
  const existing = await readFile(file, "utf8").catch(() => undefined);
  if (existing && decodeDataEncryptionKey(existing)) return { key: existing.trim() };
  const key = randomBytes(32).toString("base64url");
  await mkdir(config.DATA_DIR, { recursive: true });
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return { key, madeIn: file };
}

const SEALED_PREFIX = "v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

function keyBytes(keyText: string | undefined): Buffer {
  const key = keyText === undefined ? undefined : decodeDataEncryptionKey(keyText);
  if (!key) throw new Error("DATA_ENCRYPTION_KEY is not resolved; the server sets it at start");
  return key;
}

export function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

/**
 * Encrypts a secret for the database with AES-256-GCM: `v1:` and base64url of nonce, tag and ciphertext.
 * `purpose` is bound in as associated data, so a value sealed for one column does not open as another's.
 */
export function sealSecret(keyText: string | undefined, purpose: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyBytes(keyText), iv).setAAD(Buffer.from(purpose));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64url");
}

/**
 * The secret a `sealSecret` value holds, or undefined when this key cannot open it: sealed with another key (a
 * backup restored without its DATA_ENCRYPTION_KEY) or changed. A key that was never resolved still throws.
 */
export function openSecretIfReadable(keyText: string | undefined, purpose: string, sealed: string): string | undefined {
  keyBytes(keyText);
  try {
    return openSecret(keyText, purpose, sealed);
  } catch {
    return undefined;
  }
}

/** The secret a `sealSecret` value holds; throws when it was changed or sealed with another key. */
export function openSecret(keyText: string | undefined, purpose: string, sealed: string): string {
  if (!isSealed(sealed)) throw new Error("the value is not sealed");
  const bytes = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", keyBytes(keyText), bytes.subarray(0, IV_BYTES))
    .setAAD(Buffer.from(purpose))
    .setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
}
