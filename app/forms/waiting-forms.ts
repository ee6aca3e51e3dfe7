import { createStore, del, set, type UseStore, values } from "idb-keyval";
import { registerBackgroundSync, SEND_WAITING_FORMS } from "./background-sync";
import { ANSWERED_BY_BROWSER } from "./browser-answer";

/**
 * A staff form sent without signal, kept on the device until it is sent by itself (decision 0904). Its key is
 * the form's submission key, so keeping it again replaces it, and sending it twice stores it once.
 */
export type WaitingForm = {
  submissionKey: string;
  /** The staff user it was sent by: it is sent only while they are signed in. */
  userId: number;
  /** Where it posts: a route's action (sent through React Router) or an endpoint answering JSON. */
  action: string;
  answeredInJson: boolean;
  label: string;
  /** The draft it came from, removed once the form is stored. */
  draftKey: string;
  fields: [string, FormDataEntryValue][];
  keptAt: string;
  /** The session had ended when it was last tried: it waits for its sender's next sign-in. */
  waitsForSignIn?: boolean;
};

/** What a form needs to be kept: everything but its answers. */
export type KeepInfo = Pick<WaitingForm, "action" | "answeredInJson" | "label"> & { formType: string };

/** The answer a form shows once it is kept instead of sent. */
export const KEPT_ANSWER = {
  status: "error",
  kept: true,
  [ANSWERED_BY_BROWSER]: true,
  retry: true,
  message:
    "No signal: your request is kept on this device and will be sent by itself when the signal returns. It is listed under “Waiting to be sent”.",
} as const;

const CHANGED = "waiting-forms-changed";

let store: UseStore | undefined;
const waitingStore = () => {
  store ??= createStore("waiting-forms", "forms");
  return store;
};

/** Who is signed in on this page, as the staff layout read it: the forms kept now are theirs. */
let signedInUserId: number | undefined;
export function setSignedInUser(userId: number | undefined) {
  signedInUserId = userId;
}

/** The draft key of a staff form for the signed-in user, as useStaffFormDraft names it. */
export const staffDraftKey = (formType: string, userId: number | undefined) => `${formType}:${userId ?? "signed-out"}`;

/** Keeps a form to be sent later; false when it cannot be (no user known, no IndexedDB). */
export async function keepToSend(info: KeepInfo, body: FormData): Promise<boolean> {
  const submissionKey = body.get("submissionKey");
  if (signedInUserId === undefined || typeof submissionKey !== "string" || submissionKey === "") return false;
  const waiting: WaitingForm = {
    submissionKey,
    userId: signedInUserId,
    action: info.action,
    answeredInJson: info.answeredInJson,
    label: info.label,
    draftKey: staffDraftKey(info.formType, signedInUserId),
    fields: Array.from(body.entries()),
    keptAt: new Date().toISOString(),
  };
  try {
    await set(submissionKey, waiting, waitingStore());
  } catch {
    return false;
  }
  announceChange();
  // The worker wakes the page when the signal is back.
  await registerBackgroundSync(SEND_WAITING_FORMS);
  return true;
}

/** For a sender: keeps the form and answers what it shows then, or nothing when it could not be kept. */
export const keepWhenOffline = (info: KeepInfo) => async (body: FormData) =>
  (await keepToSend(info, body)) ? KEPT_ANSWER : undefined;

export async function waitingFormsOf(userId: number): Promise<WaitingForm[]> {
  const all = await values<WaitingForm>(waitingStore()).catch(() => []);
  return all.filter((form) => form.userId === userId).sort((one, other) => one.keptAt.localeCompare(other.keptAt));
}

export async function markWaitsForSignIn(form: WaitingForm) {
  await set(form.submissionKey, { ...form, waitsForSignIn: true }, waitingStore()).catch(() => undefined);
  announceChange();
}

export async function forgetWaiting(submissionKey: string) {
  await del(submissionKey, waitingStore()).catch(() => undefined);
  announceChange();
}

export function formDataOf(form: WaitingForm): FormData {
  const body = new FormData();
  for (const [name, value] of form.fields) body.append(name, value);
  return body;
}

const announceChange = () => window.dispatchEvent(new Event(CHANGED));

/** Calls `onChange` whenever a form is kept or forgotten on this page; returns the way to stop. */
export function onWaitingFormsChange(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  return () => window.removeEventListener(CHANGED, onChange);
}
