import { REQUIRED_MESSAGE } from "~/forms/text-field";

const controlLook =
  "block w-full rounded-lg border border-slate-400 bg-white px-3 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-3 focus:outline-brand-600/40 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:bg-red-50";

/** The look of every text box, drop-down and file picker. */
export const inputClass = `mt-1 py-2 ${controlLook}`;

/** The bigger control of a form that asks one question per screen. */
export const largeInputClass = `mt-3 py-3 text-lg ${controlLook}`;

/**
 * What a field's errors say under it. A missing answer says `requiredText` when given; without it only the
 * form's own banner speaks of missing answers.
 */
export function errorMessageOf(errors: readonly string[], requiredText?: string): string | undefined {
  const messages = [...new Set(errors.filter((error) => error !== REQUIRED_MESSAGE))];
  if (messages.length > 0) return messages.join(". ");
  return errors.length > 0 ? requiredText : undefined;
}

/** A field's error under it; `announce` reads it out as it appears (role=alert). */
export function FieldError({
  id,
  message,
  announce,
  large,
}: {
  id: string;
  message: string | undefined;
  announce?: boolean;
  large?: boolean;
}) {
  return message ? (
    <p
      id={id}
      role={announce ? "alert" : undefined}
      className={large ? "mt-2 font-medium text-red-800" : "mt-1 text-sm font-medium text-red-800"}
    >
      {message}
    </p>
  ) : null;
}
