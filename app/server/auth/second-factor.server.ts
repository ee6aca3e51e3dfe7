import { randomBytes } from "node:crypto";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { company } from "~/content/company";
import type { Database } from "../db/database.server";
import { staffRecoveryCodes, staffUsers } from "../db/schema.server";
import { hashToken } from "./secret-token.server";

const PERIOD_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;

function totpFor(username: string, secret: string): TOTP {
  return new TOTP({
    issuer: company.name,
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

/** The `otpauth://` URI an authenticator app reads, and the same as a QR code (an SVG data URL). */
export async function enrolmentDetails(username: string, secret: string) {
  const uri = totpFor(username, secret).toString();
  const svg = await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return { uri, qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
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
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
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

const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, "");

/** New one-time recovery codes for the user, replacing any earlier ones. Only their hashes are stored. */
export async function replaceRecoveryCodes(db: Database, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = randomBytes(8).toString("hex").slice(0, 10);
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await db.transaction(async (tx) => {
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx
      .insert(staffRecoveryCodes)
      .values(codes.map((code) => ({ userId, codeHash: hashToken(normaliseRecoveryCode(code)) })));
  });
  return codes;
}

/** Uses up a recovery code of the user; true when it was one and had not been used. */
export async function consumeRecoveryCode(db: Database, userId: number, code: string): Promise<boolean> {
  const used = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(staffRecoveryCodes.userId, userId),
        eq(staffRecoveryCodes.codeHash, hashToken(normaliseRecoveryCode(code))),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return used.length > 0;
}
