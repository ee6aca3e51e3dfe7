import { and, asc, eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { submissionTypes } from "~/features/submission-types.server";
import { mayRead } from "~/forms/definition";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { sendPush } from "~/outbox/push-sender.server";
import type { SignedInStaff } from "~/server/auth/require-staff.server";
import type { Database } from "~/server/db/database.server";
import { pushSubscriptions, type StaffRole } from "~/server/db/schema.server";
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
 * Turns notifications on for a device, or changes its forms. A push address already known (the device signed in
 * as someone else before) becomes this person's, so a phone never tells one person of another's forms.
 */
export async function subscribeDevice(
  db: Database,
  staff: Pick<SignedInStaff, "id" | "role" | "displayName">,
  formData: FormData,
  userAgent: string | null,
  siteUrl: string,
): Promise<PushActionResult> {
  const intent = PUSH_INTENTS.subscribe;
  const parsed = pushSubscriptionSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    return { intent, status: "error", message: parsed.error.issues[0]?.message ?? "The subscription is not valid." };
  }
  // Browsers' push services are https. A plain http address is taken only where the site itself is plain http
  // (this machine, the tests' push service), so a signed-in person cannot make the server post inside its network.
  if (new URL(parsed.data.endpoint).protocol === "http:" && new URL(siteUrl).protocol !== "http:") {
    return { intent, status: "error", message: "The browser gave a push address that is not https." };
  }
  const formTypes = chosenFormTypes(formData, staff.role);
  const values = { ...parsed.data, userId: staff.id, deviceName: deviceName(staff.displayName, userAgent), formTypes };
  await db
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values });
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
  staff: SignedInStaff,
  intent: string,
  formData: FormData,
  userAgent: string | null,
): Promise<PushActionResult> {
  if (intent === PUSH_INTENTS.subscribe)
    return subscribeDevice(context.db, staff, formData, userAgent, context.config.SITE_URL);
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
  if (outcome.gone) await context.db.delete(pushSubscriptions).where(mine);
  return { intent, status: "error", message: `The test notification did not go out: ${outcome.error}.` };
}
