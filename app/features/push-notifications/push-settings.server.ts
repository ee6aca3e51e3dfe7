import { and, asc, eq, or } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { submissionTypes } from "~/features/submission-types.server";
import { mayRead } from "~/forms/definition";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { type PushAddressSettings, pushAddressProblemNow } from "~/outbox/push-address.server";
import { sendPush } from "~/outbox/push-sender.server";
import type { SignedInStaff } from "~/services/auth/require-staff.server";
import type { Database } from "~/services/db/database.server";
import { pushSubscriptions, type StaffRole, staffUsers } from "~/services/db/schema.server";
import { deviceName } from "./device-name.server";
import { FORM_TYPE_FIELD, PUSH_INTENTS, pushChoicesSchema, pushSubscriptionSchema } from "./push-schema";

/** A form a staff member may choose to hear of: it pushes, and they may read it. */
export type PushFormChoice = { type: string; label: string; onByDefault: boolean };

/** One of the person's devices that takes notifications. */
export type PushDevice = { id: number; name: string; endpoint: string; formTypes: string[]; since: string };

export type PushSettings = { publicKey: string; forms: PushFormChoice[]; devices: PushDevice[] };

export type PushActionResult = StaffFormResult & { intent: string };

/** The forms whose new submissions a person of `role` may have pushed to their devices. */
export function pushFormChoices(role: StaffRole): PushFormChoice[] {
  return submissionTypes.flatMap((definition) => {
    const push = definition.deliveries.find((delivery) => delivery.channel === "push");
    if (!push || !mayRead(definition, role)) return [];
    return [{ type: definition.type, label: definition.label, onByDefault: push.onByDefaultFor === role }];
  });
}

/** The push section's data: the key the browser subscribes with, the forms on offer and the person's devices. */
export async function loadPushSettings(context: AppLoadContext, staff: SignedInStaff): Promise<PushSettings> {
  const rows = await context.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, staff.id))
    .orderBy(asc(pushSubscriptions.createdAt));
  return {
    publicKey: context.config.VAPID_PUBLIC_KEY ?? "",
    forms: pushFormChoices(staff.role),
    devices: rows.map((row) => ({
      id: row.id,
      name: row.deviceName,
      endpoint: row.endpoint,
      formTypes: row.formTypes,
      since: row.createdAt.toISOString().slice(0, 10),
    })),
  };
}

/** The chosen form types the person may have: anything else posted is left out. */
function chosenFormTypes(formData: FormData, role: StaffRole): string[] {
  const offered = new Set(pushFormChoices(role).map(({ type }) => type));
  return [...new Set(formData.getAll(FORM_TYPE_FIELD).filter((type) => typeof type === "string"))].filter((type) =>
    offered.has(type),
  );
}

/**
 * The most devices one person may have notifications on: a phone, a tablet, a laptop and an office computer or
 * two. Each new lead is one push per device, so without a cap one account could make every lead a flood.
 */
export const MOST_DEVICES_PER_PERSON = 5;

/** Why a push address given by the browser is refused, for the person turning notifications on. */
const PUSH_ADDRESS_REFUSALS = {
  "not https": "The browser gave a push address that is not https.",
  "not public":
    "The browser gave a push address that is not a browser push service on the internet, so notifications were not turned on. Try Chrome, Edge, Firefox or Safari on this device.",
  "not found": "The browser's push service could not be found. Check that this device is online, then try again.",
} as const;

const TOO_MANY_DEVICES = `You have notifications on ${MOST_DEVICES_PER_PERSON} devices, the most one person may have. Remove one under Your devices below, then turn notifications on here again.`;

const ANOTHER_PERSONS_DEVICE =
  "Another person's device gets notifications at this push address, so nothing was changed. To move that device to you, turn notifications on from the device itself.";

/**
 * Turns notifications on for a device, or changes its forms. The push address must be a browser push service on
 * the internet (push-address.server.ts). A push address already known (the device signed in as someone else
 * before) becomes this person's only when the same keys come with it: the device itself proves it is asking, so
 * whoever learns another's push address cannot take its notifications, and a phone never tells one person of
 * another's forms.
 */
