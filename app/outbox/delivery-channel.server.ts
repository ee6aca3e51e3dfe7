import type { Config } from "~/server/config.server";
import type { Database } from "~/server/db/database.server";
import type { deliveries } from "~/server/db/schema.server";
import type { EmailSender } from "./email-sender.server";
import type { SmsSender } from "./sms-sender.server";
import type { WebhookUrls } from "./targets.server";
import type { SendOutcome } from "./webhook-sender.server";

/** A claimed delivery as a channel sends it: its `destination` is where it goes now (currentDestination). */
export type Delivery = Pick<
  typeof deliveries.$inferSelect,
  "id" | "submissionId" | "webhookId" | "reference" | "channel" | "target" | "destination" | "body" | "bodyFormat"
> & { attemptCount: number };

/** What a channel may use besides the delivery; a sender left out is not configured. */
export type ChannelContext = {
  db: Database;
  /** The webhook URLs are read from here at each attempt; a target left unset holds its deliveries. */
  config: Pick<Config, "DELIVERY_RETRY_SCHEDULE" | "WEBHOOK_SECRET"> & WebhookUrls;
  emailSender?: EmailSender;
  smsSender?: SmsSender;
};

/** One way a delivery goes out (webhook, email, text), registered in channels.server.ts. */
export type DeliveryChannelSender = {
  /** The most sends in flight at once to one target of this channel, unless the worker is told one number. */
  perTargetLimit: number;
  /** Where the delivery goes now; undefined holds it until its setting is set (stored as is by default). */
  currentDestination?: (delivery: Delivery, config: ChannelContext["config"]) => string | undefined;
  /** Puts this channel's held deliveries whose setting is now set back in the queue (run as a worker starts). */
  releaseHeld?: (context: ChannelContext) => Promise<void>;
  send: (delivery: Delivery, context: ChannelContext) => Promise<SendOutcome>;
};
