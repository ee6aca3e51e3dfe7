import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, not, or, sql } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { type Database, inTransaction } from "../db/database.server";
import { staffRecoveryCodes, staffSessions, staffUsers } from "../db/schema.server";
import { currentSiteContent } from "../site-content/site-content-cache.server";
import { isSealed, openSecretIfReadable, sealSecret } from "./data-encryption.server";
import { signOutEverywhere } from "./sessions.server";

const PERIOD_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;

/** What each sealed column's values are bound to, so one cannot be passed off as another. */
const TOTP_SECRET = "staff_users.totp_secret";
const ENROLMENT_SECRET = "staff_sessions.totp_enrolment_secret";

function totpFor(username: string, secret: string): TOTP {
  return new TOTP({
    issuer: currentSiteContent().content.company.name,
    label: username,
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** A user's TOTP secret as stored (encrypted with DATA_ENCRYPTION_KEY). */
export const sealTotpSecret = (key: string | undefined, secret: string) => sealSecret(key, TOTP_SECRET, secret);
/** A user's TOTP secret, or undefined when DATA_ENCRYPTION_KEY cannot open it (restored without the key). */
export const readableTotpSecret = (key: string | undefined, sealed: string) =>
  openSecretIfReadable(key, TOTP_SECRET, sealed);
/**
 * A secret being enrolled, kept on the session until confirmed, as stored and back; one the key cannot open
 * reads as none, and the enrolment starts again.
 */
export const sealEnrolmentSecret = (key: string | undefined, secret: string) =>
  sealSecret(key, ENROLMENT_SECRET, secret);
export const openEnrolmentSecret = (key: string | undefined, sealed: string) =>
  openSecretIfReadable(key, ENROLMENT_SECRET, sealed);

/**
 * Encrypts TOTP secrets stored before they were encrypted at rest. Run at start, after the migrations; a row
 * is updated only while it still holds the plain secret, so instances starting together do no harm.
 */
export async function sealPlainTotpSecrets(db: Database, key: string | undefined): Promise<number> {
  const plain = await db
    .select({ id: staffUsers.id, totpSecret: staffUsers.totpSecret })
    .from(staffUsers)
    .where(and(isNotNull(staffUsers.totpSecret), not(sql`${staffUsers.totpSecret} LIKE 'v1:%'`)));
  for (const { id, totpSecret } of plain) {
    if (totpSecret === null || isSealed(totpSecret)) continue;
    await db
      .update(staffUsers)
      .set({ totpSecret: sealTotpSecret(key, totpSecret) })
      .where(and(eq(staffUsers.id, id), eq(staffUsers.totpSecret, totpSecret)));
  }
  return plain.length;
}

/**
 * The staff users whose second-factor secret DATA_ENCRYPTION_KEY cannot open: after a restore without the key,
 * they cannot finish signing in until an admin removes their second factor. Checked at start.
 */
export async function usersWithUnreadableTotpSecrets(db: Database, key: string | undefined): Promise<string[]> {
  const enrolled = await db
    .select({ username: staffUsers.username, totpSecret: staffUsers.totpSecret })
    .from(staffUsers)
    .where(isNotNull(staffUsers.totpSecret))
    .orderBy(staffUsers.username);
  return enrolled
    .filter(({ totpSecret }) => totpSecret !== null && readableTotpSecret(key, totpSecret) === undefined)
    .map(({ username }) => username);
}

/** The `otpauth://` URI an authenticator app reads, and the same as a QR code (an SVG data URL). */
export async function enrolmentDetails(username: string, secret: string) {
  const uri = totpFor(username, secret).toString();
  const svg = await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return { uri, qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** Whether a code is what an authenticator app shows (six digits, spaces aside), not a recovery code. */
export function isTotpCodeShaped(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ""));
}

/**
 * The time step a code belongs to when it is valid now (a step either side allows for clock drift), or
 * undefined. A step at or before `lastUsedStep` is refused: each code works once.
 */
export function acceptedTotpStep(
  username: string,
  secret: string,
  code: string,
  lastUsedStep: number | null,
): number | undefined {
  if (!isTotpCodeShaped(code)) return undefined;
  const token = code.replace(/\s+/g, "");
  const delta = totpFor(username, secret).validate({ token, window: 1 });
  if (delta === null) return undefined;
  const step = Math.floor(Date.now() / 1000 / PERIOD_SECONDS) + delta;
  return lastUsedStep !== null && step <= lastUsedStep ? undefined : step;
}

/**
 * Marks the code's time step used, in one statement that succeeds only while no later or equal step is
 * recorded; false when another request used this code first. Parallel requests with one code get one true.
 */
export async function claimTotpStep(db: Database, userId: number, step: number): Promise<boolean> {
  const claimed = await db
    .update(staffUsers)
    .set({ totpLastUsedStep: step })
    .where(
      and(eq(staffUsers.id, userId), or(isNull(staffUsers.totpLastUsedStep), lt(staffUsers.totpLastUsedStep, step))),
    )
    .returning({ id: staffUsers.id });
  return claimed.length > 0;
}

/** Turns the second factor on with a confirmed secret; `step` is the code that confirmed it, now used. */
export async function enableTotp(
  db: Database,
  key: string | undefined,
  userId: number,
  secret: string,
  step: number | null,
) {
  await db
    .update(staffUsers)
    .set({ totpSecret: sealTotpSecret(key, secret), totpLastUsedStep: step })
    .where(eq(staffUsers.id, userId));
}

/** Turns the second factor off, with the recovery codes that went with it. */
export async function removeTotp(db: Database, userId: number) {
  await inTransaction(db, async (tx) => {
    await tx.update(staffUsers).set({ totpSecret: null, totpLastUsedStep: null }).where(eq(staffUsers.id, userId));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  });
}

/**
 * An admin's removal of a user's second factor (a lost phone, a restore without DATA_ENCRYPTION_KEY): it goes
 * with its recovery codes, and every session of the user ends, since one may have been opened with the lost
 * phone, and so does their calendar address. They set a new one up after signing in with their password.
 */
export async function removeLostSecondFactor(db: Database, userId: number) {
  await removeTotp(db, userId);
  return signOutEverywhere(db, userId);
}

/** Keeps (or, with null, forgets) the secret being enrolled on the session, encrypted. */
export async function setEnrolmentSecret(
  db: Database,
  key: string | undefined,
  tokenHash: string,
  secret: string | null,
): Promise<void> {
  await db
    .update(staffSessions)
    .set({ totpEnrolmentSecret: secret === null ? null : sealEnrolmentSecret(key, secret) })
    .where(eq(staffSessions.tokenHash, tokenHash));
}

/** Recovery codes use base32's letters and digits: 16 of them are 80 bits, written in groups of four. */
const RECOVERY_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const RECOVERY_CODE_LENGTH = 16;
const RECOVERY_HASH_PREFIX = "sha256-salted$";

function newRecoveryCode(): string {
  const characters = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_ALPHABET[randomInt(32)]).join("");
  return characters.match(/.{4}/g)?.join("-") ?? characters;
}

const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

/**
 * A code's stored form: a random salt and SHA-256 over salt and code. 80 random bits need no slow hash to be
 * out of reach of guessing; the salt makes each row its own target.
 */
function hashRecoveryCode(code: string, salt = randomBytes(16)): string {
  const digest = createHash("sha256").update(salt).update(normaliseRecoveryCode(code)).digest();
  return `${RECOVERY_HASH_PREFIX}${salt.toString("base64url")}$${digest.toString("base64url")}`;
}

function recoveryCodeMatches(code: string, stored: string): boolean {
  const [prefix, salt, digest] = stored.split("$");
  if (`${prefix}$` !== RECOVERY_HASH_PREFIX || !salt || !digest) return false;
  const expected = Buffer.from(hashRecoveryCode(code, Buffer.from(salt, "base64url")));
  const actual = Buffer.from(stored);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** New one-time recovery codes for the user, replacing any earlier ones. Only salted hashes are stored. */
export async function replaceRecoveryCodes(db: Database, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await inTransaction(db, async (tx) => {
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx.insert(staffRecoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  });
  return codes;
}

/** How many of the user's recovery codes are still unused. */
export async function countUnusedRecoveryCodes(db: Database, userId: number): Promise<number> {
  const rows = await db
    .select({ id: staffRecoveryCodes.id })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  return rows.length;
}

/**
 * Uses up a recovery code of the user; true when it was one and had not been used. The code is compared with
 * each unused one (ten at most); marking it used succeeds once, however many requests send it at once.
 */
export async function consumeRecoveryCode(db: Database, userId: number, code: string): Promise<boolean> {
  if (normaliseRecoveryCode(code).length !== RECOVERY_CODE_LENGTH) return false;
  const unused = await db
    .select({ id: staffRecoveryCodes.id, codeHash: staffRecoveryCodes.codeHash })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  const match = unused.find((row) => recoveryCodeMatches(code, row.codeHash));
  if (!match) return false;
  const used = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(staffRecoveryCodes.id, match.id), isNull(staffRecoveryCodes.usedAt)))
    .returning({ id: staffRecoveryCodes.id });
  return used.length > 0;
}
