import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Config } from "~/services/config.server";
import type { Database } from "~/services/db/database.server";
import { type DeliveryChannel, deliveries } from "~/services/db/schema.server";
import { type EmailSender, emailChannel } from "./email-sender.server";
import { isMultipartBody } from "./multipart-body";
import { encodeMultipart } from "./multipart-body.server";
import { pushChannel } from "./push-sender.server";
import { type SmsSender, smsChannel } from "./sms-sender.server";
import { encodeJsonWithStoredFiles, storedFileFieldsOf } from "./stored-file-json.server";
import { readSubmissionFiles } from "./submission-files.server";
import { configuredWebhookSettings, currentWebhookUrl, type WebhookUrls } from "./targets.server";
import { type EncodedBody, encodeJson, type SendOutcome, sendWebhook } from "./webhook-sender.server";

/** A claimed delivery as a channel sends it: its `destination` is where it goes now (currentDestination). */
export type Delivery = Pick<
  typeof deliveries.$inferSelect,
  "id" | "submissionId" | "webhookId" | "reference" | "channel" | "target" | "destination" | "body" | "bodyFormat"
> & {
  attemptCount: number;
  /** What the channel's `claimedWith` read for this delivery as it was claimed (null when the row is gone). */
  claimedWith?: unknown;
};

/** What a channel may use besides the delivery; a sender left out is not configured. */
export type ChannelContext = {
  db: Database;
  /** The webhook URLs are read from here at each attempt; a target left unset holds its deliveries. */
  config: Pick<Config, "DELIVERY_RETRY_SCHEDULE" | "WEBHOOK_SECRET"> &
    Partial<
      Pick<
        Config,
        | "VAPID_PUBLIC_KEY"
        | "VAPID_PRIVATE_KEY"
        | "VAPID_SUBJECT"
        | "PUSH_SERVICE_ALLOWED_HOSTS"
        | "TEXTS_PER_NUMBER_PER_DAY"
      >
    > &
    WebhookUrls;
  emailSender?: EmailSender;
  smsSender?: SmsSender;
};

/** One way a delivery goes out (webhook, email, text, push), registered in DELIVERY_CHANNELS. */
export type DeliveryChannelSender = {
  /** The most sends in flight at once to one target of this channel, unless the worker is told one number. */
  perTargetLimit: number;
  /** Where the delivery goes now; undefined holds it until its setting is set (stored as is by default). */
  currentDestination?: (delivery: Delivery, config: ChannelContext["config"]) => string | undefined;
  /** Puts this channel's held deliveries whose setting is now set back in the queue (run as a worker starts). */
  releaseHeld?: (context: ChannelContext) => Promise<void>;
  /**
   * A value read with each of this channel's deliveries in the statement that claims them (`d` is the delivery's
   * row), so that a send under a flood of leads need not ask the database again for each one.
   */
  claimedWith?: SQL;
  send: (delivery: Delivery, context: ChannelContext) => Promise<SendOutcome>;
};

/**
 * 64 sends in flight per target. At 20, under a flood of estimate posts the worker sent fewer a second than the
 * app stored and a lead waited 2.6 s at p50 for its webhook; at 60, 55 ms (npx tsx scripts/bench-posts.ts). Each
 * is a kept-alive HTTP request, which automation receivers take by the hundred.
 */
const webhookChannel: DeliveryChannelSender = {
  perTargetLimit: 64,
  currentDestination: (delivery, config) => currentWebhookUrl(config, delivery.target),
  /**
   * Webhook deliveries held because their target was unset go back to the queue once it is set: the
   * configuration is read at start, so this runs when a worker starts (and on each run by hand). Spam stays.
   */
  async releaseHeld({ db, config }) {
    const configured = configuredWebhookSettings(config);
    if (configured.length === 0) return;
    await db
      .update(deliveries)
      .set({ status: "pending", nextAttemptAt: sql`now()`, lastError: null })
      .where(
        and(
          eq(deliveries.status, "held"),
          eq(deliveries.channel, "webhook"),
          inArray(deliveries.target, configured),
          sql`NOT EXISTS (SELECT 1 FROM submissions AS s WHERE s.id = ${deliveries.submissionId} AND s.is_spam)`,
        ),
      );
  },
  async send(delivery, { db, config }) {
    return sendWebhook({
      url: delivery.destination,
      webhookId: delivery.webhookId,
      reference: delivery.reference,
      body: await encodeWebhookBody(delivery, db),
      secret: config.WEBHOOK_SECRET,
    });
  },
};

async function encodeWebhookBody(delivery: Delivery, db: Database): Promise<EncodedBody> {
  if (delivery.bodyFormat === "json") {
    const storedFields = storedFileFieldsOf(delivery.body);
    if (storedFields.size === 0) return encodeJson(delivery.body);
    const files = await readSubmissionFiles(db, delivery.submissionId, [...storedFields]);
    return encodeJsonWithStoredFiles(delivery.body, files);
  }
  if (!isMultipartBody(delivery.body)) throw new Error("the multipart delivery's body has no parts");
  return encodeMultipart(delivery.body, await readSubmissionFiles(db, delivery.submissionId));
}

/** Every way a delivery goes out, by the channel stored on it: a new channel is its sender and a line here. */
export const DELIVERY_CHANNELS: Readonly<Record<DeliveryChannel, DeliveryChannelSender>> = {
  webhook: webhookChannel,
  email: emailChannel,
  sms: smsChannel,
  push: pushChannel,
};

/**
 * The most sends in flight at once: room for every configured webhook target at its limit together, and for
 * three more (emails and texts) at theirs, so that when every webhook hangs (they usually all point at one
 * automation server, which can go down as one) email and texts still go out. A send in flight costs a socket
 * and a promise.
 */
export const defaultMaxInFlight = (urls: WebhookUrls) =>
  configuredWebhookSettings(urls).length * webhookChannel.perTargetLimit + 3 * emailChannel.perTargetLimit;
