import { plural } from "~/content/plural";
import { overSendingLimit, type SendingLimits } from "~/outbox/sender-limits.server";
import type { Transaction } from "~/services/db/database.server";
import { teamMessageForm } from "./definition";

/** A message to more technicians than this is refused: a slip of Select All should not text the whole company. */
export const MAX_RECIPIENTS = 100;

export const TOO_MANY_RECIPIENTS = `A message can go to at most ${MAX_RECIPIENTS} technicians. Please choose fewer and send again. Nothing was sent.`;

/**
 * Why this user may not send a message that makes `newTexts` texts now, or undefined when they may: their
 * messages and their replays counted (overSendingLimit). Call it in the transaction that would store the message.
 */
export async function sendLimitProblem(
  transaction: Transaction,
  config: SendingLimits,
  userId: number,
  newTexts: number,
): Promise<string | undefined> {
  const over = await overSendingLimit(transaction, config, [teamMessageForm.type], { userId, newTexts });
  if (over?.limit === "messages-per-minute") {
    return `You have sent ${plural(config.TEAM_MESSAGES_PER_MINUTE, "message", "messages")} in the last minute, the most allowed. Please wait a minute and send again. Nothing was sent.`;
  }
  if (over?.limit === "texts-per-hour") {
    return `This message would send ${plural(newTexts, "text", "texts")}, and you have sent ${over.textsSent} of the ${config.TEAM_TEXTS_PER_HOUR} allowed in an hour. Please wait, or choose fewer technicians with a mobile number. Nothing was sent.`;
  }
  return undefined;
}
