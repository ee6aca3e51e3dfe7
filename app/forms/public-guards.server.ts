import { createHash } from "node:crypto";
import { stringify } from "safe-stable-stringify";
import * as z from "zod/mini";
import type { Config } from "~/services/config.server";
import { fillTimeOf, MINIMUM_FILL_MS } from "./fill-time.server";
import { keyedDigest } from "./submitter-keys.server";

/** A public form's hidden fields, beside its answers: the honeypot, the double-submit key and the fill-time token. */
const guardSchema = z.object({
  submissionKey: z.catch(z.optional(z.uuid()), undefined),
  fillToken: z.catch(z.optional(z.string().check(z.maxLength(200))), undefined),
  website: z.catch(z.optional(z.string()), undefined),
});

export type SubmissionGuards = z.infer<typeof guardSchema>;

/** The window of a public form's limit per address (publicFormLimit). */
export const PUBLIC_FORM_LIMIT_WINDOW_SECONDS = 600;

export function readSubmissionGuards(formData: FormData): SubmissionGuards {
  return guardSchema.parse({
    submissionKey: formData.get("submissionKey") ?? undefined,
    fillToken: formData.get("fillToken") ?? undefined,
    website: formData.get("website") ?? undefined,
  });
}

/**
 * What the guards make of a submission. Only the honeypot holds one as spam (stored, its deliveries held).
 * A send faster than a person fills a form in, or with a forged token, is only suspicious: it is delivered
 * and listed like any other, with a visible mark, since autofill can be that fast and a lead is never hidden
 * on timing alone. No token (no JavaScript) says nothing either way.
 */
export function judgeSubmission(
  guards: SubmissionGuards,
  config: Pick<Config, "SESSION_SECRET">,
): { spamReason?: string; suspiciousReason?: string } {
  if (guards.website) return { spamReason: "filled the hidden website field" };
  const fillTime = fillTimeOf(guards.fillToken, config);
  if (fillTime.kind === "invalid") return { suspiciousReason: "its fill-time token was not one we issued" };
  if (fillTime.kind === "measured" && fillTime.ms < MINIMUM_FILL_MS) {
    return { suspiciousReason: `sent ${(fillTime.ms / 1000).toFixed(1)} s after the form was opened` };
  }
  return {};
}

/**
 * The key a submission is stored under, whose resend is answered as the stored submission. A double-submit key
 * means one set of answers (decision 1001): the form's own key is taken with the checked answers it came with, so
 * other answers sent under it (a typo corrected after a lost answer, a page of an earlier build that kept its key)
 * are their own submission. Without JavaScript the form carries no key: the same values stored from the same
 * address within ten minutes count as one submission; what is stored rather than the answers, since it tells two
 * senders at one address apart (the peer review stores its reviewer's key). That key is keyed with SESSION_SECRET:
 * whoever reads the database could otherwise try every address against a stored row and find who sent an anonymous
 * form.
 */
export function submissionKeyOf(
  guards: SubmissionGuards,
  clientIp: string,
  sent: { answers: unknown; stored: unknown },
  secret: string | undefined,
): string {
  // Stringified with each object's keys in order, so that the same answers always make the same key.
  if (guards.submissionKey)
    return createHash("sha256")
      .update(stringify([guards.submissionKey, sent.answers]))
      .digest("hex");
  const window = Math.floor(Date.now() / 600_000);
  return keyedDigest(secret, "address-submission-key", [clientIp, stringify(sent.stored) ?? "", window]);
}

/**
 * How many public submissions one address may store in ten minutes (by the minute): read and counted in the
 * statement that stores (submission-store.server.ts), in rows per minute and database connection, not in one
 * counter row per address written and committed per post. Posts from one address never queue on one row, every
 * instance sees the same rows, and a flood past the limit costs one small indexed read per post and writes
 * nothing. Refused, invalid or repeated posts store nothing and are not counted.
 */
export function publicFormLimit(config: Pick<Config, "PUBLIC_FORM_RATE_LIMIT">) {
  return { count: config.PUBLIC_FORM_RATE_LIMIT, windowSeconds: PUBLIC_FORM_LIMIT_WINDOW_SECONDS };
}
