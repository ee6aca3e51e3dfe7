import { and, eq, gt, ne, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { plural } from "~/content/plural";
import { DEFAULT_TEXTS_PER_NUMBER_PER_DAY } from "~/services/config.server";
import { type Database, inTransaction } from "~/services/db/database.server";
import { deliveries } from "~/services/db/schema.server";
import type { DeliveryChannelSender } from "./channels.server";
import { type SendOutcome, WEBHOOK_TIMEOUT_MS } from "./webhook-sender.server";

export type SmsBody = { text: string };

export type SmsSender = { send: (to: string, body: SmsBody) => Promise<SendOutcome> };

/** Why a text was not sent, in the words staff read: its number had its day's texts (TEXTS_PER_NUMBER_PER_DAY). */
export const numberHadItsTexts = (limit: number) =>
  `This number has had ${plural(limit, "text", "texts")} in the last 24 hours, the most one number gets`;

/** Whether a delivery's error is numberHadItsTexts': a reason staff may read as it is. */
export const isNumberDayLimit = (error: string | null) =>
  error !== null && /^This number has had \d+ texts? in the last 24 hours, the most one number gets$/.test(error);

/**
 * Counts a text in its number's day, unless the number already had `limit` texts in the last 24 hours, whatever
 * sent them (new leads, alerts, team messages, replays): whether it may go. Under an advisory lock per number, so
 * that texts sent to one number at once are counted one after the other.
 */
async function countInNumbersDay(db: Database, delivery: { id: number; destination: string }, limit: number) {
  return inTransaction(db, async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`texts to ${delivery.destination}`}))`);
    const [counted] = await tx
      .select({ texts: sql<number>`count(*)::int` })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.channel, "sms"),
          eq(deliveries.destination, delivery.destination),
          ne(deliveries.id, delivery.id),
          gt(deliveries.textCountedAt, sql`now() - interval '1 day'`),
        ),
      );
    if ((counted?.texts ?? 0) >= limit) return false;
    await tx.update(deliveries).set({ textCountedAt: sql`now()` }).where(eq(deliveries.id, delivery.id));
    return true;
  });
}

export const smsChannel: DeliveryChannelSender = {
  perTargetLimit: 20,
  async send(delivery, { smsSender, db, config }) {
    if (!smsSender) return { ok: false, error: "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are not set" };
    const limit = config.TEXTS_PER_NUMBER_PER_DAY ?? DEFAULT_TEXTS_PER_NUMBER_PER_DAY;
    if (!(await countInNumbersDay(db, delivery, limit))) {
      return { ok: false, permanent: true, error: numberHadItsTexts(limit) };
    }
    const outcome = await smsSender.send(delivery.destination, delivery.body as SmsBody);
    // Twilio answered that it did not take it: no text went. Without an answer (a time-out) one may have.
    if (!outcome.ok && outcome.httpStatus !== undefined) {
      await db.update(deliveries).set({ textCountedAt: null }).where(eq(deliveries.id, delivery.id));
    }
    return outcome;
  },
};

export type TwilioSettings = { accountSid: string; authToken: string; from: string; apiUrl?: string };

/**
 * Twilio's error codes that no retry can fix, in the words staff read in the message history. Any other 4xx
 * but 401 and 429 is permanent too, with Twilio's own message.
 */
const PERMANENT_TWILIO_ERRORS: Record<number, string> = {
  21211: "Not a valid phone number",
  21610: "The recipient has opted out of texts from this number (they replied STOP)",
  21612: "Twilio cannot reach this number",
  21614: "Not a mobile number that can receive texts",
};

type TwilioError = { code?: number; message?: string };

/**
 * Sends a text through Twilio's Messages API over fetch (a POST of To, From and Body, form-encoded, with the
 * account SID and auth token as basic auth). A long body goes as one message: Twilio splits it into segments
 * and the phone joins them. The Twilio SDK is not used: this one call does not need its weight.
 */
export function createSmsSender(settings: TwilioSettings, logger: Logger): SmsSender {
  const baseUrl = (settings.apiUrl ?? "https://api.twilio.com").replace(/\/+$/, "");
  const url = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`;
  // A Messaging Service SID sends from the service's pool of numbers instead of one number.
  const sender: Record<string, string> = settings.from.startsWith("MG")
    ? { MessagingServiceSid: settings.from }
    : { From: settings.from };
  let credentialsRefused = false;

  return {
    send: async (to, body) => {
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ To: to, ...sender, Body: body.text }),
          redirect: "manual",
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      const status = response.status;
      const answer = (await response.json().catch(() => ({}))) as TwilioError;
      if (status >= 200 && status < 300) {
        credentialsRefused = false;
        return { ok: true, httpStatus: status };
      }
      if (status === 401) {
        // A configuration error: every text fails alike until it is fixed, so it is said once, not per text.
        if (!credentialsRefused) {
          logger.error(
            { twilioCode: answer.code },
            "Twilio refused the credentials (HTTP 401): check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN. Texts are retried on the delivery schedule.",
          );
        }
        credentialsRefused = true;
        return { ok: false, httpStatus: status, error: "Twilio refused the account credentials (configuration error)" };
      }
      if (status === 429 || status >= 500) {
        return { ok: false, httpStatus: status, error: `Twilio is busy or unavailable (HTTP ${status})` };
      }
      const known = answer.code === undefined ? undefined : PERMANENT_TWILIO_ERRORS[answer.code];
      const code = answer.code === undefined ? "" : ` (Twilio ${answer.code})`;
      return {
        ok: false,
        httpStatus: status,
        permanent: true,
        error: `${known ?? answer.message ?? `Twilio refused the text (HTTP ${status})`}${code}`,
      };
    },
  };
}
