import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import {
  allForms,
  type DeviceForm,
  type DeviceFormInfo,
  type DraftFile,
  draftToOpen,
  filesOf,
  forgetForm,
  holdForm,
  isWaiting,
  newForm,
  readDraftFiles,
  readForm,
  saveDraftFiles,
  saveEdits,
  takenBack,
  writeForm,
} from "~/forms/device-forms";
import {
  answersIn,
  isAnswerControl,
  readableAnswersIn,
  replayEditsBeforeScripts,
  restoreAnswers,
} from "./form-controls";

/** The query parameter of a form's page that takes a waiting form back into it, to be changed. */
export const CHANGE_PARAMETER = "change";

const TAKE_BACK = "device-form-take-back";
type TakeBack = { formType: string; submissionKey: string };

/** Takes a waiting form back into its form on this page, without a navigation (which needs signal). */
export function takeBackHere(form: TakeBack) {
  window.dispatchEvent(new CustomEvent<TakeBack>(TAKE_BACK, { detail: form }));
}

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

/** The draft this tab had before a reload, per form and person: a tab never takes another's. */
const rememberedKey = (formType: string, userId: number) => `device-form:${formType}:${userId}`;
function remember(form: DeviceForm) {
  try {
    sessionStorage.setItem(rememberedKey(form.formType, form.userId), form.submissionKey);
  } catch {
    // No session storage (a locked-down browser): a reload opens the newest free draft instead.
  }
}
function remembered(formType: string, userId: number) {
  try {
    return sessionStorage.getItem(rememberedKey(formType, userId)) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The form this tab opens, held for it: one taken back from the queue, its own draft, a free one, or a new one. */
async function openForm(info: DeviceFormInfo, userId: number, change: string | null) {
  if (change) {
    const release = await holdForm(change, { wait: true });
    const waiting = await readForm(change).catch(() => undefined);
    if (release && waiting && isWaiting(waiting) && waiting.userId === userId && waiting.formType === info.formType) {
      const draft = { ...takenBack(waiting), ...info };
      await saveDraftFiles(draft.submissionKey, filesOf(waiting)).catch(() => undefined);
      await writeForm(draft);
      return { form: draft, release, restored: true };
    }
    release?.();
  }
  const drafts = draftToOpen(await allForms(), info, userId, remembered(info.formType, userId));
  for (const candidate of drafts) {
    const release = await holdForm(candidate.submissionKey);
    if (!release) continue;
    const draft = await readForm(candidate.submissionKey).catch(() => undefined);
    if (draft?.state === "editing") return { form: { ...draft, ...info }, release, restored: true };
    release();
  }
  return startForm(info, userId);
}

async function startForm(info: DeviceFormInfo, userId: number) {
  const form = newForm(info, userId);
  return { form, release: (await holdForm(form.submissionKey)) ?? (() => undefined), restored: false };
}

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
  const [submissionKey, setSubmissionKey] = useState<string>();
  const [savedAt, setSavedAt] = useState<string>();
  const [restoredFiles, setRestoredFiles] = useState<Record<string, File[]>>();
  const [searchParams, setSearchParams] = useSearchParams();
  // A new object each time, so that the same form taken back twice opens twice.
  const [change, setChange] = useState<{ key: string | null }>(() => ({ key: searchParams.get(CHANGE_PARAMETER) }));
  const changeInAddress = searchParams.get(CHANGE_PARAMETER);
  useEffect(() => {
    if (changeInAddress) setChange({ key: changeInAddress });
  }, [changeInAddress]);
  const current = useRef<{ form: DeviceForm; release: () => void }>(undefined);
  // Edits made before the draft was read back (a slow device, a quick hand): the fields keep what was typed,
  // and the form, files included, is saved once the draft is read.
  const editedEarly = useRef({ any: false, names: new Set<string>() });
  // Saves go one after another, so an older save never lands after a newer one.
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  // The files of fields that live outside a file input, by field (keepFiles).
  const heldFiles = useRef(new Map<string, File[]>());
  const afresh = useRef(onAfresh);
  afresh.current = onAfresh;
  const { formType, label, page, action, answeredInJson } = info;

  useEffect(() => {
    const onTakeBack = (event: Event) => {
      const { detail } = event as CustomEvent<TakeBack>;
      if (detail.formType === formType) setChange({ key: detail.submissionKey });
    };
    window.addEventListener(TAKE_BACK, onTakeBack);
    return () => window.removeEventListener(TAKE_BACK, onTakeBack);
  }, [formType]);

  const save = useCallback(() => {
    const form = formRef.current;
    const held = current.current;
    if (!form || !held) return saving.current;
    const draft = { ...held.form, values: answersIn(form), readable: readableAnswersIn(form) };
    draft.savedAt = new Date().toISOString();
    held.form = draft;
    saving.current = saving.current
      .then(() => saveEdits(draft))
      .then(() => setSavedAt(draft.savedAt))
      // The device is out of space or has no IndexedDB: the form can still be sent from the screen.
      .catch(() => undefined);
    return saving.current;
  }, [formRef]);

  const show = useCallback((opened: { form: DeviceForm; release: () => void }, files: Record<string, File[]>) => {
    current.current?.release();
    current.current = opened;
    remember(opened.form);
    heldFiles.current = new Map();
    setSubmissionKey(opened.form.submissionKey);
    setRestoredFiles(files);
  }, []);

  /** A new form under a new key, on an empty screen. */
  const startAfresh = useCallback(async () => {
    const held = current.current;
    if (!held) return;
    const opened = await startForm(held.form, held.form.userId);
    formRef.current?.reset();
    show(opened, {});
    setSavedAt(undefined);
    afresh.current?.();
  }, [formRef, show]);

  /** The files of the form's inputs, or of the list standing for one (keepFiles), saved with the draft. */
  const saveFiles = useCallback(() => {
    const form = formRef.current;
    const held = current.current;
    if (!form) return saving.current;
    if (!held) {
      editedEarly.current.any = true;
      return saving.current;
    }
    const files = filesIn(form, heldFiles.current);
    saving.current = saving.current.then(() => saveDraftFiles(held.form.submissionKey, files)).catch(() => undefined);
    return save();
  }, [formRef, save]);

  const keepFiles = useCallback(
    (field: string, files: readonly File[]) => {
      heldFiles.current.set(field, [...files]);
      return saveFiles().then(() => undefined);
    },
    [saveFiles],
  );

  // Before any passive effect, and so before the first render after hydrating puts a controlled field back.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    for (const name of replayEditsBeforeScripts(form)) {
      editedEarly.current.any = true;
      editedEarly.current.names.add(name);
    }
  }, [formRef]);

  const opening = useRef({ saveFiles, show, setSearchParams });
  opening.current = { saveFiles, show, setSearchParams };
  useEffect(() => {
    if (userId === undefined) return;
    let cancelled = false;
    const info = { formType, label, page, action, answeredInJson };
    const { saveFiles, show, setSearchParams } = opening.current;
    void openForm(info, userId, change.key)
      .catch(() => startForm(info, userId))
      .then(async (opened) => {
        if (cancelled) {
          opened.release();
          return;
        }
        const form = formRef.current;
        const files = opened.restored && form ? byField(form, await readDraftFiles(opened.form.submissionKey)) : {};
        // Held first: the restored answers' input events save to this form, not to the one the page had.
        show(opened, files);
        if (opened.restored && form) {
          restoreAnswers(form, opened.form.values, editedEarly.current.names);
          restoreFiles(form, files, editedEarly.current.names);
        }
        setSavedAt(opened.restored ? opened.form.savedAt : undefined);
        if (editedEarly.current.any) void saveFiles();
        editedEarly.current = { any: false, names: new Set() };
        if (change.key && new URLSearchParams(window.location.search).has(CHANGE_PARAMETER)) {
          // Taken back once: a reload opens it as this tab's draft.
          setSearchParams(
            (params) => {
              params.delete(CHANGE_PARAMETER);
              return params;
            },
            { replace: true, preventScrollReset: true },
          );
        }
      });
    return () => {
      cancelled = true;
    };
    // Opened again only for another form, person or form taken back: not when a post or a link moves the page.
  }, [formType, label, page, action, answeredInJson, userId, change, formRef]);

  useEffect(
    () => () => {
      current.current?.release();
      current.current = undefined;
    },
    [],
  );

  // A layout effect too: a passive one runs only after the browser has painted, and an edit made in between,
  // on a busy phone, would go unseen and be written over by the draft.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onEdit = (event: Event) => {
      if (!current.current) {
        editedEarly.current.any = true;
        if (event.target instanceof Element && isAnswerControl(event.target)) {
          editedEarly.current.names.add(event.target.name);
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
  }, [formRef, save, saveFiles]);

  useEffect(() => {
    const held = current.current;
    if (!held || !answer) return;
    if (answer.status === "success") {
      // Stored on the server: only now may the copy on the device go, after any save still under way.
      const key = held.form.submissionKey;
      void saving.current.then(() => forgetForm(key));
      void startAfresh();
    } else if (answer.kept) {
      // Handed to the queue by the sender, which lists it now: this page goes on with a new form.
      void startAfresh();
    }
  }, [answer, startAfresh]);

  const discard = useCallback(async () => {
    const held = current.current;
    if (!held) return;
    await saving.current;
    await forgetForm(held.form.submissionKey);
    await startAfresh();
  }, [startAfresh]);

  return { submissionKey, savedAt, restoredFiles, keepFiles, discard };
}

