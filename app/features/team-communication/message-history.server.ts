import { desc, eq, inArray } from "drizzle-orm";
import { failureInWords } from "~/outbox/failure-words.server";
import type { Database } from "~/services/db/database.server";
import {
  type DeliveryChannel,
  type DeliveryStatus,
  deliveries,
  type StaffRole,
  staffUsers,
  submissions,
} from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { teamMessageForm } from "./definition";
import type { TeamMessage } from "./team-message";

const HISTORY_LENGTH = 50;

/** Where one delivery is: the newest send of it (a retry is a new send with the same webhook-id). */
export type DeliveryState = {
  deliveryId: number;
  status: DeliveryStatus;
  attemptCount: number;
  /**
   * Why its last try failed: the sender's own error for an admin, a kind of failure for anyone else (an error
   * quotes the technician's address or number, which staff do not see elsewhere). Null when none failed.
   */
  failure: string | null;
};

/**
 * Why a recipient's email or text was never made: the person has no address for it, or the server had the
 * service not set up when the message was stored (it makes one for every address only then).
 */
export type NotMade = "no-address" | "not-set-up";

export type RecipientStates = {
  id: number;
  name: string;
  email: DeliveryState | NotMade;
  text: DeliveryState | NotMade;
};

export type MessageHistoryEntry = {
  submissionId: number;
  reference: string;
  /** When it was sent, as staff read it. */
  sentAt: string;
  sender: string;
  subject: string;
  recipients: RecipientStates[];
  webhook: DeliveryState | "none";
};

type DeliveryRow = typeof deliveries.$inferSelect;

/** The newest send of each delivery (by webhook-id): what a retry left, not the attempt it replaced. */
function newestSends(rows: readonly DeliveryRow[]): DeliveryRow[] {
  const newest = new Map<string, DeliveryRow>();
  for (const row of rows) {
    const known = newest.get(row.webhookId);
    if (!known || row.id > known.id) newest.set(row.webhookId, row);
  }
  return [...newest.values()];
}

const stateFor =
  (role: StaffRole) =>
  (row: DeliveryRow): DeliveryState => ({
    deliveryId: row.id,
    status: row.status,
    attemptCount: row.attemptCount,
    failure: role === "admin" ? row.lastError : failureInWords(row.channel, row.lastError),
  });

/**
 * The latest team messages, newest first: when, by whom, what, and for each recipient and channel where its
 * delivery is. A recipient's email and text are found by channel and address, and by name where several were made.
 */
export async function loadMessageHistory(db: Database, role: StaffRole): Promise<MessageHistoryEntry[]> {
  const stateOf = stateFor(role);
  // A recipient's email or text: its newest send, or why none was made.
  const recipientStateOf = (row: DeliveryRow | undefined, address: string | null): DeliveryState | NotMade => {
    if (row) return stateOf(row);
    return address === null ? "no-address" : "not-set-up";
  };
  const messages = await db
    .select({
      id: submissions.id,
      reference: submissions.reference,
      payload: submissions.payload,
      createdAt: submissions.createdAt,
      sender: staffUsers.username,
    })
    .from(submissions)
    .leftJoin(staffUsers, eq(staffUsers.id, submissions.submittedById))
    .where(eq(submissions.type, teamMessageForm.type))
    .orderBy(desc(submissions.createdAt), desc(submissions.id))
    .limit(HISTORY_LENGTH);
  if (messages.length === 0) return [];
  const rows = await db
    .select()
    .from(deliveries)
    .where(
      inArray(
        deliveries.submissionId,
        messages.map((message) => message.id),
      ),
    );
  return messages.map((message) => {
    const payload = message.payload as TeamMessage;
    const sends = newestSends(rows.filter((row) => row.submissionId === message.id));
    // People sharing an address got one send there, named for them all: found by its address alone.
    const find = (channel: DeliveryChannel, name: string, destination: string | null) => {
      if (destination === null) return undefined;
      const toAddress = sends.filter(
        (row) => row.channel === channel && row.destination?.toLowerCase() === destination.toLowerCase(),
      );
      return toAddress.find((row) => row.target === name) ?? toAddress[0];
    };
    const webhookSend = sends.find((row) => row.channel === "webhook");
    return {
      submissionId: message.id,
      reference: message.reference,
      sentAt: formatStaffTime(message.createdAt),
      sender: message.sender ?? "a removed user",
      subject: payload.subject,
      recipients: payload.recipients.map((recipient) => ({
        id: recipient.id,
        name: recipient.name,
        email: recipientStateOf(find("email", recipient.name, recipient.email), recipient.email),
        text: recipientStateOf(find("sms", recipient.name, recipient.phoneNumber), recipient.phoneNumber),
      })),
      webhook: webhookSend ? stateOf(webhookSend) : "none",
    };
  });
}
