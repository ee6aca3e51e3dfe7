import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import { clientAddressKey } from "~/server/client-address.server";
import { hitRateLimit } from "~/server/rate-limit.server";

/** A public form's hidden fields, beside its answers: the spam traps and the double-submit key. */
const guardSchema = z.object({
  submissionKey: z.uuid().optional().catch(undefined),
  startedAt: z.coerce.number().int().positive().optional().catch(undefined),
  website: z.string().optional(),
});

export type SubmissionGuards = z.infer<typeof guardSchema>;

/** A person needs longer than this to fill in a form; a bot posting at once does not. */
const MINIMUM_FILL_MS = 3_000;
const RATE_LIMIT_WINDOW_SECONDS = 600;

export function readSubmissionGuards(formData: FormData): SubmissionGuards {
  return guardSchema.parse({
    submissionKey: formData.get("submissionKey") ?? undefined,
    startedAt: formData.get("startedAt") ?? undefined,
    website: formData.get("website") ?? undefined,
  });
}

/** Why a submission looks like spam (it is then stored flagged, its deliveries held), or undefined. */
export function spamReason(guards: SubmissionGuards): string | undefined {
  if (guards.website) return "filled the hidden website field";
  if (guards.startedAt !== undefined && Date.now() - guards.startedAt < MINIMUM_FILL_MS) return "sent too fast";
  return undefined;
}

/**
 * The form's own key, or, without JavaScript (the form then carries none), one derived from the address and
 * the values: the same values from the same address within ten minutes count as one submission.
 */
export function submissionKeyOf(guards: SubmissionGuards, clientIp: string, values: unknown): string {
  if (guards.submissionKey) return guards.submissionKey;
  const window = Math.floor(Date.now() / 600_000);
  return createHash("sha256")
    .update(JSON.stringify([clientIp, values, window]))
    .digest("hex");
}

/** Counts one public form post from the visitor's address; false once the address is past the limit. */
export function withinPublicFormLimit(context: AppLoadContext): Promise<boolean> {
  return hitRateLimit(context.db, `public-form:${clientAddressKey(context.clientIp)}`, {
    limit: context.config.PUBLIC_FORM_RATE_LIMIT,
    windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
  });
}