export async function subscribeDevice(
  db: Database,
  staff: Pick<SignedInStaff, "id" | "role" | "displayName">,
  formData: FormData,
  userAgent: string | null,
  settings: PushAddressSettings,
): Promise<PushActionResult> {
  const intent = PUSH_INTENTS.subscribe;
  const parsed = pushSubscriptionSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    return { intent, status: "error", message: parsed.error.issues[0]?.message ?? "The subscription is not valid." };
  }
  const problem = await pushAddressProblemNow(new URL(parsed.data.endpoint), settings);
  if (problem) return { intent, status: "error", message: PUSH_ADDRESS_REFUSALS[problem] };
  const formTypes = chosenFormTypes(formData, staff.role);
  const values = { ...parsed.data, userId: staff.id, deviceName: deviceName(staff.displayName, userAgent), formTypes };
  const refusal = await db.transaction(async (tx) => {
    // One subscribe of a person at a time, so that two at once cannot both pass the count.
    await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, staff.id)).for("update");
    const [known] = await tx
      .select({ userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, values.endpoint));
    if (known?.userId !== staff.id) {
      const devices = await tx.$count(pushSubscriptions, eq(pushSubscriptions.userId, staff.id));
      if (devices >= MOST_DEVICES_PER_PERSON) return TOO_MANY_DEVICES;
    }
    const stored = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: values,
        // Decided in the statement that writes, so a subscribe at the same moment cannot slip past it.
        setWhere: or(
          eq(pushSubscriptions.userId, staff.id),
          and(eq(pushSubscriptions.p256dh, values.p256dh), eq(pushSubscriptions.auth, values.auth)),
        ),
      })
      .returning({ id: pushSubscriptions.id });
    return stored.length === 0 ? ANOTHER_PERSONS_DEVICE : undefined;
  });
  if (refusal) return { intent, status: "error", message: refusal };
  return {
    intent,
    status: "success",
    message:
      formTypes.length > 0
        ? "Notifications are on for this device."
        : "This device is set up, but no form is chosen: tick the forms to hear of.",
  };
}

async function ownDevice(db: Database, staff: Pick<SignedInStaff, "id">, endpoint: string) {
  const [device] = await db
    .select()
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, staff.id)));
  return device;
}

const UNKNOWN_DEVICE = "That device does not take notifications for you any more. Reload the page.";

/** What the push section's forms post, by intent; the settings page's action hands these over. */
export async function pushSettingsAction(
  context: AppLoadContext,
  staff: Pick<SignedInStaff, "id" | "role" | "displayName">,
  intent: string,
  formData: FormData,
  userAgent: string | null,
): Promise<PushActionResult> {
  if (intent === PUSH_INTENTS.subscribe) return subscribeDevice(context.db, staff, formData, userAgent, context.config);
  const parsed = pushChoicesSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return { intent, status: "error", message: parsed.error.issues[0]?.message ?? UNKNOWN_DEVICE };
  const device = await ownDevice(context.db, staff, parsed.data.endpoint);
  if (!device) return { intent, status: "error", message: UNKNOWN_DEVICE };
  const mine = and(eq(pushSubscriptions.id, device.id), eq(pushSubscriptions.userId, staff.id));
  if (intent === PUSH_INTENTS.choose) {
    await context.db
      .update(pushSubscriptions)
      .set({ formTypes: chosenFormTypes(formData, staff.role) })
      .where(mine);
    return { intent, status: "success", message: `Saved the forms ${device.deviceName} hears of.` };
  }
  if (intent === PUSH_INTENTS.remove) {
    await context.db.delete(pushSubscriptions).where(mine);
    return { intent, status: "success", message: `${device.deviceName} no longer gets notifications.` };
  }
  if (intent !== PUSH_INTENTS.test) return { intent, status: "error", message: "The page sent an unknown request." };
  const outcome = await sendPush(
    device,
    { title: "Test notification", body: "Notifications work on this device.", url: "/admin/account", tag: "test" },
    context.config,
  );
  if (outcome.ok) return { intent, status: "success", message: `A test notification went to ${device.deviceName}.` };
  if (outcome.gone) {
    await context.db.delete(pushSubscriptions).where(mine);
    return { intent, status: "error", message: `The test notification did not go out: ${outcome.error}.` };
  }
  // What the connection met stays in the log: an answer that told one refused connection from another would
  // tell a signed-in person what listens where.
  context.logger.warn({ deviceId: device.id, error: outcome.error }, "test notification not sent");
  return {
    intent,
    status: "error",
    message:
      "The push service did not take the test notification. Check that the device is online, then try again in a few minutes.",
  };
}
