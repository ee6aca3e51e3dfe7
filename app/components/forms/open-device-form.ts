import {
  allForms,
  type DeviceForm,
  type DeviceFormInfo,
  draftToOpen,
  filesOf,
  holdForm,
  isWaiting,
  newForm,
  readForm,
  saveDraftFiles,
  takenBack,
  writeForm,
} from "~/forms/device-forms";

/** A form this tab holds (Web Locks), until `release`; `restored` when it had answers before the page opened. */
export type OpenedForm = { form: DeviceForm; release: () => void; restored: boolean };

/** The draft this tab had before a reload, per form and person: a tab never takes another's. */
const rememberedKey = (formType: string, userId: number) => `device-form:${formType}:${userId}`;

export function remember(form: DeviceForm) {
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
export async function openForm(info: DeviceFormInfo, userId: number, change: string | null): Promise<OpenedForm> {
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

/** A new form under a new key, held by this tab. */
export async function startForm(info: DeviceFormInfo, userId: number): Promise<OpenedForm> {
  const form = newForm(info, userId);
  return { form, release: (await holdForm(form.submissionKey)) ?? (() => undefined), restored: false };
}
