import { createHash, randomBytes } from "node:crypto";

/** A random token for a cookie or a link: 256 bits, URL-safe. */
export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: enough to recognise it, useless to present. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
