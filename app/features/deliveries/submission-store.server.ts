import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import type { AnyFormDefinition } from "~/forms/definition";
import { clientAddressKey } from "~/server/client-address.server";
import type { Database } from "~/server/db/database.server";
import {
  type DeliveryBodyFormat,
  type DeliveryChannel,
  deliveries,
  submissionFiles,
  submissions,
} from "~/server/db/schema.server";

export type OutgoingDelivery = {
  channel: DeliveryChannel;
  target: string;
  destination: string;
  body: unknown;
  /** JSON unless said otherwise; a multipart body is a MultipartBody (multipart-body.server.ts). */
  bodyFormat?: DeliveryBodyFormat;
};

/** A file that came with the submission, as its bytes and what the sender said about it. */
export type SubmittedFile = { fieldName: string; fileName: string; contentType: string; content: Uint8Array };

export type NewSubmission = {
  /** What the submission is: its type, reference prefix, first status and how to read its contact. */
  definition: Pick<AnyFormDefinition, "type" | "referencePrefix" | "statuses" | "contact">;
  submissionKey: string;
  payload: Record<string, unknown>;
  spamReason?: string;
  suspiciousReason?: string;
  /** The staff user who sent a staff form. */
  submittedById?: number;
  clientIp?: string;
  userAgent?: string;
  /** Files sent with it (a resume): stored in the same transaction. */
  files?: SubmittedFile[];
  /** The deliveries, made from the reference number the submission gets, since a delivery may quote it. */
  deliveries: (reference: string) => OutgoingDelivery[];
};

/** A file as stored with its submission: its id names it in the download route. */
export type StoredFileRef = { id: number; fieldName: string; fileName: string };

export type StoredSubmission = { id: number; reference: string; duplicate: boolean; files: StoredFileRef[] };

const storedFileRefColumns = {
  id: submissionFiles.id,
  fieldName: submissionFiles.fieldName,
  fileName: submissionFiles.fileName,
};

// Crockford's base32 without I, L, O and U: easy to read out over the phone.
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function newReference(prefix: string): string {
  const bytes = randomBytes(6);
  const code = Array.from(bytes, (byte) => REFERENCE_ALPHABET[byte % 32]).join("");
  return `${prefix}-${code}`;
}

export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll("-", "")}`;
}

/**
 * Stores a submission and one delivery per target in one transaction: once this resolves, nothing can be
 * lost. A submission whose key was seen before is not stored again; the first one's reference comes back.
 * Spam is stored with its deliveries held, so it is kept as evidence but never sent.
 */
export async function storeSubmission(db: Database, submission: NewSubmission): Promise<StoredSubmission> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await storeWithReference(db, submission, newReference(submission.definition.referencePrefix));
    } catch (error) {
      // A billion references per prefix make a clash rare; when one happens, draw another.
      const pgError = ((error as { cause?: unknown }).cause ?? error) as { constraint?: string };
      const clash = pgError.constraint === "submissions_reference_unique";
      if (!clash || attempt === 3) throw error;
    }
  }
}

async function storeWithReference(
  db: Database,
  submission: NewSubmission,
  reference: string,
): Promise<StoredSubmission> {
  const { type, statuses } = submission.definition;
  const contact = submission.definition.contact(submission.payload);
  const outgoing = submission.deliveries(reference);
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(submissions)
      .values({
        reference,
        type,
        submissionKey: submission.submissionKey,
        payload: submission.payload,
        isSpam: submission.spamReason !== undefined,
        spamReason: submission.spamReason ?? null,
        spamSince: submission.spamReason === undefined ? null : sql`now()`,
        suspiciousReason: submission.suspiciousReason ?? null,
        submittedById: submission.submittedById ?? null,
        clientIp: submission.clientIp ?? null,
        clientAddress:
          submission.clientIp === undefined || submission.submittedById !== undefined
            ? null
            : clientAddressKey(submission.clientIp),
        userAgent: submission.userAgent ?? null,
        status: statuses[0],
        contactName: contact.name,
        contactEmail: contact.email,
        contactPhone: contact.phone,
      })
      .onConflictDoNothing({ target: [submissions.type, submissions.submissionKey] })
      .returning({ id: submissions.id, reference: submissions.reference });
    if (!inserted) {
      const [existing] = await tx
        .select({ id: submissions.id, reference: submissions.reference })
        .from(submissions)
        .where(and(eq(submissions.type, type), eq(submissions.submissionKey, submission.submissionKey)));
      if (!existing) throw new Error("a conflicting submission vanished");
      const existingFiles = await tx
        .select(storedFileRefColumns)
        .from(submissionFiles)
        .where(eq(submissionFiles.submissionId, existing.id))
        .orderBy(asc(submissionFiles.id));
      return { ...existing, duplicate: true, files: existingFiles };
    }
    const files = submission.files ?? [];
    const storedFiles =
      files.length === 0
        ? []
        : await tx
            .insert(submissionFiles)
            .values(
              files.map((file) => ({
                submissionId: inserted.id,
                fieldName: file.fieldName,
                fileName: file.fileName,
                contentType: file.contentType,
                sizeBytes: file.content.byteLength,
                sha256: createHash("sha256").update(file.content).digest("hex"),
                content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength),
              })),
            )
            .returning(storedFileRefColumns);
    if (outgoing.length > 0) {
      await tx.insert(deliveries).values(
        outgoing.map((delivery) => ({
          ...delivery,
          submissionId: inserted.id,
          webhookId: newWebhookId(),
          reference,
          status: submission.spamReason === undefined ? ("pending" as const) : ("held" as const),
        })),
      );
    }
    return { ...inserted, duplicate: false, files: storedFiles };
  });
}

/**
 * What every form's action does with a valid submission: stores it with its deliveries, wakes the delivery
 * worker when it is new (a resend was stored and woken the first time), and logs its reference.
 */
export async function acceptSubmission(context: AppLoadContext, submission: NewSubmission): Promise<StoredSubmission> {
  const stored = await storeSubmission(context.db, submission);
  if (!stored.duplicate) context.deliveryWorker.wake();
  context.logger.info(
    { type: submission.definition.type, reference: stored.reference, duplicate: stored.duplicate },
    "submission stored",
  );
  return stored;
}
