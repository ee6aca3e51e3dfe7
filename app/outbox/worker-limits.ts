import type { DeliveryChannel } from "~/server/db/schema.server";
import { WEBHOOK_TARGETS } from "./targets.server";

/**
 * The most sends the delivery worker has in flight to one target of each channel unless told otherwise.
 *
 * Email: also the width of the SMTP connection pool. At 10, an office email sent beside 200 others waited 1.1 s
 * at p99 on a 2-core machine; at 20, 0.55 s (the fault suite's "slow target beside a fast one"). Mail servers
 * take that many connections from one client (Postfix allows 50).
 *
 * Webhooks: 64. At 20, under a flood of estimate posts the worker sent fewer a second than the app stored and a
 * lead waited 2.6 s at p50 for its webhook; at 60, 55 ms (npx tsx scripts/bench-posts.ts). Each is a kept-alive
 * HTTP request, which automation receivers take by the hundred.
 */
export const DEFAULT_PER_TARGET_LIMITS: Readonly<Record<DeliveryChannel, number>> = { webhook: 64, email: 20, sms: 20 };

/**
 * The most sends in flight at once: room for every webhook target at its limit together, and for three more
 * (emails and texts) at theirs, so that when every webhook hangs (they usually all point at one automation
 * server, which can go down as one) email and texts still go out. A send in flight costs a socket and a promise.
 */
export const DEFAULT_MAX_IN_FLIGHT =
  WEBHOOK_TARGETS.length * DEFAULT_PER_TARGET_LIMITS.webhook + 3 * DEFAULT_PER_TARGET_LIMITS.email;
