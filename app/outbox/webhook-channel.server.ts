import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/server/db/database.server";
import { deliveries } from "~/server/db/schema.server";
import type { Delivery, DeliveryChannelSender } from "./delivery-channel.server";
import { isMultipartBody } from "./multipart-body";
import { encodeMultipart } from "./multipart-body.server";
import { encodeJsonWithStoredFiles, storedFileFieldsOf } from "./stored-file-json.server";
import { readSubmissionFiles } from "./submission-files.server";
import { configuredWebhookSettings, currentWebhookUrl } from "./targets.server";
import { type EncodedBody, encodeJson, sendWebhook } from "./webhook-sender.server";

/**
 * 64 sends in flight per target. At 20, under a flood of estimate posts the worker sent fewer a second than the
 * app stored and a lead waited 2.6 s at p50 for its webhook; at 60, 55 ms (npx tsx scripts/bench-posts.ts). Each
 * is a kept-alive HTTP request, which automation receivers take by the hundred.
 */
export const webhookChannel: DeliveryChannelSender = {
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
      body: await encodeBody(delivery, db),
      secret: config.WEBHOOK_SECRET,
    });
  },
};

async function encodeBody(delivery: Delivery, db: Database): Promise<EncodedBody> {
  if (delivery.bodyFormat === "json") {
    const storedFields = storedFileFieldsOf(delivery.body);
    if (storedFields.size === 0) return encodeJson(delivery.body);
    const files = await readSubmissionFiles(db, delivery.submissionId, [...storedFields]);
    return encodeJsonWithStoredFiles(delivery.body, files);
  }
  if (!isMultipartBody(delivery.body)) throw new Error("the multipart delivery's body has no parts");
  return encodeMultipart(delivery.body, await readSubmissionFiles(db, delivery.submissionId));
}