const isFileInput = (target: EventTarget | null): target is HTMLInputElement =>
  target instanceof HTMLInputElement && target.type === "file" && target.name !== "";

const fileInputsOf = (form: HTMLFormElement) =>
  [...form.querySelectorAll<HTMLInputElement>("input[type=file][name]")].filter(isFileInput);

/** The files to keep: each file input's choice, or the list a form holds for the field instead. */
function filesIn(form: HTMLFormElement, held: ReadonlyMap<string, File[]>): DraftFile[] {
  const fields = new Set([...fileInputsOf(form).map((input) => input.name), ...held.keys()]);
  return [...fields].flatMap((field) => {
    const files =
      held.get(field) ?? fileInputsOf(form).flatMap((input) => (input.name === field ? [...(input.files ?? [])] : []));
    return files.map((file) => ({ field, file }));
  });
}

/** Kept files by field; those kept before drafts named their field belong to the form's first file field. */
function byField(form: HTMLFormElement, files: readonly DraftFile[]): Record<string, File[]> {
  const firstField = fileInputsOf(form)[0]?.name ?? "";
  const fields: Record<string, File[]> = {};
  for (const { field, file } of files) {
    const name = field || firstField;
    fields[name] = [...(fields[name] ?? []), file];
  }
  return fields;
}

/**
 * Puts the kept files back in their inputs, but for an input the person already used while the draft was read,
 * and one whose files the form lists itself (`data-listed-files`: it empties the input after each pick).
 */
function restoreFiles(form: HTMLFormElement, files: Record<string, File[]>, editedEarly: ReadonlySet<string>) {
  for (const input of fileInputsOf(form)) {
    const kept = files[input.name];
    if (!kept?.length || editedEarly.has(input.name) || "listedFiles" in input.dataset) continue;
    const transfer = new DataTransfer();
    for (const file of kept) transfer.items.add(file);
    input.files = transfer.files;
  }
}
