import { useEffect, useRef, useState } from "react";
import { labellingOf } from "~/components/forms/defined-field";
import { storedOutcome } from "~/components/forms/form-outcome";
import { FormSection, revealControl } from "~/components/forms/form-section";
import { StaffForm } from "~/components/forms/staff-form";
import { TextAreaField } from "~/components/forms/text-area-field";
import { TextField } from "~/components/forms/text-field";
import { useStaffForm } from "~/components/forms/use-staff-form";
import { useHydrated } from "~/components/use-hydrated";
import type { BrowserAnswer } from "~/forms/browser-answer";
import type { FieldDefinition } from "~/forms/definition";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { parseForm } from "~/forms/parse-form";
import { handOverOnFailure, type KeptAnswer } from "~/forms/queue-answer";
import { uploadIdsFieldOf } from "~/forms/resumable-uploads";
import { type ForeignAnswer, sendForm, type UploadProgress } from "~/forms/send-form";
import { type ChecklistActionResult, checklistForm } from "./definition";
import { mergePhotos } from "./photo-list";
import { megabytes, PhotoPicker } from "./photo-picker";
import { CHECKLIST_SECTIONS, checklistFields, checklistSchema, PHOTOS_FIELD } from "./schema";
import { usePhotoUploads } from "./use-photo-uploads";

const { messages } = checklistForm;
/** The server's length caps, as the fields' maxlength. */
const LENGTH_LIMITS = lengthConstraintsOf(checklistSchema);
/** Where "Jump to Photos (section 7)" goes. */
const PHOTOS_SECTION_ID = "checklist-photos";

type ChecklistAnswer = ChecklistActionResult | BrowserAnswer | ForeignAnswer | KeptAnswer;

type ChecklistFormProps = {
  /** Your Name and Your Email as the signed-in user fills them. */
  defaults: Record<string, string>;
  /** Where JavaScript posts it, answered in JSON; without JavaScript the form posts to its page. */
  submitUrl: string;
  /** The page action's answer, after a post without JavaScript. */
  serverResult: ChecklistActionResult | undefined;
};

/**
 * The estimate checklist. While it is filled in, the answers and photos are kept on the device (the staff
 * forms' draft), so a reload, a crashed tab or a phone locked for hours loses nothing; the draft is removed
 * only once the server says the checklist is stored. The post goes out with upload progress, under the
 * draft's double-submit key, so sending again after a dropped connection stores it once. Each photo goes up
 * on its own as soon as it is added (usePhotoUploads), so the post names those already up and carries only the
 * rest.
 */
