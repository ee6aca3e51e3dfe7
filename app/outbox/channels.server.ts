import type { DeliveryChannel } from "~/server/db/schema.server";
import type { DeliveryChannelSender } from "./delivery-channel.server";
import { emailChannel } from "./email-channel.server";
import { smsChannel } from "./sms-channel.server";
import { configuredWebhookSettings, type WebhookUrls } from "./targets.server";
import { webhookChannel } from "./webhook-channel.server";

/** Every way a delivery goes out, by the channel stored on it: a new channel is its file and a line here. */
export const DELIVERY_CHANNELS: Readonly<Record<DeliveryChannel, DeliveryChannelSender>> = {
  webhook: webhookChannel,
  email: emailChannel,
  sms: smsChannel,
};

/**
 * The most sends in flight at once: room for every configured webhook target at its limit together, and for
 * three more (emails and texts) at theirs, so that when every webhook hangs (they usually all point at one
 * automation server, which can go down as one) email and texts still go out. A send in flight costs a socket
 * and a promise.
 */
export const defaultMaxInFlight = (urls: WebhookUrls) =>
  configuredWebhookSettings(urls).length * webhookChannel.perTargetLimit + 3 * emailChannel.perTargetLimit;
