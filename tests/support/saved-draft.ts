import type { Page } from "@playwright/test";

/**
 * What the page has saved on the device so far: the answers, and the names of the photos kept, read from
 * the staff forms' IndexedDB store as the page will read them after a reload.
 */
function draftOnDevice(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ answers?: Record<string, string[]>; photoNames?: string[] }>((resolve, reject) => {
        const all = <T>(database: string, store: string) =>
          new Promise<T[]>((found) => {
            const opened = indexedDB.open(database);
            opened.onerror = () => reject(opened.error);
            opened.onsuccess = () => {
              const db = opened.result;
              if (!db.objectStoreNames.contains(store)) return found([]);
              const read = db.transaction(store).objectStore(store).getAll();
              read.onsuccess = () => found(read.result as T[]);
            };
          });
        type KeptFiles = Array<{ field: string; file: File }>;
        void all<{ state: string; values: Record<string, string[]> } | KeptFiles>("device-forms", "forms").then(
          (stored) => {
            const draft = stored.find((value) => !Array.isArray(value) && value.state === "editing");
            const files = stored.find((value): value is KeptFiles => Array.isArray(value));
            resolve({
              answers: draft && !Array.isArray(draft) ? draft.values : undefined,
              photoNames: files?.map(({ file }) => file.name),
            });
          },
        );
      }),
  );
}

/** The draft on the device, with each field's first answer, as typed into a single-value field. */
export async function savedDraft(page: Page) {
  const { answers, photoNames } = await draftOnDevice(page);
  return {
    answers: answers && Object.fromEntries(Object.entries(answers).map(([name, [value = ""]]) => [name, value])),
    photoNames,
  };
}

/**
 * Whether the draft on the device holds what is on the screen now: each field the draft keeps has the values
 * the form would send for it. Saves are written after each keystroke, so a reload before the last one has
 * landed would bring back an older draft.
 */
export async function draftHoldsTheScreen(page: Page): Promise<boolean> {
  const { answers } = await draftOnDevice(page);
  if (!answers) return false;
  return page.evaluate((saved) => {
    const field = document.querySelector(`[name="${CSS.escape(Object.keys(saved)[0] ?? "")}"]`);
    const form = field?.closest("form");
    if (!form) return false;
    const onScreen = new FormData(form);
    return Object.entries(saved).every(
      ([name, values]) => JSON.stringify(onScreen.getAll(name)) === JSON.stringify(values),
    );
  }, answers);
}
