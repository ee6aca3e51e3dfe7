import { createHmac, timingSafeEqual } from "node:crypto";

const GRANT_LIFETIME_MS = 60 * 60 * 1000;

/** An HMAC-SHA256 of the parts under SESSION_SECRET, for one purpose: a value nobody can make without the secret. */
export function keyedDigest(secret: string | undefined, purpose: string, parts: readonly (string | number)[]): string {
  if (!secret) throw new Error("SESSION_SECRET is not resolved; the server sets it at start");
  return createHmac("sha256", secret)
    .update([purpose, ...parts].join("\n"))
    .digest("base64url");
}

/**
 * The one staff user who just sent a form whose submissions do not record their sender (the peer review) may
 * download the document it made, for an hour, with this grant in the link: the permission is in the link, so
 * nothing stored links the submission to them.
 */
export function fileGrant(
  secret: string | undefined,
  file: { submissionId: number; fileId: number; userId: number },
  now = Date.now(),
): string {
  const expires = now + GRANT_LIFETIME_MS;
  return `${expires}.${keyedDigest(secret, "file-grant", [file.submissionId, file.fileId, file.userId, expires])}`;
}

export function isValidFileGrant(
  secret: string | undefined,
  grant: string,
  file: { submissionId: number; fileId: number; userId: number },
  now = Date.now(),
): boolean {
  const [expiresText = "", signature = ""] = grant.split(".");
  const expires = Number(expiresText);
  if (!Number.isSafeInteger(expires) || expires < now) return false;
  const expected = Buffer.from(
    keyedDigest(secret, "file-grant", [file.submissionId, file.fileId, file.userId, expires]),
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The same for every form one staff user sends about one subject, and different for another user or another
 * subject; without SESSION_SECRET it names nobody. Lets a report count distinct senders per subject (distinct
 * reviewers of one person) while storing no user id and nothing that links one sender's forms across subjects.
 */
export function senderKey(secret: string | undefined, subject: string, userId: number): string {
  return keyedDigest(secret, "sender-key", [subject, userId]);
}
