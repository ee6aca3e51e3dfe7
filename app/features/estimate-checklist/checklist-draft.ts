import { createStore, del, get, set, type UseStore } from "idb-keyval";

/**
 * A checklist being filled in, as kept on the device: the answers, the photos themselves (IndexedDB keeps
 * files), the double-submit key of this checklist, and when it was last saved.
 */
export type ChecklistDraft = {
  answers: Record<string, string>;
  photos: File[];
  submissionKey: string;
  savedAt: string;
};

let store: UseStore | undefined;
// Opened on first use, in the browser only.
const draftStore = () => {
  store ??= createStore("estimate-checklist", "drafts");
  return store;
};

/** One draft per signed-in user on a device, so two people sharing a tablet do not see each other's. */
const draftKey = (userId: number) => `draft:${userId}`;

export function loadDraft(userId: number): Promise<ChecklistDraft | undefined> {
  return get<ChecklistDraft>(draftKey(userId), draftStore());
}

export function saveDraft(userId: number, draft: ChecklistDraft): Promise<void> {
  return set(draftKey(userId), draft, draftStore());
}

export function discardDraft(userId: number): Promise<void> {
  return del(draftKey(userId), draftStore());
}
