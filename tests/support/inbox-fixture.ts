import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { applicationForm } from "../../app/features/careers/definition";
import { estimateForm } from "../../app/features/estimate/definition";
import { describeSubmissionType } from "../../app/features/submission-types.server";
import type { AnyFormDefinition } from "../../app/forms/definition";
import { storedFileNames } from "../../app/forms/file-names";
import {
  newReference,
  newWebhookId,
  type OutgoingDelivery,
  type SubmittedFile,
  storeSubmission,
} from "../../app/outbox/submission-store.server";
import type { Database } from "../../app/services/db/database.server";
import { type DeliveryStatus, deliveries, submissions } from "../../app/services/db/schema.server";
import { smallPdf, validApplication } from "./application-fixture";
import { validEstimate } from "./estimate-fixture";
import { staffRequest } from "./staff-request";

/** The sending limits a replay counts in, at their defaults (TEAM_MESSAGES_PER_MINUTE, TEAM_TEXTS_PER_HOUR). */
export const SENDING_LIMITS = { TEAM_MESSAGES_PER_MINUTE: 10, TEAM_TEXTS_PER_HOUR: 200 };

export const ESTIMATE_WEBHOOK: OutgoingDelivery = {
  channel: "webhook",
  target: "WEBHOOK_ESTIMATE_URL",
  destination: "http://127.0.0.1:9/estimate",
  body: { firstName: "Avery" },
};

/** An estimate request stored as the public form stores one, with one webhook delivery unless told. */
export function storeEstimate(
  db: Database,
  options: { payload?: Record<string, unknown>; spamReason?: string; deliveries?: OutgoingDelivery[] } = {},
) {
  return storeSubmission(db, {
    definition: estimateForm as AnyFormDefinition,
    submissionKey: randomUUID(),
    payload: options.payload ?? validEstimate,
    spamReason: options.spamReason,
    deliveries: () => options.deliveries ?? [ESTIMATE_WEBHOOK],
  });
}

export const RESUME_NAME = "Jordan Résumé.pdf";

/** A job application with a PDF resume, stored as the careers form stores one. */
export function storeApplication(db: Database, resume: Buffer = smallPdf()) {
  const file: SubmittedFile = {
    fieldName: "resume",
    fileName: RESUME_NAME,
    contentType: "application/pdf",
    content: resume,
    uploaded: true,
  };
  return storeSubmission(db, {
    definition: applicationForm as AnyFormDefinition,
    submissionKey: randomUUID(),
    payload: validApplication,
    files: [file],
    fileNames: (reference) => storedFileNames(reference, [file]),
    deliveries: () => [],
  });
}

/** Puts a submission's deliveries in a state, as the worker would leave them. */
export async function setDeliveryStatus(db: Database, submissionId: number, status: DeliveryStatus) {
  await db.update(deliveries).set({ status }).where(eq(deliveries.submissionId, submissionId));
}

/** A signed-in staff request (staffRequest) with a form body, as the inbox's screens post them. */
export function signedInRequest(
  context: AppLoadContext,
  userId: number,
  url: string,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<Request> {
  const body = init.form ? new URLSearchParams(init.form) : undefined;
  return staffRequest(context, userId, url, { method: init.method ?? (body ? "POST" : "GET"), body });
}

const REFERENCE_PREFIXES: Record<string, string> = { estimate: "EST", application: "APP", assessment: "ASM" };

type InboxSubmission = {
  type?: string;
  status?: string;
  isSpam?: boolean;
  createdAt?: Date;
  payload?: Record<string, unknown>;
  deliveryStatuses?: DeliveryStatus[];
  assigneeId?: number;
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
      assigneeId: submission.assigneeId,
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
