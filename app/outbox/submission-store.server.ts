import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { clientAddressKey } from "~/services/client-address.server";
import { type Database, inTransaction, runStatement, statement, type Transaction } from "~/services/db/database.server";
import {
  addressPostCounts,
  type DeliveryBodyFormat,
  type DeliveryChannel,
  deliveries,
  pushSubscriptions,
  type StaffRole,
  staffUsers,
  submissionEvents,
  submissionFiles,
  submissions,
} from "~/services/db/schema.server";
import { fileContentColumns } from "./staged-files.server";

export type OutgoingDelivery = {
  channel: DeliveryChannel;
  target: string;
  destination: string;
  body: unknown;
  /** JSON unless said otherwise; a multipart body is a MultipartBody (multipart-body.server.ts). */
  bodyFormat?: DeliveryBodyFormat;
  /** At most this many deliveries of this target to this destination a day (EmailNotification's). */
  dailyLimitPerRecipient?: number;
};

/**
 * A push notification to every staff device that chose to hear of `formType`, whose person has one of `roles`
 * (those who may read it): one delivery per device, made in the statement that stores the submission.
 */
export type DevicePushes = { formType: string; roles: readonly StaffRole[]; body: unknown };

/**
 * A file that came with the submission, as its bytes and its name: an upload's `fileName` is the sender's (shown
 * as text only) and it is stored under a name made from the reference; a document the app made keeps its own.
 */
export type SubmittedFile = {
  fieldName: string;
  fileName: string;
  contentType: string;
  content: Uint8Array;
  /** Its bytes' SHA-256 where it was taken on the way (a cleaned photo's, in the worker that cleaned it). */
  sha256?: string;
  uploaded?: boolean;
  /** Its bytes are already stored, as this staged row (staged-files.server.ts), which the submission adopts. */
  stagedId?: number;
};

/** What the store reads of a kind of submission (a form's definition has these and more). */
export type SubmissionKind<Payload> = {
  type: string;
  referencePrefix: string;
  /** The first is where a new submission starts. */
  statuses: readonly [string, ...string[]];
  contact: (payload: Payload) => { name: string; email: string; phone: string };
  searchTerms?: (payload: Payload) => string;
};

/** The name a file is stored under, and the sender's own name for an upload (`sentAs`), shown as text only. */
export type StoredFileName = { fileName: string; sentAs: string | null };

export type NewSubmission<Payload = Record<string, unknown>> = {
  definition: SubmissionKind<Payload>;
  submissionKey: string;
  payload: Payload;
  spamReason?: string;
  suspiciousReason?: string;
  /** The staff user who sent a staff form. */
  submittedById?: number;
  clientIp?: string;
  userAgent?: string;
  /** Files sent with it (a resume): stored in the same transaction, or staged before and adopted in it. */
  files?: SubmittedFile[];
  /** The files' names in order, made from the reference (default: each under its own, with no `sentAs`). */
  fileNames?: (reference: string) => StoredFileName[];
  /**
   * At most this many public submissions stored from the sender's address in the window: past it, nothing is
   * stored and OverSubmissionLimit is thrown. The count is read and added to in the statement that stores, so
   * that a post costs one round trip, and kept in the database (address_post_counts), so that every instance
   * sees the same count.
   */
  limitPerAddress?: { count: number; windowSeconds: number };
  /** The deliveries, made from the reference number the submission gets, since a delivery may quote it. */
  deliveries: (reference: string) => OutgoingDelivery[];
  /** The push to the staff devices that chose this form, when it makes one now (quiet hours make none). */
  devicePushes?: DevicePushes;
  /**
   * A check of the sender's own limits, made in the transaction that stores, before anything is stored: it throws
   * to refuse the submission, and nothing is stored. A limit counted from stored rows takes a lock first
   * (pg_advisory_xact_lock, held until the transaction ends), so that posts sent at the same moment are counted
   * one after the other, each seeing those stored before it.
   */
  admit?: (transaction: Transaction) => Promise<void>;
};

/** A file as stored with its submission: its id names it in the download route. */
export type StoredFileRef = { id: number; fieldName: string; fileName: string };

export type StoredSubmission = { id: number; reference: string; duplicate: boolean; files: StoredFileRef[] };

/** The sender's address already stored its limit of submissions in the window (limitPerAddress). */
export class OverSubmissionLimit extends Error {
  constructor() {
    super("the sender's address is over its submission limit");
  }
}

const storedFileRefColumns = {
  id: submissionFiles.id,
  fieldName: submissionFiles.fieldName,
  fileName: submissionFiles.fileName,
};

// Crockford's base32 without I, L, O and U: easy to read out over the phone.
const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

