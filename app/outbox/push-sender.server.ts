import { eq, sql } from "drizzle-orm";
import webPush from "web-push";
import { deliveryFailureAcknowledgements, pushSubscriptions } from "~/services/db/schema.server";
import { NotPublicAddressError } from "~/services/public-address.server";
import type { ChannelContext, Delivery, DeliveryChannelSender } from "./channels.server";
import {
  type PushAddressProblem,
  type PushAddressSettings,
  pushAddressProblem,
  pushAgentFor,
} from "./push-address.server";
import { describeSendError, postBytes, type SendOutcome, WEBHOOK_TIMEOUT_MS } from "./webhook-sender.server";

/** What a push notification of a new submission says: stored on each device's delivery. */
export type PushBody = { title: string; body: string; call?: string };

/** What the staff app's service worker receives (scripts/staff-app/service-worker.mjs shows it). */
export type PushMessage = PushBody & { url: string; tag: string };

/** A device's Web Push subscription, as its browser gave it. */
export type PushSubscriptionKeys = { endpoint: string; p256dh: string; auth: string };

/** The VAPID settings a push is signed with (resolved at start: config.server.ts and vapid-keys.server.ts). */
export type VapidSettings = Pick<ChannelContext["config"], "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT">;

/** A lead is still worth hearing of when a phone that was off comes back within a day. */
const TIME_TO_LIVE_SECONDS = 24 * 60 * 60;

/** A VAPID JWT is good for 12 hours (its `exp`); it is signed again after one, so none goes out near its end. */
const VAPID_JWT_SECONDS = 12 * 60 * 60;
const VAPID_RENEW_MS = 60 * 60 * 1000;
const vapidHeaders = new Map<string, { authorization: string; renewAt: number }>();

/**
 * The Authorization header for a push service's origin, signed once an hour rather than per push: web-push signs
 * (and converts the key to PEM in JavaScript) on every call, which under a flood of leads cost more than the rest
 * of the send.
 */
function vapidAuthorization(audience: string, vapid: { subject: string; publicKey: string; privateKey: string }) {
  const key = `${audience} ${vapid.publicKey} ${vapid.subject}`;
  const cached = vapidHeaders.get(key);
  if (cached && cached.renewAt > Date.now()) return cached.authorization;
  const expiration = Math.floor(Date.now() / 1000) + VAPID_JWT_SECONDS;
  const { Authorization: authorization } = webPush.getVapidHeaders(
    audience,
    vapid.subject,
    vapid.publicKey,
    vapid.privateKey,
    "aes128gcm",
    expiration,
  );
  vapidHeaders.set(key, { authorization, renewAt: Date.now() + VAPID_RENEW_MS });
  return authorization;
}

/**
 * Why nothing was sent to a device's push address, refused before any connection was made. Such a device is
 * removed as one that is gone: it could never be sent to, and each lead would otherwise be one more alert.
 */
const NOT_A_PUSH_SERVICE: Record<PushAddressProblem, string> = {
  "not https": "The device's push address is not https; its subscription was removed",
  "not public": "The device's push address is not a push service on the internet; its subscription was removed",
};

/**
 * Sends one encrypted push (RFC 8291, aes128gcm) signed with our VAPID key (RFC 8292). web-push builds the
 * request (the encryption and the signed JWT); it is sent over kept-alive connections of the push's own, since
 * web-push's own send speaks https only and opens a connection each time. The address must be a push service on
 * the internet (push-address.server.ts), checked as the connection is made. The push service answers 201; 404 or
 * 410 means the device's subscription is gone for good.
 */
