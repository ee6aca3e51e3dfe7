import { createHash, randomBytes } from "node:crypto";

/** A random token for a cookie or a link: 256 bits, URL-safe. */
export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps of a token: enough to recognise it, useless to present. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A random token for a path, such as a calendar address: 256 bits in hex, since paths are lower-case (0702). */
export function newPathToken(): string {
  return randomBytes(32).toString("hex");
}
