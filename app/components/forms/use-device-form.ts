import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { type DeviceFormInfo, forgetForm, readDraftFiles, saveDraftFiles, saveEdits } from "~/forms/device-forms";
import { byField, filesIn, isFileInput, restoreFiles } from "./draft-files";
import {
  answersIn,
  isAnswerControl,
  readableAnswersIn,
  replayEditsBeforeScripts,
  restoreAnswers,
} from "./form-controls";
import { type OpenedForm, openForm, remember, startForm } from "./open-device-form";
import { forgetTakenBack, useFormToTakeBack } from "./take-back";

export type DeviceFormDraft = {
  /** The double-submit key of what is being filled in: this set of answers', and no one else's. */
  submissionKey: string | undefined;
  /** When the answers were last saved on the device. */
  savedAt: string | undefined;
  /**
   * The files kept with the draft, by field, once one is read back when the form opens (none for a new form). A
   * plain file input gets its own back by itself; a form that lists its files outside its inputs reads them here.
   */
  restoredFiles: Record<string, File[]> | undefined;
  /**
   * Keeps the files of a field that lives outside a file input (a photo list): they stand for the field's input
   * in the draft. A file input's own choice is kept without this.
   */
  keepFiles: (field: string, files: readonly File[]) => Promise<void>;
  /** Throws the draft away and starts a new form. */
  discard: () => Promise<void>;
};

/** What the hook keeps of the form this tab holds, from one render to the next. */
type Holding = {
  /** The form on the page, held by this tab: none until it is opened. */
  opened: OpenedForm | undefined;
  /**
   * Edits made before the draft was read back (a slow device, a quick hand): the fields keep what was typed, and
   * the form, files included, is saved once the draft is read.
   */
  editedEarly: { any: boolean; names: Set<string> };
  /** Saves go one after another, so an older save never lands after a newer one. */
  saving: Promise<unknown>;
  /** The files of fields that live outside a file input, by field (keepFiles). */
  heldFiles: Map<string, File[]>;
};

const nothingEditedEarly = () => ({ any: false, names: new Set<string>() });

type SavedAt = (savedAt: string | undefined) => void;

/**
 * A staff form's life on this device (app/forms/device-forms.ts), for its page: what is typed is saved at every
 * input, a reload or a crashed tab brings it back, a second tab gets a form of its own, and the answer decides
 * what happens next: stored, the draft goes and a new form starts; handed to the queue (no signal, a session
 * that ended), the form is the queue's and a new form starts; anything else keeps the draft as it is. The page's
 * `?change=<key>` takes a waiting form back into it. `onAfresh` clears what the form keeps outside its controls.
 * Without a user (signed out) or IndexedDB the form still works, with nothing kept.
 */
export function useDeviceForm(
  formRef: RefObject<HTMLFormElement | null>,
  info: DeviceFormInfo,
  userId: number | undefined,
  answer: { status: string; kept?: boolean } | undefined,
  onAfresh?: () => void,
): DeviceFormDraft {
  const { change, setSearchParams } = useFormToTakeBack(info.formType);
  const [submissionKey, setSubmissionKey] = useState<string>();
  const [savedAt, setSavedAt] = useState<string>();
  const [restoredFiles, setRestoredFiles] = useState<Record<string, File[]>>();
  const holding = useRef<Holding>({
    opened: undefined,
    editedEarly: nothingEditedEarly(),
    saving: Promise.resolve(),
    heldFiles: new Map(),
  }).current;
  const afresh = useRef(onAfresh);
  afresh.current = onAfresh;

  const save = useCallback(() => saveAnswers(holding, formRef.current, setSavedAt), [formRef, holding]);
  const saveFiles = useCallback(() => saveFilesAndAnswers(holding, formRef.current, setSavedAt), [formRef, holding]);

  const show = useCallback(
    (opened: OpenedForm, files: Record<string, File[]>) => {
      holding.opened?.release();
      holding.opened = opened;
      remember(opened.form);
      holding.heldFiles = new Map();
      setSubmissionKey(opened.form.submissionKey);
      setRestoredFiles(files);
    },
    [holding],
  );

  /** A new form under a new key, on an empty screen. */
  const startAfresh = useCallback(async () => {
    const held = holding.opened;
    if (!held) return;
    const opened = await startForm(held.form, held.form.userId);
    formRef.current?.reset();
    show(opened, {});
    setSavedAt(undefined);
    afresh.current?.();
  }, [formRef, holding, show]);

  const keepFiles = useCallback(
    (field: string, files: readonly File[]) => {
      holding.heldFiles.set(field, [...files]);
      return saveFiles().then(() => undefined);
    },
    [holding, saveFiles],
  );

  useEditsSaved(formRef, holding, save, saveFiles);
  useOpening({ formRef, info, userId, change, holding, show, saveFiles, setSavedAt, setSearchParams });
  useEffect(
    () => () => {
      holding.opened?.release();
      holding.opened = undefined;
    },
    [holding],
  );
  useAnswered(answer, holding, startAfresh);

  const discard = useCallback(async () => {
    const held = holding.opened;
    if (!held) return;
    await holding.saving;
    await forgetForm(held.form.submissionKey);
    await startAfresh();
  }, [holding, startAfresh]);

  return { submissionKey, savedAt, restoredFiles, keepFiles, discard };
}

