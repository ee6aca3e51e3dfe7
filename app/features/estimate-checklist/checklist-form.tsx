import { type RefObject, useEffect, useRef, useState } from "react";
import { storedOutcome } from "~/components/forms/form-outcome";
import { FormSection, revealControl } from "~/components/forms/form-section";
import { StaffForm } from "~/components/forms/staff-form";
import { useStaffForm } from "~/components/forms/use-staff-form";
import { useHydrated } from "~/components/use-hydrated";
import { parseForm } from "~/forms/parse-form";
import type { UploadProgress } from "~/forms/send-form";
import { ChecklistField } from "./checklist-field";
import { type ChecklistActionResult, checklistForm } from "./definition";
import { megabytes } from "./megabytes";
import { PhotoPicker } from "./photo-picker";
import { CHECKLIST_SECTIONS, checklistFields, checklistSchema, PHOTOS_FIELD } from "./schema";
import { type ChecklistAnswer, sendChecklist } from "./send-checklist";
import { useChecklistPhotos } from "./use-checklist-photos";
import { type PhotoUpload, usePhotoUploads } from "./use-photo-uploads";

const { messages } = checklistForm;
/** Where "Jump to Photos (section 7)" goes. */
const PHOTOS_SECTION_ID = "checklist-photos";

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
  const staffForm = useStaffForm(checklistForm, answer, {
    postsTo: submitUrl,
    onAfresh: () => {
      photoList.clear();
      setMissing([]);
    },
  });
  const photoList = useChecklistPhotos(staffForm.draft);
  const { photos } = photoList;
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<UploadProgress>();
  const [missing, setMissing] = useState<string[]>([]);
  const { uploads, settled } = usePhotoUploads(photos);
  const lastSend = useRef<{ submissionKey: string; named: ReadonlyMap<File, string> }>(undefined);

  const problems = problemsOf(answer, missing);
  useProblemsRevealed(problems, staffForm.formRef);

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
      focusFirstToFill(form, names);
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
    const onSend = (named: ReadonlyMap<File, string>) => {
      lastSend.current = { submissionKey, named };
    };
    const sent = await sendChecklist({ body, photos, submitUrl, uploadIds, onProgress: setProgress, onSend });
    setBusy(false);
    // Stored or handed to the queue, the draft goes with the answer and the screen starts a new checklist.
    setAnswer(sent);
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
      besideSubmit={busy && progress ? <SendProgress progress={progress} /> : null}
      id="checklist"
      noValidate={hydrated}
      className="mt-8 grid gap-6"
      aria-describedby="checklist-draft"
    >
      <JumpToPhotos />
      <ChecklistSections
        defaults={defaults}
        problems={problems}
        hydrated={hydrated}
        photoList={photoList}
        uploads={uploads}
      />
    </StaffForm>
  );
}

type ChecklistSectionsProps = {
  defaults: Record<string, string>;
  /** Each answer's problem, by name. */
  problems: Record<string, string>;
  hydrated: boolean;
  photoList: ReturnType<typeof useChecklistPhotos>;
  uploads: ReadonlyMap<File, PhotoUpload>;
};

/** The checklist's sections, each with its fields, folded but for the last; Photos has the photo picker. */
function ChecklistSections({ defaults, problems, hydrated, photoList, uploads }: ChecklistSectionsProps) {
  const errorsOf = (name: string) => (problems[name] ? [problems[name]] : undefined);
  return (
    <>
      {Object.values(CHECKLIST_SECTIONS).map((section) => (
        <FormSection
          key={section}
          title={section}
          collapsible={section !== CHECKLIST_SECTIONS.completedBy}
          id={section === CHECKLIST_SECTIONS.photos ? PHOTOS_SECTION_ID : undefined}
        >
          {checklistFields
            .filter((field) => field.section === section)
            .map((definition) =>
              definition.name === PHOTOS_FIELD ? (
                <PhotoPicker
                  key={definition.name}
                  definition={definition}
                  photos={photoList.photos}
                  uploads={uploads}
                  notice={photoList.notice}
                  hydrated={hydrated}
                  errors={errorsOf(definition.name)}
                  onAdd={photoList.add}
                  onRemove={photoList.remove}
                />
              ) : (
                <ChecklistField
                  key={definition.name}
                  definition={definition}
                  defaultValue={defaults[definition.name] ?? ""}
                  errors={errorsOf(definition.name)}
                />
              ),
            )}
        </FormSection>
      ))}
    </>
  );
}

/** Each answer's problem: the server's, or the browser's for the required answers left empty. */
function problemsOf(answer: ChecklistAnswer | undefined, missing: readonly string[]): Record<string, string> {
  return answer?.status === "invalid"
    ? answer.problems
    : Object.fromEntries(missing.map((name) => [name, messages.requiredField]));
}

/** The first field to fill in takes focus, which brings it and its message into view. */
function focusFirstToFill(form: HTMLFormElement, names: readonly string[]) {
  const first = checklistFields.find((field) => names.includes(field.name));
  const control = first ? form.querySelector<HTMLElement>(`[name="${first.name}"]`) : null;
  revealControl(control);
  control?.focus();
}

/** A section folded away opens when one of its answers has a problem. */
function useProblemsRevealed(problems: Record<string, string>, formRef: RefObject<HTMLFormElement | null>) {
  const problemNames = Object.keys(problems).join(" ");
  useEffect(() => {
    for (const name of problemNames.split(" ").filter(Boolean)) {
      revealControl(formRef.current?.querySelector(`[name="${name}"]`) ?? null);
    }
  }, [problemNames, formRef]);
}

/** The post's progress beside the send button, while it goes up. */
function SendProgress({ progress }: { progress: UploadProgress }) {
  return (
    <span className="flex items-center gap-2 text-slate-800">
      <progress value={progress.sent} max={progress.total} aria-label="Upload progress" />
      {progress.sent < progress.total
        ? `${megabytes(progress.sent)} of ${megabytes(progress.total)} sent`
        : "Sent. Building the PDF..."}
    </span>
  );
}

function JumpToPhotos() {
  return (
    <a
      href={`#${PHOTOS_SECTION_ID}`}
      onClick={() => revealControl(document.getElementById(PHOTOS_SECTION_ID)?.firstElementChild ?? null)}
      className="button-secondary inline-flex min-h-11 items-center justify-self-start px-4 py-2"
    >
      Jump to Photos (section 7)
    </a>
  );
}
