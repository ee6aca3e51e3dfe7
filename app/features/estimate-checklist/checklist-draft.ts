import { createStore, delMany, getMany, set, type UseStore } from "idb-keyval";

/** The answers of a checklist being filled in, its double-submit key, and when they were last saved. */
export type DraftAnswers = { answers: Record<string, string>; submissionKey: string; savedAt: string };

/** A checklist being filled in, as kept on the device: the answers and the photos themselves. */
export type ChecklistDraft = DraftAnswers & { photos: File[] };

let store: UseStore | undefined;
// Opened on first use, in the browser only.
const draftStore = () => {
  store ??= createStore("estimate-checklist", "drafts");
  return store;
};

/**
 * One draft per signed-in user on a device, so two people sharing a tablet do not see each other's. The
 * answers and the photos are kept apart: the answers are saved at every keystroke, the photos (megabytes
 * each, copied into IndexedDB) only when the list changes.
 */
const answersKey = (userId: number) => `answers:${userId}`;
const photosKey = (userId: number) => `photos:${userId}`;

export async function loadDraft(userId: number): Promise<ChecklistDraft | undefined> {
  const [answers, photos] = await getMany<DraftAnswers | File[] | undefined>(
    [answersKey(userId), photosKey(userId)],
    draftStore(),
  );
  if (!answers || Array.isArray(answers)) return undefined;
  return { ...answers, photos: Array.isArray(photos) ? photos : [] };
}

export function saveDraftAnswers(userId: number, answers: DraftAnswers): Promise<void> {
  return set(answersKey(userId), answers, draftStore());
}

export function saveDraftPhotos(userId: number, photos: readonly File[]): Promise<void> {
  return set(photosKey(userId), [...photos], draftStore());
}

export function discardDraft(userId: number): Promise<void> {
  return delMany([answersKey(userId), photosKey(userId)], draftStore());
}
