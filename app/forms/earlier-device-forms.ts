import { createStore, del, delMany, entries, get } from "idb-keyval";
import { answersOf, type DeviceForm, readForm, saveDraftFiles, type WaitingForm, writeForm } from "./device-forms";

/*
 * Before the device-form model (decision 1002), drafts lived in `form-drafts` under the form's type and user, and
 * the queue in `waiting-forms`: device-forms.ts loads this only on a device that still has either, and both are
 * moved into the model once, so a form kept across the update is not lost.
 */

type EarlierWaiting = Omit<WaitingForm, "state" | "values" | "readable" | "savedAt" | "page" | "formType"> & {
  draftKey: string;
  waitsForSignIn?: boolean;
};
type EarlierDraft = { values: Record<string, string[]>; submissionKey: string; savedAt: string };

export async function importEarlierQueue() {
  const earlierQueue = createStore("waiting-forms", "forms");
  for (const [key, earlier] of await entries<IDBValidKey, EarlierWaiting>(earlierQueue)) {
    const formType = earlier.draftKey.split(":")[0] ?? "";
    const { draftKey: _draftKey, waitsForSignIn: signIn, ...rest } = earlier;
    const form: WaitingForm = {
      ...rest,
      formType,
      page: earlier.answeredInJson ? earlier.action.replace(/\/submit$/, "") : earlier.action,
      state: signIn ? "waiting-sign-in" : "waiting",
      ...answersOf(earlier.fields),
      savedAt: earlier.keptAt ?? new Date().toISOString(),
    };
    await writeForm(form);
    await del(key, earlierQueue);
  }
}

export async function importEarlierDrafts() {
  const earlierDrafts = createStore("form-drafts", "drafts");
  for (const [key, earlier] of await entries<IDBValidKey, EarlierDraft | File[]>(earlierDrafts)) {
    const [kind, formType = "", user = ""] = String(key).split(":");
    if (kind !== "answers" || Array.isArray(earlier) || !/^\d+$/.test(user)) continue;
    const files = await get<File[]>(`files:${formType}:${user}`, earlierDrafts);
    const form: DeviceForm = {
      formType,
      label: formType,
      page: `/admin/quick-links/${formType}`,
      action: `/admin/quick-links/${formType}`,
      answeredInJson: false,
      submissionKey: earlier.submissionKey,
      userId: Number(user),
      state: "editing",
      values: earlier.values,
      readable: [],
      savedAt: earlier.savedAt,
    };
    if ((await readForm(form.submissionKey)) === undefined) {
      await writeForm(form);
      if (files?.length)
        await saveDraftFiles(
          form.submissionKey,
          files.map((file) => ({ field: "", file })),
        );
    }
    await delMany([key, `files:${formType}:${user}`], earlierDrafts);
  }
}