export function ChecklistForm({ defaults, submitUrl, serverResult }: ChecklistFormProps) {
  const hydrated = useHydrated();
  const [answer, setAnswer] = useState<ChecklistAnswer | undefined>(serverResult);
  const [photos, setPhotos] = useState<File[]>([]);
  const [notice, setNotice] = useState<string>();
  // A new checklist (stored, or handed to the queue) starts with no photos.
  const staffForm = useStaffForm(checklistForm, answer, {
    postsTo: submitUrl,
    onAfresh: () => {
      setPhotos([]);
      setNotice(undefined);
      setMissing([]);
    },
  });
  const { draft } = staffForm;
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<UploadProgress>();
  const [missing, setMissing] = useState<string[]>([]);
  const { uploads, settled } = usePhotoUploads(photos);
  const lastSend = useRef<{ submissionKey: string; named: ReadonlyMap<File, string> }>(undefined);

  const { restoredFiles, keepFiles } = draft;
  const photosNow = useRef(photos);
  photosNow.current = photos;
  useEffect(() => {
    if (!restoredFiles) return;
    const restored = restoredFiles[PHOTOS_FIELD] ?? [];
    // Photos picked while the draft was being read are kept beside the draft's, and saved with them.
    const merged = mergePhotos(restored, photosNow.current).photos;
    setPhotos(merged);
    if (merged.length > restored.length) void keepFiles(PHOTOS_FIELD, merged);
  }, [restoredFiles, keepFiles]);

  const problems: Record<string, string> =
    answer?.status === "invalid"
      ? answer.problems
      : Object.fromEntries(missing.map((name) => [name, messages.requiredField]));

  const changePhotos = (next: File[], said: string | undefined) => {
    setPhotos(next);
    setNotice(said);
    // The list stands for the photo input, which is emptied after each pick.
    void keepFiles(PHOTOS_FIELD, next);
  };
  const addPhotos = (added: File[]) => {
    const merged = mergePhotos(photos, added);
    const skipped = merged.skipped.length > 0 ? merged.skipped.join(", ") : undefined;
    changePhotos(merged.photos, skipped ? `Already in the list, so not added again: ${skipped}.` : undefined);
  };
  const removePhoto = (photo: File) =>
    changePhotos(
      photos.filter((candidate) => candidate !== photo),
      `Removed ${photo.name}.`,
    );

  const submit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const body = new FormData(form);
    body.delete(PHOTOS_FIELD);
    const checked = parseForm(body, checklistSchema);
    if (checked.status !== "success") {
      const names = Object.keys(checked.error ?? {});
      setMissing(names);
      setAnswer(undefined);
      // The first field to fill in takes focus, which brings it and its message into view.
      const first = checklistFields.find((field) => names.includes(field.name));
      const control = first ? form.querySelector<HTMLElement>(`[name="${first.name}"]`) : null;
      revealControl(control);
      control?.focus();
      return;
    }
    setMissing([]);
    setBusy(true);
    setProgress(undefined);
    // A photo already up is named by its upload; one that is not (no signal, a refused upload) goes in the post.
    // Sent again (its answer was lost on the way), the checklist names its photos as the last send did: the server
    // knows a checklist it stored by its answers with each photo's upload or bytes, and a photo that went up
    // between the two sends would make it another, stored twice.
    const submissionKey = String(body.get("submissionKey"));
    const sentBefore = lastSend.current?.submissionKey === submissionKey ? lastSend.current.named : undefined;
    const uploadIds = sentBefore ?? (await settled());
    const page = window.location.pathname;
    const queue = {
      formType: checklistForm.type,
      label: checklistForm.label,
      page,
      action: submitUrl,
      answeredInJson: true,
    };
    const postWith = (named: ReadonlyMap<File, string>) => {
      const withPhotos = new FormData();
      for (const [name, value] of body) withPhotos.append(name, value);
      for (const photo of photos) {
        const uploadId = named.get(photo);
        if (uploadId) withPhotos.append(uploadIdsFieldOf(PHOTOS_FIELD), uploadId);
        else withPhotos.append(PHOTOS_FIELD, photo, photo.name);
      }
      return withPhotos;
    };
    const keepOnDevice = handOverOnFailure(queue, messages);
    const send = (named: ReadonlyMap<File, string>) => {
      lastSend.current = { submissionKey, named };
      return sendForm<ChecklistActionResult, KeptAnswer>(
        submitUrl,
        postWith(named),
        messages,
        setProgress,
        (_, failure) =>
          // What waits on the device carries the photos themselves, not their uploads: the signal may return after
          // the server let an upload go (a day on), and the draft that had the photos is gone by then.
          keepOnDevice(postWith(new Map()), failure),
      );
    };
    let sent = await send(uploadIds);
    // The server no longer has an upload (a day old, or kept by another instance): the photos go themselves.
    if (sent.status === "error" && "problems" in sent && sent.problems?.[uploadIdsFieldOf(PHOTOS_FIELD)]) {
      sent = await send(new Map());
    }
    setBusy(false);
    // Stored or handed to the queue, the draft goes with the answer and the screen starts a new checklist.
    setAnswer(sent);
  };

  // A section folded away opens when one of its answers has a problem.
  const problemNames = Object.keys(problems).join(" ");
  const { formRef } = staffForm;
  useEffect(() => {
    for (const name of problemNames.split(" ").filter(Boolean)) {
      revealControl(formRef.current?.querySelector(`[name="${name}"]`) ?? null);
    }
  }, [problemNames, formRef]);

  const errorsOf = (name: string) => (problems[name] ? [problems[name]] : undefined);
  const renderField = (definition: FieldDefinition) => {
    if (definition.name === PHOTOS_FIELD) {
      return (
        <PhotoPicker
          key={definition.name}
          definition={definition}
          photos={photos}
          uploads={uploads}
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
      defaultValue: defaults[definition.name] ?? "",
      errors: errorsOf(definition.name),
      autoComplete: definition.autoComplete ?? "off",
      required: !definition.optional,
      maxLength: LENGTH_LIMITS[definition.name]?.maxLength,
      inputMode: definition.inputMode,
    };
    if (definition.kind === "textarea")
      return <TextAreaField key={definition.name} {...common} rows={definition.rows} />;
    const kind = definition.kind === "email" || definition.kind === "tel" ? definition.kind : "text";
    return <TextField key={definition.name} {...common} kind={kind} />;
  };

  return (
    <StaffForm
      form={staffForm}
      answer={answer}
      missing={missing.length > 0 ? messages.missing : undefined}
      success={storedOutcome}
      submitLabel="Submit Checklist"
      busyLabel="Processing..."
      sendsItself={{ onSubmit: submit, busy }}
      besideSubmit={
        busy && progress ? (
          <span className="flex items-center gap-2 text-slate-800">
            <progress value={progress.sent} max={progress.total} aria-label="Upload progress" />
            {progress.sent < progress.total
              ? `${megabytes(progress.sent)} of ${megabytes(progress.total)} sent`
              : "Sent. Building the PDF..."}
          </span>
        ) : null
      }
      id="checklist"
      noValidate={hydrated}
      className="mt-8 grid gap-6"
      aria-describedby="checklist-draft"
    >
      <a
        href={`#${PHOTOS_SECTION_ID}`}
        onClick={() => revealControl(document.getElementById(PHOTOS_SECTION_ID)?.firstElementChild ?? null)}
        className="button-secondary inline-flex min-h-11 items-center justify-self-start px-4 py-2"
      >
        Jump to Photos (section 7)
      </a>
      {Object.values(CHECKLIST_SECTIONS).map((section) => (
        <FormSection
          key={section}
          title={section}
          collapsible={section !== CHECKLIST_SECTIONS.completedBy}
          id={section === CHECKLIST_SECTIONS.photos ? PHOTOS_SECTION_ID : undefined}
        >
          {checklistFields.filter((field) => field.section === section).map(renderField)}
        </FormSection>
      ))}
    </StaffForm>
  );
}