// Random bytes drawn 4 KB at a time: a call into the system's generator per reference cost more than the rest.
const randomPool: { bytes: Uint8Array; next: number } = { bytes: new Uint8Array(0), next: 0 };

export function newReference(prefix: string): string {
  if (randomPool.next + 6 > randomPool.bytes.length) {
    randomPool.bytes = randomBytes(4096);
    randomPool.next = 0;
  }
  let code = "";
  for (let index = 0; index < 6; index++)
    code += REFERENCE_ALPHABET[(randomPool.bytes[randomPool.next++] as number) % 32];
  return `${prefix}-${code}`;
}

export function newWebhookId(): string {
  return `msg_${randomUUID().replaceAll("-", "")}`;
}

/**
 * Stores a submission and one delivery per target (and per staff device that hears of it) in one transaction:
 * once this resolves, nothing can be lost. A submission whose key was seen before is not stored again; the first one's reference comes back.
 * Spam is stored with its deliveries held, so it is kept as evidence but never sent; it pushes to no device.
 */
export async function storeSubmission<Payload>(
  db: Database,
  submission: NewSubmission<Payload>,
): Promise<StoredSubmission> {
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

type Executor = Database | Transaction;

type InsertValues = {
  reference: string;
  type: string;
  submissionKey: string;
  payload: string;
  isSpam: boolean;
  spamReason: string | null;
  suspiciousReason: string | null;
  submittedById: number | null;
  clientIp: string | null;
  userAgent: string | null;
  status: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  searchTerms: string;
  deliveries: string;
  /** The devices' push (DevicePushes), all null when none goes. */
  pushFormType: string | null;
  pushRoles: string[] | null;
  pushBody: string | null;
  /** The address the limit counts against, with the limit; all null when none applies (a staff form). */
  clientAddress: string | null;
  limitCount: number | null;
  limitWindowSeconds: number | null;
};

/**
 * The submission and one delivery per target as one statement, so that a post without files is one round trip
 * and one commit (a statement is its own transaction). Its one row has the new submission's id and reference,
 * or none for a key seen before or a sender over its limit, and whether the sender was over it.
 *
 * The sender's count is the sum of a few rows (one per minute and connection that stored its posts), and a
 * stored post adds one on its own connection's row: no scan that grows with the limit, no row two posts share.
 */
const insertSubmissionWithDeliveries = statement<InsertValues>(
  (value) => sql`
    WITH sender AS (
      SELECT ${value("limitCount")}::int IS NOT NULL AND coalesce((
        SELECT sum(posts) FROM ${addressPostCounts}
        WHERE client_address = ${value("clientAddress")}::text
          AND minute > now() - make_interval(secs => ${value("limitWindowSeconds")}::int)
      ), 0) >= ${value("limitCount")}::int AS over_limit
    ),
    inserted AS (
      INSERT INTO ${submissions} (reference, type, submission_key, payload, is_spam, spam_reason, spam_since,
        suspicious_reason, submitted_by_id, client_ip, user_agent, status, contact_name, contact_email,
        contact_phone, search_terms)
      SELECT ${value("reference")}, ${value("type")}, ${value("submissionKey")}, ${value("payload")}::jsonb,
        ${value("isSpam")}::boolean, ${value("spamReason")}, CASE WHEN ${value("isSpam")}::boolean THEN now() END,
        ${value("suspiciousReason")}, ${value("submittedById")}::bigint, ${value("clientIp")},
        ${value("userAgent")}, ${value("status")}, ${value("contactName")}, ${value("contactEmail")},
        ${value("contactPhone")}, ${value("searchTerms")}
      FROM sender WHERE NOT sender.over_limit
      ON CONFLICT (type, submission_key) DO NOTHING
      RETURNING id, reference
    ), stored_deliveries AS (
      INSERT INTO ${deliveries} (submission_id, webhook_id, reference, channel, target, destination, body,
        body_format, status)
      SELECT inserted.id, outgoing.webhook_id, inserted.reference, outgoing.channel, outgoing.target,
        outgoing.destination, outgoing.body, outgoing.body_format,
        CASE WHEN ${value("isSpam")}::boolean THEN 'held' ELSE 'pending' END
      FROM inserted CROSS JOIN json_to_recordset(${value("deliveries")}::json) AS outgoing(webhook_id text,
        channel text, target text, destination text, body json, body_format text)
    ), pushed AS (
      INSERT INTO ${deliveries} (submission_id, webhook_id, reference, channel, target, destination, body,
        body_format, status)
      SELECT inserted.id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), inserted.reference, 'push',
        device.device_name, device.endpoint, ${value("pushBody")}::json, 'json', 'pending'
      FROM inserted
      JOIN ${pushSubscriptions} AS device ON ${value("pushFormType")}::text = ANY(device.form_types)
      JOIN ${staffUsers} AS person ON person.id = device.user_id AND person.is_active
        AND person.role = ANY(${value("pushRoles")}::text[])
      WHERE ${value("pushFormType")}::text IS NOT NULL AND NOT ${value("isSpam")}::boolean
    ), counted AS (
      INSERT INTO ${addressPostCounts} AS counts (client_address, minute, connection, posts)
      SELECT ${value("clientAddress")}::text, date_trunc('minute', now()), pg_backend_pid(), 1 FROM inserted
      WHERE ${value("limitCount")}::int IS NOT NULL
      ON CONFLICT (client_address, minute, connection) DO UPDATE SET posts = counts.posts + 1
    )
    SELECT inserted.id, inserted.reference, sender.over_limit FROM sender LEFT JOIN inserted ON true`,
);

/** The insert's values for a submission under the given reference, with the deliveries it may make. */
function insertValues<Payload>(
  submission: NewSubmission<Payload>,
  reference: string,
  sendable: readonly OutgoingDelivery[],
) {
  const contact = submission.definition.contact(submission.payload);
  const isSpam = submission.spamReason !== undefined;
  // A staff form's submission, or one without an address, is not limited.
  const limit =
    submission.limitPerAddress && submission.clientIp !== undefined && submission.submittedById === undefined
      ? { ...submission.limitPerAddress, address: clientAddressKey(submission.clientIp) }
      : undefined;
  const outgoing = sendable.map((delivery) => ({
    webhook_id: newWebhookId(),
    channel: delivery.channel,
    target: delivery.target,
    destination: delivery.destination,
    body: delivery.body,
    body_format: delivery.bodyFormat ?? "json",
  }));
  return {
    reference,
    type: submission.definition.type,
    submissionKey: submission.submissionKey,
    payload: JSON.stringify(submission.payload),
    isSpam,
    spamReason: submission.spamReason ?? null,
    suspiciousReason: submission.suspiciousReason ?? null,
    submittedById: submission.submittedById ?? null,
    clientIp: submission.clientIp ?? null,
    userAgent: submission.userAgent ?? null,
    status: submission.definition.statuses[0],
    contactName: contact.name,
    contactEmail: contact.email,
    contactPhone: contact.phone,
    searchTerms: submission.definition.searchTerms?.(submission.payload) ?? "",
    deliveries: JSON.stringify(outgoing),
    pushFormType: submission.devicePushes?.formType ?? null,
    pushRoles: submission.devicePushes ? [...submission.devicePushes.roles] : null,
    pushBody: submission.devicePushes ? JSON.stringify(submission.devicePushes.body) : null,
    clientAddress: limit?.address ?? null,
    limitCount: limit?.count ?? null,
    limitWindowSeconds: limit?.windowSeconds ?? null,
  } satisfies InsertValues;
}

async function storeWithReference<Payload>(
  db: Database,
  submission: NewSubmission<Payload>,
  reference: string,
): Promise<StoredSubmission> {
  const files = submission.files ?? [];
  const names = submission.fileNames?.(reference) ?? [];
  const outgoing = submission.deliveries(reference);
  const limited = outgoing.some((delivery) => delivery.dailyLimitPerRecipient !== undefined);
  const store = async (executor: Executor): Promise<StoredSubmission> => {
    const { sendable, withheld } = limited
      ? await withinDailyLimits(executor, outgoing)
      : { sendable: outgoing, withheld: [] };
    const [inserted] = await runStatement<
      { id: string | null; reference: string | null; over_limit: boolean },
      InsertValues
    >(executor, insertSubmissionWithDeliveries, insertValues(submission, reference, sendable));
    if (inserted?.over_limit) throw new OverSubmissionLimit();
    if (!inserted?.id || !inserted.reference) return storedBefore(executor, submission);
    const submissionId = Number(inserted.id);
    if (withheld.length > 0) {
      await executor.insert(submissionEvents).values(
        withheld.map((delivery) => ({
          submissionId,
          actorId: null,
          kind: "delivery-withheld" as const,
          fromValue: delivery.target,
          toValue: delivery.destination,
        })),
      );
    }
    // One statement per file: the driver builds each statement's message whole, and ten photos in one would be a
    // buffer of their whole size, grown by doubling, for each checklist being stored.
    const storedFiles: StoredSubmission["files"] = [];
    for (const [index, file] of files.entries()) {
      const name = { fileName: names[index]?.fileName ?? file.fileName, sentAs: names[index]?.sentAs ?? null };
      storedFiles.push(
        file.stagedId === undefined
          ? await insertFile(executor, submissionId, name, file)
          : await adoptStagedFile(executor, submissionId, name, file.stagedId),
      );
    }
    return { id: submissionId, reference: inserted.reference, duplicate: false, files: storedFiles };
  };
  // One statement is its own transaction; files, a count to keep under a daily limit, and a check of the sender's
  // limits need one around them.
  const { admit } = submission;
  if (files.length === 0 && !limited && !admit) return store(db);
  return inTransaction(db, async (transaction) => {
    await admit?.(transaction);
    return store(transaction);
  });
}

/**
 * Splits the deliveries into those to make and those whose destination already had its daily limit of their
 * target. Inside the submission's transaction, the advisory lock per destination makes parallel submissions
 * count one after another.
 */
async function withinDailyLimits(executor: Executor, outgoing: readonly OutgoingDelivery[]) {
  const sendable: OutgoingDelivery[] = [];
  const withheld: OutgoingDelivery[] = [];
  for (const delivery of outgoing) {
    const limit = delivery.dailyLimitPerRecipient;
    if (limit === undefined) {
      sendable.push(delivery);
      continue;
    }
    const reached = await reachedDailyLimit(executor, delivery.target, delivery.destination, limit);
    (reached ? withheld : sendable).push(delivery);
  }
  return { sendable, withheld };
}

/**
 * Whether `destination` (case-insensitive) already had `limit` deliveries of `target` in the last 24 hours, replays
 * included. Call it inside the transaction that would add one: the advisory lock per address makes parallel
 * callers count one after another.
 */
export async function reachedDailyLimit(
  executor: Executor,
  target: string,
  destination: string,
  limit: number,
): Promise<boolean> {
  const address = destination.toLowerCase();
  await executor.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`${target} ${address}`}))`);
  const [sent] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.target, target),
        eq(sql`lower(${deliveries.destination})`, address),
        gt(deliveries.createdAt, sql`now() - interval '1 day'`),
      ),
    );
  return (sent?.count ?? 0) >= limit;
}

/** The submission first stored under this key, when a resend of it came. */
async function storedBefore<Payload>(
  executor: Executor,
  submission: NewSubmission<Payload>,
): Promise<StoredSubmission> {
  const existing = await storedUnderKey(executor, submission.definition.type, submission.submissionKey);
  if (!existing) throw new Error("a conflicting submission vanished");
  return existing;
}

async function insertFile(executor: Executor, submissionId: number, name: StoredFileName, file: SubmittedFile) {
  const [stored] = await executor
    .insert(submissionFiles)
    .values({ submissionId, ...name, ...fileContentColumns(file) })
    .returning(storedFileRefColumns);
  if (!stored) throw new Error("a file's row was not stored");
  return stored;
}

/** Makes a staged file the submission's, under its stored name: its bytes stay where they were written. */
async function adoptStagedFile(executor: Executor, submissionId: number, name: StoredFileName, stagedId: number) {
  const [adopted] = await executor
    .update(submissionFiles)
    .set({ submissionId, ...name })
    .where(and(eq(submissionFiles.id, stagedId), isNull(submissionFiles.submissionId)))
    .returning(storedFileRefColumns);
  if (!adopted) throw new Error(`staged file ${stagedId} is no longer there to adopt`);
  return adopted;
}

/** The submission of this type stored under this double-submit key, with its files' ids, if there is one. */
export async function storedUnderKey(
  executor: Executor,
  type: string,
  submissionKey: string,
): Promise<StoredSubmission | undefined> {
  const [existing] = await executor
    .select({ id: submissions.id, reference: submissions.reference })
    .from(submissions)
    .where(and(eq(submissions.type, type), eq(submissions.submissionKey, submissionKey)));
  if (!existing) return undefined;
  const existingFiles = await executor
    .select(storedFileRefColumns)
    .from(submissionFiles)
    .where(eq(submissionFiles.submissionId, existing.id))
    .orderBy(asc(submissionFiles.id));
  return { ...existing, duplicate: true, files: existingFiles };
}

/** Where a stored submission's deliveries go: what its answer tells the sender was sent. */
export function storedDeliveries(executor: Executor, submissionId: number) {
  return executor
    .select({ channel: deliveries.channel, target: deliveries.target, destination: deliveries.destination })
    .from(deliveries)
    .where(eq(deliveries.submissionId, submissionId));
}

/**
 * What every form's action does with a valid submission: stores it with its deliveries, wakes the delivery
 * worker when it is new (a resend was stored and woken the first time), and logs its reference.
 */
export async function acceptSubmission<Payload>(
  context: AppLoadContext,
  submission: NewSubmission<Payload>,
): Promise<StoredSubmission> {
  const stored = await storeSubmission(context.db, submission);
  if (!stored.duplicate) context.deliveryWorker.wake();
  context.logger.info(
    { type: submission.definition.type, reference: stored.reference, duplicate: stored.duplicate },
    "submission stored",
  );
  return stored;
}
