import { REQUIRED_MESSAGE } from "~/forms/text-field";

export const inputClass =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-3 focus:outline-brand-600/40 aria-[invalid=true]:border-2 aria-[invalid=true]:border-red-700 aria-[invalid=true]:bg-red-50";

/**
 * A field's error under it. A missing answer shows `requiredText` when given; without it only the form's
 * own banner speaks of missing fields.
 */
export function FieldError({ id, errors, requiredText }: { id: string; errors?: string[]; requiredText?: string }) {
  const message = errors?.find((error) => error !== REQUIRED_MESSAGE) ?? (errors?.length ? requiredText : undefined);
  return message ? (
    <p id={id} className="mt-1 text-sm font-medium text-red-800">
      {message}
    </p>
  ) : null;
}
