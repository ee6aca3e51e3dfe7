import { REQUIRED_MESSAGE } from "~/forms/required-message";

/*
 * The field kit's looks and error wording, without React: the kit's components use them, and so does the script
 * of the public pages, which render without React in the browser and show a form's errors themselves.
 */

/* min-h-11: 44 px, a finger's target on a phone (Apple's and Material's guidance; WCAG 2.2's 24 px is the floor). */
const controlLook =
  "block min-h-11 w-full rounded-lg border border-slate-400 bg-white px-3 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-3 focus:outline-brand-600/40 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:bg-red-50";

/** The look of every text box, drop-down and file picker. */
export const inputClass = `mt-1 py-2 ${controlLook}`;

/** The look of a file picker: a text box's frame around the browser's own button. */
export const fileInputClass = `${inputClass} file:mr-4 file:rounded-full file:border-0 file:bg-brand-700 file:px-4 file:py-1.5 file:font-semibold file:text-white`;

/** The bigger control of a form that asks one question per screen. */
export const largeInputClass = `mt-3 py-3 text-lg ${controlLook}`;

/** A checkbox's or radio's row: the whole label is the target, 44 px tall at least. */
export const choiceRowClass = "flex min-h-11 cursor-pointer items-center gap-3";

/** A link standing on its own (not inside a sentence): a 44 px tall target, however short its text. */
export const touchLinkClass = "inline-flex min-h-11 items-center font-medium text-brand-800 underline";

/** A field's error under it, in the normal and the large size. */
export const fieldErrorClass = {
  normal: "mt-1 text-sm font-medium text-red-800",
  large: "mt-2 font-medium text-red-800",
} as const;

/** A banner: red for an error, green for a success. */
export const alertToneClass = {
  error: "rounded-lg border border-red-700 bg-red-50 px-4 py-3 font-medium text-red-900",
  success: "rounded-lg border border-brand-700 bg-brand-50 px-4 py-3 font-medium text-brand-900",
} as const;

/**
 * What a field's errors say under it. A missing answer says `requiredText` when given; without it only the
 * form's own banner speaks of missing answers.
 */
export function errorMessageOf(errors: readonly string[], requiredText?: string): string | undefined {
  const messages = [...new Set(errors.filter((error) => error !== REQUIRED_MESSAGE))];
  if (messages.length > 0) return messages.join(". ");
  return errors.length > 0 ? requiredText : undefined;
}

/** The share of a length cap left at which the count is also read out to screen readers. */
const ANNOUNCE_BELOW = 0.1;

/**
 * A long answer's count against its cap: what is shown under the field, and what a screen reader hears
 * (politely, and only once little is left, not on every key press).
 */
export function lengthCount(used: number, maxLength: number) {
  const left = Math.max(0, maxLength - used);
  return {
    shown: `${used} / ${maxLength}`,
    spoken: left <= maxLength * ANNOUNCE_BELOW ? `${left} characters left` : "",
  };
}
