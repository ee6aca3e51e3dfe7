import { createStore, delMany, getMany } from "idb-keyval";
import type { FormDraft } from "~/components/forms/form-draft";

type EarlierAnswers = { answers: Record<string, string>; submissionKey: string; savedAt: string };

/**
 * A checklist draft kept by the version before the staff forms shared one draft store (its own IndexedDB
 * database, keyed by user id), taken out of there once so a checklist filled in across the update is not lost.
 */
export async function takeEarlierChecklistDraft(userId: number): Promise<FormDraft | undefined> {
  const store = createStore("estimate-checklist", "drafts");
  const keys = [`answers:${userId}`, `photos:${userId}`];
  const [answers, photos] = await getMany<EarlierAnswers | File[] | undefined>(keys, store);
  if (!answers || Array.isArray(answers)) return undefined;
  await delMany(keys, store);
  return {
    values: Object.fromEntries(Object.entries(answers.answers).map(([name, value]) => [name, [value]])),
    submissionKey: answers.submissionKey,
    savedAt: answers.savedAt,
    files: Array.isArray(photos) ? photos : [],
  };
}
