import { randomUUID } from "node:crypto";
import { newReference, newWebhookId } from "../../app/features/deliveries/submission-store.server";
import { describeSubmissionType } from "../../app/features/submissions/submission-types";
import type { Database } from "../../app/server/db/database.server";
import { type DeliveryStatus, deliveries, submissions } from "../../app/server/db/schema.server";
import { validEstimate } from "./estimate-fixture";

const REFERENCE_PREFIXES: Record<string, string> = { estimate: "EST", application: "APP", assessment: "ASM" };

type InboxSubmission = {
  type?: string;
  status?: string;
  isSpam?: boolean;
  createdAt?: Date;
  payload?: Record<string, unknown>;
  deliveryStatuses?: DeliveryStatus[];
};

/** An estimate request's payload, as the form sends it, with the given fields changed. */
export function estimatePayload(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...validEstimate, ...changes };
}

/**
 * Stores a submission the way the intake does (contact columns from its type's description, the first status),
 * but at a chosen time and with deliveries already in the chosen states.
 */
export async function insertInboxSubmission(db: Database, submission: InboxSubmission = {}) {
  const type = submission.type ?? "estimate";
  const description = describeSubmissionType(type);
  const payload = submission.payload ?? estimatePayload();
  const contact = description.contact(payload);
  const [inserted] = await db
    .insert(submissions)
    .values({
      reference: newReference(REFERENCE_PREFIXES[type] ?? "SUB"),
      type,
      submissionKey: randomUUID(),
      payload,
      isSpam: submission.isSpam ?? false,
      spamReason: submission.isSpam ? "test" : null,
      status: submission.status ?? description.statuses[0],
      createdAt: submission.createdAt ?? new Date(),
      contactName: contact.name,
      contactEmail: contact.email,
      contactPhone: contact.phone,
    })
    .returning();
  if (!inserted) throw new Error("no submission stored");
  const statuses = submission.deliveryStatuses ?? [];
  if (statuses.length > 0) {
    await db.insert(deliveries).values(
      statuses.map((status, index) => ({
        submissionId: inserted.id,
        webhookId: newWebhookId(),
        channel: "webhook" as const,
        target: `WEBHOOK_TARGET_${index}`,
        destination: "http://127.0.0.1:9/hook",
        body: {},
        status,
      })),
    );
  }
  return inserted;
}
