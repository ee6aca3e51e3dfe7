import type { DeviceFormDraft } from "./use-device-form";

/**
 * The line that says the answers are kept on this device, with Discard draft, and the draft's double-submit
 * key as the form's hidden `submissionKey`.
 */
export function DraftStatus({ draft, id }: { draft: DeviceFormDraft; id: string }) {
  return (
    <div id={id} aria-live="polite">
      {draft.submissionKey ? <input type="hidden" name="submissionKey" value={draft.submissionKey} /> : null}
      {draft.savedAt ? (
        <p className="flex flex-wrap items-center gap-3 rounded-lg bg-brand-50 px-4 py-3 text-slate-800">
          <span>
            Draft saved on this device at{" "}
            {new Date(draft.savedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}.
          </span>
          <button type="button" onClick={() => void draft.discard()} className="button-secondary min-h-11 px-3 py-1">
            Discard draft
          </button>
        </p>
      ) : null}
    </div>
  );
}
