import { createStore, delMany, getMany, keys, set, type UseStore } from "idb-keyval";

/** A form being filled in, as kept on the device: its answers by field name, and its double-submit key. */
export type DraftAnswers = {
  values: Record<string, string[]>;
  submissionKey: string;
  savedAt: string;
  /** The person left to sign in again and asked for the form to be sent when they are back. */
  sendAfterSignIn?: boolean;
};

/** A draft with the files chosen for it (the checklist's photos). */
export type FormDraft = DraftAnswers & { files: File[] };

let store: UseStore | undefined;
// Opened on first use, in the browser only.
const draftStore = () => {
  store ??= createStore("form-drafts", "drafts");
  return store;
};

/**
 * A draft's key names the form and the signed-in user, so two people sharing a tablet never see each other's.
 * The answers and the files are kept apart: the answers are saved at every keystroke, the files (megabytes
 * each, copied into IndexedDB) only when their list changes.
 */
const answersKey = (draftKey: string) => `answers:${draftKey}`;
const filesKey = (draftKey: string) => `files:${draftKey}`;

export async function loadDraft(draftKey: string): Promise<FormDraft | undefined> {
  const [answers, files] = await getMany<DraftAnswers | File[] | undefined>(
    [answersKey(draftKey), filesKey(draftKey)],
    draftStore(),
  );
  if (!answers || Array.isArray(answers)) return undefined;
  return { ...answers, files: Array.isArray(files) ? files : [] };
}

export function saveDraftAnswers(draftKey: string, answers: DraftAnswers): Promise<void> {
  return set(answersKey(draftKey), answers, draftStore());
}

export function saveDraftFiles(draftKey: string, files: readonly File[]): Promise<void> {
  return set(filesKey(draftKey), [...files], draftStore());
}

export function discardDraft(draftKey: string): Promise<void> {
  return delMany([answersKey(draftKey), filesKey(draftKey)], draftStore());
}

/** Removes every draft of one staff user, whose draft keys end with their id (useStaffFormDraft). */
export async function discardDraftsOf(userId: number): Promise<void> {
  const theirs = (await keys<string>(draftStore())).filter((key) => String(key).endsWith(`:${userId}`));
  await delMany(theirs, draftStore());
}
