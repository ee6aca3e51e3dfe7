import { type AnyColumn, asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { data } from "react-router";
import { describeSubmissionType, submissionTypes } from "~/features/submission-types.server";
import type { StoredDelivery } from "~/forms/definition";
import { answerRows } from "~/forms/print-answer";
import type { WebhookUrls } from "~/outbox/targets.server";
import { listStaffUsers } from "~/services/auth/staff-users.server";
import type { Database } from "~/services/db/database.server";
import {
  deliveries,
  deliveryAttempts,
  type StaffRole,
  type SubmissionEventKind,
  staffUsers,
  submissionEvents,
  submissionFiles,
  submissionNotes,
  submissions,
} from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { deliveryInWords, recipientInWords, unsetTargetInWords } from "./delivery-words.server";
import { leadGist } from "./lead-gist.server";
import { type ReplayRule, replayDestination, replayRule } from "./replay-delivery.server";

/** A person as staff know them: their display name, or their username where they have none. */
export const displayNameOf = (user: { displayName: string; username: string }) =>
  user.displayName.trim() || user.username;

/** displayNameOf in SQL, for a query joining a staff user (null where the join found none). */
const displayNameColumn = (user: { displayName: AnyColumn; username: AnyColumn }) =>
  sql<string | null>`coalesce(nullif(trim(${user.displayName}), ''), ${user.username})`;

type RecordedEvent = { kind: SubmissionEventKind; fromValue: string | null; toValue: string | null };

/**
 * One line of the change history, in words: what changed, from what to what; people by their display names
 * (the history keeps usernames), deliveries by where they went.
 */
function describeEvent(event: RecordedEvent, nameOf: (username: string | null) => string): string {
  const descriptions: Record<SubmissionEventKind, () => string> = {
    status: () => `changed the status from ${event.fromValue} to ${event.toValue}`,
    assignee: () => `changed the assignee from ${nameOf(event.fromValue)} to ${nameOf(event.toValue)}`,
    spam: () => `marked it as ${event.toValue} (it was ${event.fromValue})`,
    note: () => "added a note",
    replay: () => `replayed the delivery to ${recipientInWords("webhook", event.fromValue ?? "")}`,
    "delivery-withheld": () =>
      `did not send an email to ${event.toValue}: that address had its limit of these for the day`,
  };
  return descriptions[event.kind]();
}

/** The webhooks the type's form sends to whose settings are not set: nothing of it went there. */
function unsetWebhookTargets(type: string, urls: WebhookUrls, sentTo: readonly string[]): string[] {
  const definition = submissionTypes.find((candidate) => candidate.type === type);
  return (definition?.deliveries ?? []).flatMap((delivery) =>
    delivery.channel === "webhook" && !urls[delivery.target] && !sentTo.includes(delivery.target)
      ? [delivery.target]
      : [],
  );
}

/**
 * What did not go, in words: the form's own account of its deliveries where it has one and it tells of something
 * not sent (a team message whose email and texts are not set up), else each webhook of its form that is not set.
 */
function notSentInWords(
  type: string,
  payload: Record<string, unknown>,
  stored: readonly StoredDelivery[],
  urls: WebhookUrls,
): string[] {
  const definition = submissionTypes.find((candidate) => candidate.type === type);
  const outcome = definition?.outcome?.({ payload, deliveries: stored });
  if (outcome && !outcome.sent) return [outcome.message];
  return unsetWebhookTargets(
    type,
    urls,
    stored.map((delivery) => delivery.target),
  ).map(unsetTargetInWords);
}

/**
 * What a delivery's page offers to send it again: Replay (a failed message), Send again with a confirmation (a
 * delivered one, to an admin), when it may be sent again, that its webhook must be set up first, or nothing.
 */
function replayControl(rule: ReplayRule, replayTo: string | null) {
  if (rule.kind === "no" || rule.kind === "delivered-admins-only") return "no" as const;
  if (replayTo === null) return "target-unset" as const;
  if (rule.kind === "failed") return "possible" as const;
  return rule.kind === "delivered-confirm" ? ("confirm" as const) : ("again-after" as const);
}

/** A positive whole number from a route parameter, or a 404: `/admin/inbox/abc` names no submission. */
export function parseRecordId(value: string | undefined, what: string): number {
  const id = Number(value);
  if (!/^\d+$/.test(value ?? "") || !Number.isSafeInteger(id) || id <= 0) {
    throw data({ message: `No such ${what}.` }, { status: 404 });
  }
  return id;
}

/** A payload value as one line of text, whatever its JSON type. */
function displayValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The fields as the form labelled them, printed as everywhere else; an unknown type shows its payload's own keys. */
function labelledFields(type: string, payload: Record<string, unknown>) {
  const description = describeSubmissionType(type);
  if (description.fields.length > 0) {
    return answerRows(description, payload).map(([label, value]) => ({ label, value }));
  }
  return Object.entries(payload).map(([key, value]) => ({ label: key, value: displayValue(value) }));
}

/** Everything the detail page shows of one submission, without file contents. A 404 for an unknown id. */
export async function loadSubmissionDetail(db: Database, submissionId: number, urls: WebhookUrls, role: StaffRole) {
  const assignee = alias(staffUsers, "assignee");
  const [row] = await db
    .select({
      submission: submissions,
      assigneeName: displayNameColumn(assignee),
    })
    .from(submissions)
    .leftJoin(assignee, eq(assignee.id, submissions.assigneeId))
    .where(eq(submissions.id, submissionId));
  if (!row) throw data({ message: "No such submission." }, { status: 404 });
  const { submission } = row;
  const description = describeSubmissionType(submission.type);

  const [files, deliveryRows, notes, events, staff] = await Promise.all([
    db
      .select({
        id: submissionFiles.id,
        fieldName: submissionFiles.fieldName,
        fileName: submissionFiles.fileName,
        sentAs: submissionFiles.sentAs,
        sizeBytes: submissionFiles.sizeBytes,
      })
      .from(submissionFiles)
      .where(eq(submissionFiles.submissionId, submissionId))
      .orderBy(asc(submissionFiles.id)),
    db
      .select({
        id: deliveries.id,
        webhookId: deliveries.webhookId,
        channel: deliveries.channel,
        target: deliveries.target,
        destination: deliveries.destination,
        status: deliveries.status,
        attemptCount: deliveries.attemptCount,
        nextAttemptAt: deliveries.nextAttemptAt,
        lastError: deliveries.lastError,
        deliveredAt: deliveries.deliveredAt,
        createdAt: deliveries.createdAt,
      })
      .from(deliveries)
      .where(eq(deliveries.submissionId, submissionId))
      .orderBy(asc(deliveries.id)),
    db
      .select({
        id: submissionNotes.id,
        body: submissionNotes.body,
        createdAt: submissionNotes.createdAt,
        author: displayNameColumn(staffUsers),
      })
      .from(submissionNotes)
      .leftJoin(staffUsers, eq(staffUsers.id, submissionNotes.authorId))
      .where(eq(submissionNotes.submissionId, submissionId))
      .orderBy(asc(submissionNotes.createdAt), asc(submissionNotes.id)),
    db
      .select({
        id: submissionEvents.id,
        kind: submissionEvents.kind,
        fromValue: submissionEvents.fromValue,
        toValue: submissionEvents.toValue,
        createdAt: submissionEvents.createdAt,
        actor: displayNameColumn(staffUsers),
      })
      .from(submissionEvents)
      .leftJoin(staffUsers, eq(staffUsers.id, submissionEvents.actorId))
      .where(eq(submissionEvents.submissionId, submissionId))
      .orderBy(asc(submissionEvents.createdAt), asc(submissionEvents.id)),
    listStaffUsers(db),
  ]);
  const attempts =
    deliveryRows.length === 0
      ? []
      : await db
          .select()
          .from(deliveryAttempts)
          .where(
            inArray(
              deliveryAttempts.deliveryId,
              deliveryRows.map((delivery) => delivery.id),
            ),
          )
          .orderBy(asc(deliveryAttempts.startedAt), asc(deliveryAttempts.id));

  const displayNames = new Map(staff.map((user) => [user.username, displayNameOf(user)]));
  const nameOf = (username: string | null) => (username === null ? "no one" : (displayNames.get(username) ?? username));
  const contact = { name: submission.contactName, email: submission.contactEmail, phone: submission.contactPhone };
  return {
    submission: {
      id: submission.id,
      reference: submission.reference,
      type: submission.type,
      typeLabel: description.label,
      received: formatStaffTime(submission.createdAt),
      status: submission.status,
      statusSince: formatStaffTime(submission.statusChangedAt),
      assigneeId: submission.assigneeId,
      assigneeName: row.assigneeName,
      isSpam: submission.isSpam,
      spamReason: submission.spamReason,
      suspiciousReason: submission.suspiciousReason,
      contact,
      ...leadGist(submission.payload),
    },
    statuses: [...description.statuses],
    fields: labelledFields(submission.type, submission.payload),
    files,
    deliveries: deliveryRows.map(({ nextAttemptAt, deliveredAt, createdAt, ...delivery }) => {
      // Times as staff read them, formatted here (see formatStaffTime).
      const nextTry = formatStaffTime(nextAttemptAt);
      const delivered = deliveredAt && formatStaffTime(deliveredAt);
      const replayTo = replayDestination(delivery, urls) ?? null;
      // A message is sent again from its newest send only, by the rule over all its sends.
      const sends = deliveryRows.filter((row) => row.webhookId === delivery.webhookId);
      const newest = sends.every((row) => row.id <= delivery.id);
      const rule = submission.isSpam || !newest ? { kind: "no" as const } : replayRule(sends, role);
      const details = {
        ...delivery,
        replayTo,
        attempts: attempts
          .filter((attempt) => attempt.deliveryId === delivery.id)
          .map(({ startedAt, ...attempt }) => ({ ...attempt, started: formatStaffTime(startedAt) })),
      };
      return {
        id: delivery.id,
        inWords: deliveryInWords({ ...delivery, nextTry, delivered, isSpam: submission.isSpam }),
        recipient: recipientInWords(delivery.channel, delivery.target),
        status: delivery.status,
        replay: replayControl(rule, replayTo),
        /** When a delivered message may be sent again, after a replay less than a day ago. */
        replayAgainAfter: rule.kind === "delivered-again-after" ? formatStaffTime(rule.at) : null,
        /** The setting, address, id and every attempt: for admins only (the page's loader removes them for staff). */
        details: details as typeof details | null,
      };
    }),
    notSentTo: notSentInWords(submission.type, submission.payload, deliveryRows, urls),
    notes: notes.map(({ createdAt, ...note }) => ({ ...note, written: formatStaffTime(createdAt) })),
    events: events.map(({ createdAt, actor, id, kind, ...event }) => ({
      id,
      kind,
      actor,
      at: formatStaffTime(createdAt),
      says: describeEvent({ kind, ...event }, nameOf),
    })),
    assignableStaff: staff
      .filter((user) => user.isActive || user.id === submission.assigneeId)
      .map((user) => ({ id: user.id, name: displayNameOf(user) })),
  };
}

export type SubmissionDetail = Awaited<ReturnType<typeof loadSubmissionDetail>>;
