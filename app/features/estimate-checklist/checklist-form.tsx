import { useCallback, useEffect, useRef, useState } from "react";
import { type Outcome, OutcomeAlert } from "~/components/forms/alert";
import { labellingOf } from "~/components/forms/defined-field";
import { FormSection } from "~/components/forms/form-section";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField } from "~/components/forms/text-field";
import { useHydrated } from "~/components/use-hydrated";
import type { FieldDefinition } from "~/forms/definition";
import { parseForm } from "~/forms/parse-form";
import { discardDraft, loadDraft, saveDraftAnswers, saveDraftPhotos } from "./checklist-draft";
import { type ChecklistActionResult, checklistForm } from "./definition";
import { CHECKLIST_SECTIONS, checklistFields, PHOTOS_FIELD } from "./fields";
import { mergePhotos } from "./photo-list";
import { megabytes, PhotoPicker } from "./photo-picker";
import { checklistSchema } from "./schema";
import { type SendOutcome, sendChecklist, type UploadProgress } from "./send-checklist";

const { messages } = checklistForm;

const SIGNED_OUT_MESSAGE =
  "Error: you were signed out, so nothing was sent. Sign in again in another tab, then submit again: your checklist is kept on this device.";

/** The banner's tone as the original chose it (spec §8): an error when the text says Error or Please fill. */
const toneOf = (message: string): Outcome["status"] =>
  message.includes("Error") || message.includes("Please fill") ? "error" : "success";

function messageOf(outcome: SendOutcome): string {
  switch (outcome.kind) {
    case "answered":
      return outcome.result.status === "success" ? messages.success : outcome.result.message || messages.failed;
    case "unreachable":
      return messages.unreachable;
    case "http":
      if (outcome.signedOut) return SIGNED_OUT_MESSAGE;
      return `Error: ${outcome.status} - ${outcome.statusText}`;
    case "failed":
      return outcome.message ? `Error: ${outcome.message}` : messages.failed;
  }
}

/** The answers in the form now, as text, without the photos and the hidden fields. */
function answersIn(form: HTMLFormElement): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const field of checklistFields) {
    const value = new FormData(form).get(field.name);
    if (typeof value === "string") answers[field.name] = value;
  }
  return answers;
}

type ChecklistFormProps = {
  userId: number;
  /** Your Name and Your Email as the signed-in user fills them. */
  defaults: Record<string, string>;
  /** Where the form posts without JavaScript (the page's action). */
  action: string;
  /** Where JavaScript posts it, answered in JSON. */
  submitUrl: string;
  /** The page action's answer, after a post without JavaScript. */
  serverResult: ChecklistActionResult | undefined;
};

/**
 * The estimate checklist. While it is filled in, the answers and photos are kept on the device (IndexedDB),
 * so a reload, a crashed tab or a phone locked for hours loses nothing; the draft is removed only once the
 * server says the checklist is stored. The post goes out with upload progress, under the draft's
 * double-submit key, so sending again after a dropped connection stores it once.
 */
