/*
 * The answers a person gives on every form of a kind (their own email on the checklist), kept on the device when
 * they send one and filled in on their next (FieldDefinition's `keptForNext`). In the browser's local storage,
 * per form and person; logging out removes the person's.
 */

const PREFIX = "kept-answers:";
const keyOf = (formType: string, userId: number) => `${PREFIX}${formType}:${userId}`;

export function keepAnswers(formType: string, userId: number, answers: Record<string, string>) {
  try {
    localStorage.setItem(keyOf(formType, userId), JSON.stringify(answers));
  } catch {
    // No local storage (a locked-down browser, or full): the next form starts as the page gives it.
  }
}

export function keptAnswers(formType: string, userId: number): Record<string, string> {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(keyOf(formType, userId)) ?? "{}");
    if (typeof kept !== "object" || kept === null) return {};
    return Object.fromEntries(
      Object.entries(kept).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  } catch {
    return {};
  }
}

/** Logging out: the person's kept answers leave the device with their forms. */
export function forgetKeptAnswersOf(userId: number) {
  try {
    const theirs = Object.keys(localStorage).filter((key) => key.startsWith(PREFIX) && key.endsWith(`:${userId}`));
    for (const key of theirs) localStorage.removeItem(key);
  } catch {
    // Nothing was kept without local storage.
  }
}
