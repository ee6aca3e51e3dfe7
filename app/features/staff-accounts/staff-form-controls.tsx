import { useId } from "react";
import { inputClass } from "~/features/forms/field-error";
import type { StaffFormResult } from "./form-result";

/** A labelled input with its error message tied to it, for the staff forms. */
export function LabelledInput({
  label,
  name,
  errors,
  hint,
  ...input
}: {
  label: string;
  name: string;
  errors?: string[] | null;
  hint?: string;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : undefined, errors?.length ? errorId : undefined].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-900">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...input}
      />
      {errors?.length ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-800">
          {errors.join(". ")}
        </p>
      ) : null}
    </div>
  );
}

/** The outcome of a staff form: green for success, red for an error, announced to screen readers. */
export function StatusBanner({ result }: { result: Pick<StaffFormResult, "status" | "message"> | undefined }) {
  return (
    <div role={result?.status === "error" ? "alert" : "status"}>
      {result ? (
        <p
          className={
            result.status === "success"
              ? "rounded-lg border border-brand-700 bg-brand-50 px-4 py-3 font-medium text-brand-900"
              : "rounded-lg border border-red-700 bg-red-50 px-4 py-3 font-medium text-red-900"
          }
        >
          {result.message}
        </p>
      ) : null}
    </div>
  );
}

export function SubmitButton({ busy, busyLabel, children }: { busy: boolean; busyLabel: string; children: string }) {
  return (
    <button type="submit" disabled={busy} className="button-primary disabled:cursor-wait disabled:bg-slate-500">
      {busy ? busyLabel : children}
    </button>
  );
}
