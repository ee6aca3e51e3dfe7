import * as z from "zod/mini";

/** What a device posts to turn notifications on: its browser's subscription, and the forms it wants to hear of. */
export const pushSubscriptionSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: "The browser gave no push address." }).check(z.maxLength(2000)),
  p256dh: z.string().check(z.regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/, "The browser gave no valid encryption key.")),
  auth: z.string().check(z.regex(/^[A-Za-z0-9_-]{16,30}={0,2}$/, "The browser gave no valid auth secret.")),
});

/** Which device a change is for (its push address) and the forms chosen for it. */
export const pushChoicesSchema = z.object({
  endpoint: z.string().check(z.minLength(1, "Which device is this for? Reload the page and try again.")),
});

/** The intents the settings page's push section posts. */
export const PUSH_INTENTS = {
  subscribe: "push-subscribe",
  choose: "push-choose",
  remove: "push-remove",
  test: "push-test",
} as const;

/** The form field that carries each chosen form type (one field per type). */
export const FORM_TYPE_FIELD = "formType";