export function ChecklistForm({ userId, defaults, action, submitUrl, serverResult }: ChecklistFormProps) {
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const [formKey, setFormKey] = useState(0);
  const [initial, setInitial] = useState<Record<string, string>>(defaults);
  const [photos, setPhotos] = useState<File[]>([]);
  const [submissionKey, setSubmissionKey] = useState<string>();
  const [savedAt, setSavedAt] = useState<string>();
  const [draftReady, setDraftReady] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<UploadProgress>();
  const [outcome, setOutcome] = useState<Outcome | undefined>(() =>
    serverResult
      ? {
          status: serverResult.status === "success" ? "success" : "error",
          message: serverResult.status === "success" ? messages.success : serverResult.message,
        }
      : undefined,
  );
  const [problems, setProblems] = useState<Record<string, string>>(
    serverResult?.status === "invalid" ? serverResult.problems : {},
  );

  useEffect(() => {
    let cancelled = false;
    loadDraft(userId)
      .then((draft) => {
        if (cancelled) return;
        if (draft) {
          setInitial({ ...defaults, ...draft.answers });
          setPhotos(draft.photos);
          setSubmissionKey(draft.submissionKey);
          setSavedAt(draft.savedAt);
          setFormKey((key) => key + 1);
        } else {
          setSubmissionKey(crypto.randomUUID());
        }
      })
      // No IndexedDB (a private window in some browsers): the form still works, without a draft.
      .catch(() => setSubmissionKey(crypto.randomUUID()))
      .finally(() => setDraftReady(true));
    return () => {
      cancelled = true;
    };
  }, [userId, defaults]);

  // Saves go one after another, so an older save never lands after a newer one.
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const persist = useCallback(
    (changedPhotos?: File[]) => {
      const form = formRef.current;
      if (!form || !draftReady || !submissionKey) return saving.current;
      const draft = { answers: answersIn(form), submissionKey, savedAt: new Date().toISOString() };
      saving.current = saving.current
        .then(async () => {
          if (changedPhotos) await saveDraftPhotos(userId, changedPhotos);
          await saveDraftAnswers(userId, draft);
          setSavedAt(draft.savedAt);
        })
        // The device is out of space or has no IndexedDB: the checklist can still be sent from the screen.
        .catch(() => undefined);
      return saving.current;
    },
    [draftReady, submissionKey, userId],
  );

  const addPhotos = (added: File[]) => {
    const merged = mergePhotos(photos, added);
    setPhotos(merged.photos);
    setNotice(
      merged.skipped.length > 0 ? `Already in the list, so not added again: ${merged.skipped.join(", ")}.` : undefined,
    );
    void persist(merged.photos);
  };

  const removePhoto = (photo: File) => {
    const remaining = photos.filter((candidate) => candidate !== photo);
    setPhotos(remaining);
    setNotice(`Removed ${photo.name}.`);
    void persist(remaining);
  };

  const startAfresh = (key: string) => {
    setInitial(defaults);
    setPhotos([]);
    setSavedAt(undefined);
    setNotice(undefined);
    setProblems({});
    setSubmissionKey(key);
    setFormKey((current) => current + 1);
  };

  const discard = async () => {
    await saving.current;
    await discardDraft(userId).catch(() => undefined);
    startAfresh(crypto.randomUUID());
    setOutcome(undefined);
  };

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setOutcome(undefined);
    const body = new FormData(form);
    body.delete(PHOTOS_FIELD);
    const checked = parseForm(body, checklistSchema);
    if (checked.status !== "success") {
      const names = Object.keys(checked.error ?? {});
      setProblems(Object.fromEntries(names.map((name) => [name, messages.requiredField])));
      setOutcome({ status: "error", message: messages.missing });
      return;
    }
    setProblems({});
    for (const photo of photos) body.append(PHOTOS_FIELD, photo, photo.name);
    const key = submissionKey ?? crypto.randomUUID();
    body.set("submissionKey", key);
    setBusy(true);
    setProgress(undefined);
    await persist();
    const sent = await sendChecklist(submitUrl, body, setProgress);
    setBusy(false);
    const message = messageOf(sent);
    setOutcome({ status: toneOf(message), message });
    if (sent.kind !== "answered") return;
    if (sent.result.status === "invalid") setProblems(sent.result.problems);
    if (sent.result.status === "success") {
      // Stored on the server: only now may the copy on the device go, after any save still under way.
      await saving.current;
      await discardDraft(userId).catch(() => undefined);
      startAfresh(crypto.randomUUID());
    }
  };

  const errorsOf = (name: string) => (problems[name] ? [problems[name]] : undefined);
  const renderField = (definition: FieldDefinition) => {
    if (definition.name === PHOTOS_FIELD) {
      return (
        <PhotoPicker
          key={definition.name}
          definition={definition}
          photos={photos}
          notice={notice}
          hydrated={hydrated}
          errors={errorsOf(definition.name)}
          onAdd={addPhotos}
          onRemove={removePhoto}
        />
      );
    }
    const common = {
      ...labellingOf(definition),
      name: definition.name,
      defaultValue: initial[definition.name] ?? "",
      errors: errorsOf(definition.name),
      autoComplete: definition.autoComplete ?? "off",
      required: !definition.optional,
    };
    if (definition.kind === "textarea")
      return <TextAreaField key={definition.name} {...common} rows={definition.rows} />;
    const kind = definition.kind === "email" || definition.kind === "tel" ? definition.kind : "text";
    return <TextField key={definition.name} {...common} kind={kind} />;
  };

  return (
    <form
      key={formKey}
      ref={formRef}
      method="post"
      action={action}
      encType="multipart/form-data"
      noValidate={hydrated}
      onSubmit={hydrated ? submit : undefined}
      onInput={hydrated ? () => void persist() : undefined}
      className="mt-8 grid gap-6"
      aria-describedby="checklist-draft-line"
    >
      <div id="checklist-draft-line" aria-live="polite">
        {savedAt ? (
          <p className="flex flex-wrap items-center gap-3 rounded-lg bg-brand-50 px-4 py-3 text-slate-800">
            <span>
              Draft saved on this device at{" "}
              {new Date(savedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}.
            </span>
            <button type="button" onClick={() => void discard()} className="button-secondary px-3 py-1 text-sm">
              Discard draft
            </button>
          </p>
        ) : null}
      </div>
      {Object.values(CHECKLIST_SECTIONS).map((section) => (
        <FormSection key={section} title={section}>
          {checklistFields.filter((field) => field.section === section).map(renderField)}
        </FormSection>
      ))}
      <OutcomeAlert outcome={outcome} />
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton busy={busy} busyLabel="Processing...">
          Submit Checklist
        </SubmitButton>
        {busy && progress ? (
          <span className="flex items-center gap-2 text-slate-800">
            <progress value={progress.sent} max={progress.total} aria-label="Upload progress" />
            {progress.sent < progress.total
              ? `${megabytes(progress.sent)} of ${megabytes(progress.total)} sent`
              : "Sent. Building the PDF..."}
          </span>
        ) : null}
      </div>
    </form>
  );
}
