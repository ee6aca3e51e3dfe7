import { and, countDistinct, eq, gt, sql } from "drizzle-orm";
import { plural } from "~/content/plural";
import type { Config } from "~/server/config.server";
import type { Transaction } from "~/server/db/database.server";
import { deliveries, submissions } from "~/server/db/schema.server";
import { teamMessageForm } from "./definition";

/** A message to more technicians than this is refused: a slip of Select All should not text the whole company. */
export const MAX_RECIPIENTS = 100;

export const TOO_MANY_RECIPIENTS = `A message can go to at most ${MAX_RECIPIENTS} technicians. Please choose fewer and send again. Nothing was sent.`;

const sentByUserSince = (userId: number, window: string) =>
  and(
    eq(submissions.type, teamMessageForm.type),
    eq(submissions.submittedById, userId),
    gt(submissions.createdAt, sql`now() - ${window}::interval`),
  );

/**
 * Why this user may not send a message that makes `newTexts` texts now, or undefined when they may. The counts
 * are read from the messages the user stored (texts by their delivery, a retry being the same text), so they
 * hold across restarts and every instance on the database.
 *
 * Call it in the transaction that would store the message: it first takes an advisory lock per user, held until
 * that transaction ends, so that the user's messages sent at the same moment are counted one after the other,
 * each seeing those stored before it (a plain count first would let two at the limit both pass).
 */
export async function sendLimitProblem(
  transaction: Transaction,
  config: Pick<Config, "TEAM_MESSAGES_PER_MINUTE" | "TEAM_TEXTS_PER_HOUR">,
  userId: number,
  newTexts: number,
): Promise<string | undefined> {
  await transaction.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`team message limits ${userId}`}))`);
  const [lastMinute] = await transaction
    .select({ messages: sql<number>`count(*)::int` })
    .from(submissions)
    .where(sentByUserSince(userId, "1 minute"));
  if ((lastMinute?.messages ?? 0) >= config.TEAM_MESSAGES_PER_MINUTE) {
    return `You have sent ${plural(config.TEAM_MESSAGES_PER_MINUTE, "message", "messages")} in the last minute, the most allowed. Please wait a minute and send again. Nothing was sent.`;
  }
  if (newTexts === 0) return undefined;
  const [lastHour] = await transaction
    .select({ texts: countDistinct(deliveries.webhookId) })
    .from(deliveries)
    .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
    .where(and(eq(deliveries.channel, "sms"), sentByUserSince(userId, "1 hour")));
  const texts = lastHour?.texts ?? 0;
  if (texts + newTexts > config.TEAM_TEXTS_PER_HOUR) {
    return `This message would send ${plural(newTexts, "text", "texts")}, and you have sent ${texts} of the ${config.TEAM_TEXTS_PER_HOUR} allowed in an hour. Please wait, or choose fewer technicians with a mobile number. Nothing was sent.`;
  }
  return undefined;
}
