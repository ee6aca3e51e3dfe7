import { type AnyColumn, asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { data } from "react-router";
import { describeSubmissionType } from "~/features/submission-types.server";
import { answerRows } from "~/forms/print-answer";
import type { WebhookUrls } from "~/outbox/targets.server";
import { listStaffUsers } from "~/services/auth/staff-users.server";
import type { Database } from "~/services/db/database.server";
import {
  type StaffRole,
  type SubmissionEventKind,
  staffUsers,
  submissionEvents,
  submissionFiles,
  submissionNotes,
  submissions,
} from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { deliveriesInWords, loadDeliveryHistory, notSentInWords } from "./delivery-history.server";
import { recipientInWords } from "./delivery-words.server";
import { leadGist } from "./lead-gist.server";

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

/** The submission itself, with its assignee's name; a 404 for an unknown id. */
async function loadSubmission(db: Database, submissionId: number) {
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
  return row;
}

type LoadedSubmission = Awaited<ReturnType<typeof loadSubmission>>;

/** The head of the page: the lead as staff read it, its times formatted here (see formatStaffTime). */
function submissionSummary({ submission, assigneeName }: LoadedSubmission, typeLabel: string) {
  return {
    id: submission.id,
    reference: submission.reference,
    type: submission.type,
    typeLabel,
    received: formatStaffTime(submission.createdAt),
    status: submission.status,
    statusSince: formatStaffTime(submission.statusChangedAt),
    assigneeId: submission.assigneeId,
    assigneeName,
    isSpam: submission.isSpam,
    spamReason: submission.spamReason,
    suspiciousReason: submission.suspiciousReason,
    contact: { name: submission.contactName, email: submission.contactEmail, phone: submission.contactPhone },
    ...leadGist(submission.payload),
  };
}

/** The files sent with the lead, without their contents. */
const loadFiles = (db: Database, submissionId: number) =>
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
    .orderBy(asc(submissionFiles.id));

/** Staff's notes on the lead, oldest first, each with its author's name and when it was written. */
async function loadNotes(db: Database, submissionId: number) {
  const notes = await db
    .select({
      id: submissionNotes.id,
      body: submissionNotes.body,
      createdAt: submissionNotes.createdAt,
      author: displayNameColumn(staffUsers),
    })
    .from(submissionNotes)
    .leftJoin(staffUsers, eq(staffUsers.id, submissionNotes.authorId))
    .where(eq(submissionNotes.submissionId, submissionId))
    .orderBy(asc(submissionNotes.createdAt), asc(submissionNotes.id));
  return notes.map(({ createdAt, ...note }) => ({ ...note, written: formatStaffTime(createdAt) }));
}

/** The lead's change history, oldest first, each change by whom and when. */
const loadEvents = (db: Database, submissionId: number) =>
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
    .orderBy(asc(submissionEvents.createdAt), asc(submissionEvents.id));

/** The change history in words, people by their display names where the history keeps usernames. */
function changeHistory(
  events: Awaited<ReturnType<typeof loadEvents>>,
  staff: readonly { username: string; displayName: string }[],
) {
  const displayNames = new Map(staff.map((user) => [user.username, displayNameOf(user)]));
  const nameOf = (username: string | null) => (username === null ? "no one" : (displayNames.get(username) ?? username));
  return events.map(({ createdAt, actor, id, kind, ...event }) => ({
    id,
    kind,
    actor,
    at: formatStaffTime(createdAt),
    says: describeEvent({ kind, ...event }, nameOf),
  }));
}

/** Everything the detail page shows of one submission, without file contents. A 404 for an unknown id. */
export async function loadSubmissionDetail(db: Database, submissionId: number, urls: WebhookUrls, role: StaffRole) {
  const row = await loadSubmission(db, submissionId);
  const { submission } = row;
  const description = describeSubmissionType(submission.type);
  const [files, history, notes, events, staff] = await Promise.all([
    loadFiles(db, submissionId),
    loadDeliveryHistory(db, submissionId),
    loadNotes(db, submissionId),
    loadEvents(db, submissionId),
    listStaffUsers(db),
  ]);
  return {
    submission: submissionSummary(row, description.label),
    statuses: [...description.statuses],
    fields: labelledFields(submission.type, submission.payload),
    files,
    deliveries: deliveriesInWords(history, { isSpam: submission.isSpam, urls, role }),
    notSentTo: notSentInWords(submission.type, submission.payload, history.sends, urls),
    notes,
    events: changeHistory(events, staff),
    assignableStaff: staff
      .filter((user) => user.isActive || user.id === submission.assigneeId)
      .map((user) => ({ id: user.id, name: displayNameOf(user) })),
  };
}

export type SubmissionDetail = Awaited<ReturnType<typeof loadSubmissionDetail>>;
