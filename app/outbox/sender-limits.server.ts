import { and, countDistinct, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Config } from "~/services/config.server";
import type { Transaction } from "~/services/db/database.server";
import { deliveries, submissions } from "~/services/db/schema.server";

export type SendingLimits = Pick<Config, "TEAM_MESSAGES_PER_MINUTE" | "TEAM_TEXTS_PER_HOUR">;

/** What a person may not send now: a message past TEAM_MESSAGES_PER_MINUTE, or texts past TEAM_TEXTS_PER_HOUR. */
export type OverSendingLimit = { limit: "messages-per-minute" } | { limit: "texts-per-hour"; textsSent: number };

const since = (column: typeof submissions.createdAt | typeof deliveries.createdAt, window: string) =>
  gt(column, sql`now() - ${window}::interval`);

/** The person's messages of `messageTypes` since `window` ago (their texts told apart by webhook-id). */
const messagesSentSince = (messageTypes: readonly string[], userId: number, window: string) =>
  and(
    inArray(submissions.type, [...messageTypes]),
    eq(submissions.submittedById, userId),
    since(submissions.createdAt, window),
  );

/** The person's replays of emails and texts since `window` ago: each is a message sent again, by them. */
const replaysSince = (userId: number, window: string, channels: ("email" | "sms")[]) =>
  and(eq(deliveries.replayedById, userId), inArray(deliveries.channel, channels), since(deliveries.createdAt, window));

async function count(query: Promise<{ count: number }[]>): Promise<number> {
  const [row] = await query;
  return Number(row?.count ?? 0);
}

/**
 * Whether this user may not send, now, a message (one of `messageTypes`, the forms whose sender chooses who gets
 * its emails and texts: a team message; or a replay of an email or a text) that makes `newTexts` texts: undefined
 * when they may. Their messages and their replays count alike, each replay against the person who made it; counted
 * from the database, so the limits hold across restarts and every instance.
 *
 * Call it in the transaction that would store the message or the replay: it first takes an advisory lock per user,
 * held until that transaction ends, so that the user's sends at the same moment are counted one after the other,
 * each seeing those stored before it (a plain count first would let two at the limit both pass).
 */
export async function overSendingLimit(
  transaction: Transaction,
  config: SendingLimits,
  messageTypes: readonly string[],
  sender: { userId: number; newTexts: number },
): Promise<OverSendingLimit | undefined> {
  const { userId, newTexts } = sender;
  await transaction.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`sending limits ${userId}`}))`);
  const messages =
    (await count(
      transaction
        .select({ count: sql<number>`count(*)::int` })
        .from(submissions)
        .where(messagesSentSince(messageTypes, userId, "1 minute")),
    )) +
    (await count(
      transaction
        .select({ count: sql<number>`count(*)::int` })
        .from(deliveries)
        .where(replaysSince(userId, "1 minute", ["email", "sms"])),
    ));
  if (messages >= config.TEAM_MESSAGES_PER_MINUTE) return { limit: "messages-per-minute" };
  if (newTexts === 0) return undefined;
  const textsSent =
    (await count(
      transaction
        .select({ count: countDistinct(deliveries.webhookId) })
        .from(deliveries)
        .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
        .where(
          and(
            eq(deliveries.channel, "sms"),
            isNull(deliveries.replayedById),
            messagesSentSince(messageTypes, userId, "1 hour"),
          ),
        ),
    )) +
    (await count(
      transaction
        .select({ count: sql<number>`count(*)::int` })
        .from(deliveries)
        .where(replaysSince(userId, "1 hour", ["sms"])),
    ));
  if (textsSent + newTexts > config.TEAM_TEXTS_PER_HOUR) return { limit: "texts-per-hour", textsSent };
  return undefined;
}