/** Saves the answers on the screen in the held form's draft, after the saves before it. */
function saveAnswers(holding: Holding, form: HTMLFormElement | null, setSavedAt: SavedAt) {
  const held = holding.opened;
  if (!form || !held) return holding.saving;
  const draft = { ...held.form, values: answersIn(form), readable: readableAnswersIn(form) };
  draft.savedAt = new Date().toISOString();
  held.form = draft;
  holding.saving = holding.saving
    .then(() => saveEdits(draft))
    .then(() => setSavedAt(draft.savedAt))
    // The device is out of space or has no IndexedDB: the form can still be sent from the screen.
    .catch(() => undefined);
  return holding.saving;
}

/** The files of the form's inputs, or of the list standing for one (keepFiles), saved with the draft. */
function saveFilesAndAnswers(holding: Holding, form: HTMLFormElement | null, setSavedAt: SavedAt) {
  const held = holding.opened;
  if (!form) return holding.saving;
  if (!held) {
    holding.editedEarly.any = true;
    return holding.saving;
  }
  const files = filesIn(form, holding.heldFiles);
  holding.saving = holding.saving.then(() => saveDraftFiles(held.form.submissionKey, files)).catch(() => undefined);
  return saveAnswers(holding, form, setSavedAt);
}

/** Every edit is saved as it is made; one made before the form is open is noted, and saved once it is. */
function useEditsSaved(
  formRef: RefObject<HTMLFormElement | null>,
  holding: Holding,
  save: () => Promise<unknown>,
  saveFiles: () => Promise<unknown>,
) {
  // Before any passive effect, and so before the first render after hydrating puts a controlled field back.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    for (const name of replayEditsBeforeScripts(form)) {
      holding.editedEarly.any = true;
      holding.editedEarly.names.add(name);
    }
  }, [formRef, holding]);

  // A layout effect too: a passive one runs only after the browser has painted, and an edit made in between,
  // on a busy phone, would go unseen and be written over by the draft.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onEdit = (event: Event) => {
      if (!holding.opened) {
        holding.editedEarly.any = true;
        if (event.target instanceof Element && isAnswerControl(event.target)) {
          holding.editedEarly.names.add(event.target.name);
        }
      }
      void save();
      // After the form's own handlers (which may empty the input, its files now in a list): then it is read.
      if (event.type === "change" && isFileInput(event.target)) queueMicrotask(() => void saveFiles());
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("submit", onEdit);
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      form.removeEventListener("submit", onEdit);
    };
  }, [formRef, holding, save, saveFiles]);
}

type Opening = {
  formRef: RefObject<HTMLFormElement | null>;
  info: DeviceFormInfo;
  userId: number | undefined;
  change: { key: string | null };
  holding: Holding;
  show: (opened: OpenedForm, files: Record<string, File[]>) => void;
  saveFiles: () => Promise<unknown>;
  setSavedAt: SavedAt;
  setSearchParams: ReturnType<typeof useFormToTakeBack>["setSearchParams"];
};

/**
 * Opens the page's form for the person and puts it on the screen: its answers and files back in their fields,
 * but for those edited while it was read. Opened again only for another form, person or form taken back: not
 * when a post or a link moves the page.
 */
function useOpening(opening: Opening) {
  const latest = useRef(opening);
  latest.current = opening;
  const { formRef, userId, change } = opening;
  const { formType, label, page, action, answeredInJson } = opening.info;
  useEffect(() => {
    if (userId === undefined) return;
    let cancelled = false;
    const info = { formType, label, page, action, answeredInJson };
    const { holding, show, saveFiles, setSavedAt, setSearchParams } = latest.current;
    void openForm(info, userId, change.key)
      .catch(() => startForm(info, userId))
      .then(async (opened) => {
        if (cancelled) {
          opened.release();
          return;
        }
        await putOnScreen(formRef.current, opened, holding, show);
        setSavedAt(opened.restored ? opened.form.savedAt : undefined);
        if (holding.editedEarly.any) void saveFiles();
        holding.editedEarly = nothingEditedEarly();
        if (change.key) forgetTakenBack(setSearchParams);
      });
    return () => {
      cancelled = true;
    };
  }, [formType, label, page, action, answeredInJson, userId, change, formRef]);
}

/** The opened form held and shown, and a restored one's answers and files back in their fields. */
async function putOnScreen(form: HTMLFormElement | null, opened: OpenedForm, holding: Holding, show: Opening["show"]) {
  const files = opened.restored && form ? byField(form, await readDraftFiles(opened.form.submissionKey)) : {};
  // Held first: the restored answers' input events save to this form, not to the one the page had.
  show(opened, files);
  if (opened.restored && form) {
    restoreAnswers(form, opened.form.values, holding.editedEarly.names);
    restoreFiles(form, files, holding.editedEarly.names);
  }
}

/**
 * The server's answer to a send decides what comes next: stored or handed to the queue, a new form starts. Each
 * send's answer is an object of its own (queue-answer.ts), so two forms kept in a row each start a new one.
 */
function useAnswered(
  answer: { status: string; kept?: boolean } | undefined,
  holding: Holding,
  startAfresh: () => Promise<void>,
) {
  useEffect(() => {
    const held = holding.opened;
    if (!held || !answer) return;
    if (answer.status === "success") {
      // Stored on the server: only now may the copy on the device go, after any save still under way.
      const key = held.form.submissionKey;
      void holding.saving.then(() => forgetForm(key));
      void startAfresh();
    } else if (answer.kept) {
      // Handed to the queue by the sender, which lists it now: this page goes on with a new form.
      void startAfresh();
    }
  }, [answer, holding, startAfresh]);
}
