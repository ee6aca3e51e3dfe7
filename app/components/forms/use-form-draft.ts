import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { discardDraft, type FormDraft, loadDraft, saveDraftAnswers, saveDraftFiles } from "./form-draft";

/** Names the platform adds to a form, which are not the person's answers. */
const NOT_ANSWERS = new Set(["submissionKey", "fillToken", "website", "intent"]);

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const isAnswerControl = (element: Element): element is Control =>
  (element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement) &&
  element.name !== "" &&
  !NOT_ANSWERS.has(element.name) &&
  !(element instanceof HTMLInputElement && ["file", "hidden", "submit", "button", "reset"].includes(element.type));

/** The answers in the form now, by field name (a checkbox group gives every chosen value). */
function answersIn(form: HTMLFormElement): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const element of Array.from(form.elements).filter(isAnswerControl)) {
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      values[element.name] ??= [];
      if (element.checked) values[element.name]?.push(element.value);
    } else {
      values[element.name] = [element.value];
    }
  }
  return values;
}

/** Whether the person changed the control from what the page came with, whether or not a script saw it happen. */
function changedFromPage(element: Control): boolean {
  if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
    return element.checked !== element.defaultChecked;
  }
  if (element instanceof HTMLSelectElement) {
    const options = Array.from(element.options);
    if (element.multiple) return options.some((option) => option.selected !== option.defaultSelected);
    const onReset = options.findLast((option) => option.defaultSelected) ?? options.find((option) => !option.disabled);
    return element.value !== (onReset?.value ?? "");
  }
  return element.value !== element.defaultValue;
}

/** Puts a control back to what the page came with, without an event. */
function backToPage(element: Control) {
  if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
    element.checked = element.defaultChecked;
  } else if (element instanceof HTMLSelectElement) {
    for (const option of Array.from(element.options)) option.selected = option.defaultSelected;
  } else {
    element.value = element.defaultValue;
  }
}

/**
 * What the person typed or picked before the page's script ran (a slow phone still loading it, a quick hand)
 * is in the fields, but React's state never saw it, and the first render after hydrating puts a controlled
 * field back. Each such field is set back to the page's value and given again as if typed or clicked now, so
 * that the form's handlers have it; the names of those fields.
 */
function replayEditsBeforeScripts(form: HTMLFormElement): Set<string> {
  const changed = Array.from(form.elements).filter(isAnswerControl).filter(changedFromPage);
  const names = new Set(changed.map((element) => element.name));
  if (names.size === 0) return names;
  const answers = Object.fromEntries(Object.entries(answersIn(form)).filter(([name]) => names.has(name)));
  for (const element of Array.from(form.elements).filter(isAnswerControl)) {
    if (names.has(element.name)) backToPage(element);
  }
  restoreAnswers(form, answers, new Set());
  return names;
}

/**
 * Puts a draft's answers back into the form as if typed or clicked, so React's handlers and the form's own
 * checks see them: a value through the element's native setter and an input event (React ignores a plain
 * assignment), a checkbox or radio by a click when it differs. A field the draft does not know keeps its value,
 * and so does one the person `edited` while the draft was being read: what they typed last wins.
 */
function restoreAnswers(form: HTMLFormElement, values: Record<string, string[]>, edited: ReadonlySet<string>) {
  for (const element of Array.from(form.elements).filter(isAnswerControl)) {
    const saved = values[element.name];
    if (!saved || edited.has(element.name)) continue;
    if (element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")) {
      if (element.checked !== saved.includes(element.value)) element.click();
      continue;
    }
    const value = saved[0] ?? "";
    if (element.value === value) continue;
    const prototype = Object.getPrototypeOf(element) as object;
    Object.getOwnPropertyDescriptor(prototype, "value")?.set?.call(element, value);
    element.dispatchEvent(new Event(element instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }));
  }
}

export type FormDraftState = {
  /** The double-submit key of what is being filled in: kept with the draft, so a resend is stored once. */
  submissionKey: string | undefined;
  /** When the answers were last saved on the device. */
  savedAt: string | undefined;
  /** The files kept with the draft, once one is read back when the form opens. */
  restoredFiles: File[] | undefined;
  saveFiles: (files: readonly File[]) => Promise<void>;
  /** Throws the draft away and empties the form. */
  discard: () => Promise<void>;
  /** Keeps the draft to be sent by itself once the person is back from signing in on this page. */
  sendAfterSignIn: () => Promise<void>;
};

/**
 * Keeps what is typed into a staff form on the device (IndexedDB) while it is filled in: every input is saved,
 * a reload, a crashed tab or a sign-in brings it back, and it is removed only once the server has acknowledged
 * the form (`answer` a success). A form sent while signed out is sent by itself, once, when the person is back
 * from signing in. `draftKey` names the form and the user; no IndexedDB (some private windows) means no draft,
 * and the form still works. `earlierDraft` finds a draft an earlier version kept elsewhere, when there is none.
 */
