import { useEffect, useRef } from "react";
import { useHydrated } from "~/components/use-hydrated";
import type { EstimateRequest } from "./schema";

const MESSAGES: Record<EstimateRequest["projectType"], string> = {
  residential:
    "Thank you, we have received your request. We currently focus only on commercial projects, so we can't take on residential work right now, but we have kept your information on file and will reach out if that changes.",
  commercial: "Thank you, we have received your request and will reach out to you shortly.",
};

/**
 * The confirmation after a request is stored. With JavaScript it is a modal dialog that takes focus, closes
 * on Escape and gives focus back; without, the page comes back with it shown in place. It opens when it
 * mounts: the form mounts a new one for every answer, a repeated (deduplicated) send included.
 */
export function EstimateSuccessDialog({
  reference,
  projectType,
  onClose,
}: {
  reference: string;
  projectType: EstimateRequest["projectType"];
  /** Where focus goes back to: the send button was disabled while sending, so the browser lost track of it. */
  onClose: () => void;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!hydrated || !dialog) return;
    if (dialog.open) dialog.close();
    dialog.showModal();
  }, [hydrated]);

  return (
    <dialog
      ref={dialogRef}
      open={!hydrated}
      onClose={onClose}
      aria-labelledby="estimate-success-title"
      aria-describedby="estimate-success-text"
      className="relative mx-auto my-6 w-full max-w-lg rounded-2xl bg-white p-6 text-slate-800 shadow-2xl ring-1 ring-slate-200 backdrop:bg-slate-950/60 open:block [&:modal]:fixed [&:modal]:m-auto"
    >
      <h3 id="estimate-success-title" className="text-2xl font-bold text-brand-800">
        success!
      </h3>
      <p id="estimate-success-text" className="mt-3">
        {MESSAGES[projectType]}
      </p>
      <p className="mt-3">
        Your reference number is <strong className="font-mono text-lg text-slate-900">{reference}</strong>.
      </p>
      <form method="dialog" className="mt-6 text-right">
        {/* biome-ignore lint/a11y/noAutofocus: a modal dialog puts focus on its action when it opens */}
        <button type="submit" autoFocus className="button-primary">
          Close
        </button>
      </form>
    </dialog>
  );
}
