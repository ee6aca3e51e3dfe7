import type { AssessmentAnswers } from "./schema";

/** An attempt in progress, kept in sessionStorage so a reload or a failed send loses nothing. */
export type SavedProgress = { submissionKey: string; index: number; answers: AssessmentAnswers };

const STORAGE_KEY = "assessment-progress";

// sessionStorage throws when storage is disabled or full; the attempt then lives in memory only.

export function loadProgress(): SavedProgress | undefined {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as Partial<SavedProgress> | null;
    if (typeof saved?.submissionKey !== "string" || typeof saved.index !== "number") return undefined;
    const answers = Object.fromEntries(
      Object.entries(saved.answers ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
    return { submissionKey: saved.submissionKey, index: saved.index, answers };
  } catch {
    return undefined;
  }
}

export function saveProgress(progress: SavedProgress): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(progress));
  } catch {}
}

export function clearProgress(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {}
}