export function useFormDraft(
  formRef: RefObject<HTMLFormElement | null>,
  draftKey: string,
  answer: { status: string } | undefined,
  earlierDraft?: () => Promise<FormDraft | undefined>,
): FormDraftState {
  const [submissionKey, setSubmissionKey] = useState<string>();
  const [savedAt, setSavedAt] = useState<string>();
  const [restoredFiles, setRestoredFiles] = useState<File[]>();
  const ready = useRef(false);
  // Edits made before the draft was read back (a slow device, a quick hand): the fields keep what was typed,
  // and the form, files included, is saved once the draft is read.
  const editedEarly = useRef({ any: false, names: new Set<string>() });
  // Saves go one after another, so an older save never lands after a newer one.
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const keyRef = useRef<string>(undefined);

  const save = useCallback(
    (extra: { sendAfterSignIn?: boolean } = {}) => {
      const form = formRef.current;
      const key = keyRef.current;
      if (!form || !ready.current || !key) return saving.current;
      const draft = { values: answersIn(form), submissionKey: key, savedAt: new Date().toISOString(), ...extra };
      saving.current = saving.current
        .then(() => saveDraftAnswers(draftKey, draft))
        .then(() => setSavedAt(draft.savedAt))
        // The device is out of space or has no IndexedDB: the form can still be sent from the screen.
        .catch(() => undefined);
      return saving.current;
    },
    [formRef, draftKey],
  );

  const startAfresh = useCallback(() => {
    keyRef.current = crypto.randomUUID();
    setSubmissionKey(keyRef.current);
    setSavedAt(undefined);
  }, []);

  // Before any passive effect, and so before the first render after hydrating puts a controlled field back.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    for (const name of replayEditsBeforeScripts(form)) {
      editedEarly.current.any = true;
      editedEarly.current.names.add(name);
    }
  }, [formRef]);

  useEffect(() => {
    let cancelled = false;
    ready.current = false;
    loadDraft(draftKey)
      .then(async (draft) => draft ?? (await earlierDraft?.()))
      .catch(() => undefined)
      .then(async (draft) => {
        if (cancelled) return;
        const form = formRef.current;
        if (draft && form) {
          restoreAnswers(form, draft.values, editedEarly.current.names);
          keyRef.current = draft.submissionKey;
          setSubmissionKey(draft.submissionKey);
          setSavedAt(draft.savedAt);
          setRestoredFiles(draft.files);
        } else {
          startAfresh();
        }
        ready.current = true;
        if (editedEarly.current.any) void save();
        editedEarly.current = { any: false, names: new Set() };
        if (draft?.sendAfterSignIn && form) {
          // Cleared first, so a send that fails again is never repeated by itself.
          await save({ sendAfterSignIn: false });
          // After React has drawn the restored answers and the draft's key into the form.
          requestAnimationFrame(() => form.requestSubmit());
        }
      });
    return () => {
      cancelled = true;
    };
  }, [draftKey, formRef, save, startAfresh, earlierDraft]);

  // A layout effect too: a passive one runs only after the browser has painted, and an edit made in between,
  // on a busy phone, would go unseen and be written over by the draft.
  useLayoutEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onEdit = (event: Event) => {
      if (!ready.current) {
        editedEarly.current.any = true;
        if (event.target instanceof Element && isAnswerControl(event.target)) {
          editedEarly.current.names.add(event.target.name);
        }
      }
      void save();
    };
    form.addEventListener("input", onEdit);
    form.addEventListener("change", onEdit);
    form.addEventListener("submit", onEdit);
    return () => {
      form.removeEventListener("input", onEdit);
      form.removeEventListener("change", onEdit);
      form.removeEventListener("submit", onEdit);
    };
  }, [formRef, save]);

  useEffect(() => {
    if (answer?.status !== "success") return;
    // Stored on the server: only now may the copy on the device go, after any save still under way.
    void saving.current.then(() => discardDraft(draftKey).catch(() => undefined));
    startAfresh();
  }, [answer, draftKey, startAfresh]);

  const saveFiles = useCallback(
    (files: readonly File[]) => {
      if (!ready.current) editedEarly.current.any = true;
      saving.current = saving.current.then(() => saveDraftFiles(draftKey, files)).catch(() => undefined);
      return save().then(() => undefined);
    },
    [draftKey, save],
  );

  const discard = useCallback(async () => {
    await saving.current;
    await discardDraft(draftKey).catch(() => undefined);
    formRef.current?.reset();
    startAfresh();
  }, [draftKey, formRef, startAfresh]);

  const sendAfterSignIn = useCallback(() => save({ sendAfterSignIn: true }).then(() => undefined), [save]);

  return { submissionKey, savedAt, restoredFiles, saveFiles, discard, sendAfterSignIn };
}