export async function sendPush(
  subscription: PushSubscriptionKeys,
  message: PushMessage,
  settings: VapidSettings & PushAddressSettings,
): Promise<SendOutcome & { gone?: boolean }> {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = settings;
  if (!publicKey || !privateKey || !subject) return { ok: false, error: "the VAPID keys are not resolved" };
  const endpoint = new URL(subscription.endpoint);
  const problem = pushAddressProblem(endpoint, settings);
  if (problem) return { ok: false, permanent: true, gone: true, error: NOT_A_PUSH_SERVICE[problem] };
  const request = webPush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify(message),
    { TTL: TIME_TO_LIVE_SECONDS, urgency: "high", contentEncoding: "aes128gcm" },
  );
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => name.toLowerCase() !== "content-length")
      .map(([name, value]) => [name, String(value)]),
  );
  headers.Authorization = vapidAuthorization(new URL(request.endpoint).origin, { subject, publicKey, privateKey });
  let httpStatus: number;
  try {
    httpStatus = await postBytes(
      endpoint,
      headers,
      request.body ?? new Uint8Array(0),
      WEBHOOK_TIMEOUT_MS,
      pushAgentFor(endpoint, settings),
    );
  } catch (error) {
    if (error instanceof NotPublicAddressError)
      return { ok: false, permanent: true, gone: true, error: NOT_A_PUSH_SERVICE["not public"] };
    return { ok: false, error: describeSendError(error) };
  }
  if (httpStatus >= 200 && httpStatus < 300) return { ok: true, httpStatus };
  if (httpStatus === 404 || httpStatus === 410) {
    return {
      ok: false,
      httpStatus,
      permanent: true,
      gone: true,
      error: "The device no longer takes notifications; its subscription was removed",
    };
  }
  if (httpStatus === 429 || httpStatus >= 500)
    return { ok: false, httpStatus, error: `The push service is busy or unavailable (HTTP ${httpStatus})` };
  return {
    ok: false,
    httpStatus,
    permanent: true,
    error: `The push service refused the notification (HTTP ${httpStatus})`,
  };
}

/**
 * The message a delivery's device receives: its stored text with the submission's reference after it, in our
 * own words (a visitor's answers in it are plain capped lines: app/forms/notification-text.ts), and the
 * submission it opens.
 */
export function pushMessageOf(delivery: Pick<Delivery, "submissionId" | "reference" | "body">): PushMessage {
  const stored = delivery.body as PushBody;
  const body = [stored.body, `Reference ${delivery.reference}.`].filter(Boolean).join(". ");
  return { ...stored, body, url: `/admin/inbox/${delivery.submissionId}`, tag: delivery.reference };
}

/**
 * A device that turned notifications off, that its push service says is gone, or whose push address is refused, is
 * no failure anyone must act on:
 * its delivery stays failed with why in the history, already acknowledged, so it raises no dashboard alert and no
 * alert text.
 */
async function acknowledgeDeviceGone(db: ChannelContext["db"], delivery: Pick<Delivery, "id">) {
  await db
    .insert(deliveryFailureAcknowledgements)
    .values({ deliveryId: delivery.id, username: "device gone" })
    .onConflictDoNothing();
}

/** The device's keys, read as its delivery is claimed: null when the device turned notifications off since. */
const subscriptionKeys = sql`(SELECT json_build_object('endpoint', s.endpoint, 'p256dh', s.p256dh, 'auth', s.auth)
  FROM ${pushSubscriptions} s WHERE s.endpoint = d.destination)`;

/**
 * A push to one staff device (its subscription's endpoint is the destination). A device that unsubscribed since
 * the submission was stored gets nothing; one the push service says is gone, or whose address is refused, is
 * removed.
 */
export const pushChannel: DeliveryChannelSender = {
  perTargetLimit: 20,
  claimedWith: subscriptionKeys,
  async send(delivery, { db, config }) {
    const subscription = delivery.claimedWith as PushSubscriptionKeys | null | undefined;
    if (!subscription) {
      await acknowledgeDeviceGone(db, delivery);
      return { ok: false, permanent: true, error: "The device no longer takes notifications (turned off)" };
    }
    const outcome = await sendPush(subscription, pushMessageOf(delivery), config);
    if (outcome.gone) {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, subscription.endpoint));
      await acknowledgeDeviceGone(db, delivery);
    }
    return outcome;
  },
};
