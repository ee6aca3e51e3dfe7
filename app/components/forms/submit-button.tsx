import type { Ref } from "react";

/** A form's send button; while `busy` it is greyed out, cannot be pressed again, and says what is happening. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
  ref,
}: {
  busy: boolean;
  busyLabel: string;
  children: string;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={ref}
      type="submit"
      disabled={busy}
      className="button-primary disabled:cursor-wait disabled:bg-slate-500"
    >
      {busy ? busyLabel : children}
    </button>
  );
}
