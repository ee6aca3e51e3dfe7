import { createHmac, timingSafeEqual } from "node:crypto";
import type { Config } from "~/services/config.server";

/** A person needs longer than this to fill in a form; a bot posting at once does not. */
export const MINIMUM_FILL_MS = 3_000;
/** A token older than this is not evidence of anything; the form simply fetches a new one. */
const TOKEN_LIFETIME_MS = 24 * 3_600_000;

/** Signed with the session secret, under a label of its own so that no other signature can pass for one. */
function signatureOf(config: Pick<Config, "SESSION_SECRET">, issuedAt: number): string {
  if (!config.SESSION_SECRET) throw new Error("SESSION_SECRET is not resolved; the server sets it at start");
  return createHmac("sha256", config.SESSION_SECRET).update(`form-fill-time.${issuedAt}`).digest("base64url");
}

/**
 * A token that says when the server handed out a form, signed so that the browser cannot make it older. The
 * fill time is then measured on the server's clock alone: a visitor's clock running fast or slow changes nothing.
 */
export function issueFillToken(config: Pick<Config, "SESSION_SECRET">, now = Date.now()): string {
  return `${now}.${signatureOf(config, now)}`;
}

export type FillTime = { kind: "measured"; ms: number } | { kind: "missing" } | { kind: "invalid" };

/** How long the form was open, from its token; a forged, altered or expired token is "invalid". */
export function fillTimeOf(
  token: string | undefined,
  config: Pick<Config, "SESSION_SECRET">,
  now = Date.now(),
): FillTime {
  if (!token) return { kind: "missing" };
  const [issued, signature] = token.split(".");
  const issuedAt = Number(issued);
  if (!Number.isSafeInteger(issuedAt) || !signature) return { kind: "invalid" };
  const expected = Buffer.from(signatureOf(config, issuedAt));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { kind: "invalid" };
  const ms = now - issuedAt;
  if (ms < 0 || ms > TOKEN_LIFETIME_MS) return { kind: "invalid" };
  return { kind: "measured", ms };
}
