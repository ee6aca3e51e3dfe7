import { createStore, del, delMany, entries, get, set, type UseStore, update } from "idb-keyval";
import { forgetKeptAnswersOf } from "./kept-answers";
import { SIGNED_IN_AS_FIELD } from "./signed-in-as";
import { SOFT_CHECKS_SEEN_FIELD } from "./soft-checks";

/*
 * A staff form's whole life on the device, in one place (decision 1002): what a page, the staff layout's queue and
 * the tests do with a form goes through these functions. One record per set of answers, under its double-submit
 * key, which no other set of answers ever gets:
 *
 *   editing ──hand over──▶ waiting (for signal) ──session ended──▶ waiting (for a sign-in)
 *      ▲                      │   │                                    │
 *      └────────change────────┘   └──────stored──▶ sent (deleted) ◀────┘
 *   any ──cancel / discard / log out──▶ deleted
 *
 * A record in `editing` belongs to the one tab that holds its lock (Web Locks), so two tabs never share a key;
 * handing a form to the queue ends its draft, and the page starts a new one under a new key. A waiting record is
 * sent by whichever tab holds its lock, and only while it is still there and still waiting, so it is stored once
 * whichever tab the person signs in from.
 */

export type DeviceFormState = "editing" | "waiting" | "waiting-sign-in";

/** An answer as the person reads it back: the field's label and what they chose or typed, in words. */
export type ReadableAnswer = { label: string; value: string };

/** Where a form is filled in and where it is sent: the same for every set of answers of that form. */
export type DeviceFormInfo = {
  formType: string;
  /** What the queue calls it: "Job request". */
  label: string;
  /** The page the form is filled in on, where "Change" brings it back. */
  page: string;
  /** Where it posts: a route's action (sent through React Router) or an endpoint answering JSON. */
  action: string;
  answeredInJson: boolean;
};

export type DeviceForm = DeviceFormInfo & {
  submissionKey: string;
  /** The staff user it belongs to: shown, sent and changed only while they are signed in on this device. */
  userId: number;
  state: DeviceFormState;
  /** The answers by field name, as the form's controls hold them (a checkbox group gives every chosen value). */
  values: Record<string, string[]>;
  readable: ReadableAnswer[];
  savedAt: string;
  /** Once handed to the queue: the post as it is sent, files included, and when. */
  fields?: [string, FormDataEntryValue][];
  keptAt?: string;
};

/** A form waiting to be sent: handed to the queue, with its post. */
export type WaitingForm = DeviceForm & { state: "waiting" | "waiting-sign-in"; fields: [string, FormDataEntryValue][] };

export const isWaiting = (form: DeviceForm): form is WaitingForm =>
  form.state !== "editing" && form.fields !== undefined;

// ── The transitions, as plain functions of a record ────────────────────────────────────────────────────────

export function newForm(info: DeviceFormInfo, userId: number, now = new Date()): DeviceForm {
  return {
    ...info,
    submissionKey: crypto.randomUUID(),
    userId,
    state: "editing",
    values: {},
    readable: [],
    savedAt: now.toISOString(),
  };
}

/** The answers typed now; a form no longer being edited (handed over meanwhile) is left as it is. */
export function edited(
  form: DeviceForm,
  answers: Pick<DeviceForm, "values" | "readable">,
  now = new Date(),
): DeviceForm {
  if (form.state !== "editing") return form;
  return { ...form, ...answers, savedAt: now.toISOString() };
}

/** Handed to the queue: the post is what is sent, whatever the draft held. */
export function handedOver(
  form: DeviceForm,
  fields: [string, FormDataEntryValue][],
  reason: "signal" | "sign-in",
  now = new Date(),
): WaitingForm {
  return { ...form, fields, state: reason === "signal" ? "waiting" : "waiting-sign-in", keptAt: now.toISOString() };
}

/** Tried while the session had ended: it waits for its person's next sign-in. */
export const waitsForSignIn = (form: WaitingForm): WaitingForm => ({ ...form, state: "waiting-sign-in" });

/** Taken back from the queue to be changed: a draft again, under the same key (the same answers store once). */
export function takenBack(form: WaitingForm, now = new Date()): DeviceForm {
  const { fields: _post, keptAt: _kept, ...draft } = form;
  return { ...draft, state: "editing", savedAt: now.toISOString() };
}

/** The draft a page opens: its own from before a reload, else the newest free one, else none (a new form). */
export function draftToOpen(
  forms: readonly DeviceForm[],
  info: Pick<DeviceFormInfo, "formType">,
  userId: number,
  remembered: string | undefined,
): DeviceForm[] {
  const drafts = forms
    .filter((form) => form.state === "editing" && form.formType === info.formType && form.userId === userId)
    .sort((one, other) => other.savedAt.localeCompare(one.savedAt));
  const own = drafts.find((form) => form.submissionKey === remembered);
  return own ? [own, ...drafts.filter((form) => form !== own)] : drafts;
}

/** The post a waiting form sends. */
export function postOf(form: WaitingForm): FormData {
  const body = new FormData();
  for (const [name, value] of form.fields) body.append(name, value);
  return body;
}

/** A file kept with a draft, under the field it was chosen in. */
export type DraftFile = { field: string; file: File };

/** The files a form carries, as its draft keeps them: those of its post once handed over. */
export const filesOf = (form: DeviceForm): DraftFile[] =>
  (form.fields ?? []).flatMap(([field, value]) => (value instanceof File ? [{ field, file: value }] : []));

// ── The device's store ──────────────────────────────────────────────────────────────────────────────────────

let store: UseStore | undefined;
// Opened on first use, in the browser only: one database, opened once per page, holds the records and, under keys
// of their own, the drafts' files (megabytes each), written only when they change, not at every keystroke.
const forms = () => {
  store ??= createStore("device-forms", "forms");
  return store;
};
const filesKey = (submissionKey: string) => `files:${submissionKey}`;

const CHANGED = "device-forms-changed";
let channel: BroadcastChannel | undefined;
const otherTabs = () => {
  if (typeof BroadcastChannel === "undefined") return undefined;
  channel ??= new BroadcastChannel(CHANGED);
  return channel;
};

/** Tells this tab and the others that the device's forms changed. */
function announceChange() {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(CHANGED));
  otherTabs()?.postMessage(CHANGED);
}

/** Calls `onChange` whenever a form is kept, changed or forgotten in any tab; returns the way to stop. */
export function onDeviceFormsChange(onChange: () => void): () => void {
  window.addEventListener(CHANGED, onChange);
  const tabs = otherTabs();
  tabs?.addEventListener("message", onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    tabs?.removeEventListener("message", onChange);
  };
}

export async function allForms(): Promise<DeviceForm[]> {
  await earlierFormsImported();
  const stored = await entries<string, DeviceForm | StoredDraftFiles>(forms()).catch(() => []);
  return stored.flatMap(([, value]) => (Array.isArray(value) ? [] : [value]));
}

export async function waitingFormsOf(userId: number): Promise<WaitingForm[]> {
  return (await allForms())
    .filter((form): form is WaitingForm => isWaiting(form) && form.userId === userId)
    .sort((one, other) => (one.keptAt ?? "").localeCompare(other.keptAt ?? ""));
}

export const readForm = (submissionKey: string) => get<DeviceForm>(submissionKey, forms());

/** Writes a whole record (a transition decided by its lock's holder). */
export async function writeForm(form: DeviceForm): Promise<void> {
  await set(form.submissionKey, form, forms());
  announceChange();
}

/** Saves the answers typed now, unless the form was handed over meanwhile (another save may be under way). */
export function saveEdits(form: DeviceForm): Promise<void> {
  return update<DeviceForm>(
    form.submissionKey,
    (stored) => (stored ? edited(stored, form, new Date(form.savedAt)) : form),
    forms(),
  );
}

/** A draft's files as stored: kept before they had fields (bare files) they come back under the field "". */
type StoredDraftFiles = Array<DraftFile | File>;

export const saveDraftFiles = (submissionKey: string, files: readonly DraftFile[]) =>
  set(filesKey(submissionKey), [...files], forms());

export async function readDraftFiles(submissionKey: string): Promise<DraftFile[]> {
  const stored = await get<StoredDraftFiles>(filesKey(submissionKey), forms()).catch(() => undefined);
  return (stored ?? []).map((kept) => (kept instanceof File ? { field: "", file: kept } : kept));
}

/** Gone from the device: sent, cancelled or discarded. */
export async function forgetForm(submissionKey: string): Promise<void> {
  await delMany([submissionKey, filesKey(submissionKey)], forms()).catch(() => undefined);
  announceChange();
}

/** Logging out: every form of the person, drafts and waiting ones, and their kept answers leave the device. */
export async function forgetFormsOf(userId: number): Promise<void> {
  forgetKeptAnswersOf(userId);
  const theirs = (await allForms()).filter((form) => form.userId === userId).map((form) => form.submissionKey);
  await delMany([...theirs, ...theirs.map(filesKey)], forms()).catch(() => undefined);
  announceChange();
}

/**
 * Hands the form under the post's key to the queue, as `reason` says, with the post as it is sent: the record
 * the page kept while it was typed, or one made from the post alone. False when it cannot be kept (no user
 * known, no IndexedDB), and the page says the send failed as it would have.
 */
export async function handOver(
  info: DeviceFormInfo,
  userId: number | undefined,
  body: FormData,
  reason: "signal" | "sign-in",
): Promise<boolean> {
  const submissionKey = body.get("submissionKey");
  if (userId === undefined || typeof submissionKey !== "string" || submissionKey === "") return false;
  const fields = Array.from(body.entries());
  try {
    await update<DeviceForm>(
      submissionKey,
      (stored) => {
        const draft =
          stored?.userId === userId ? stored : { ...newForm(info, userId), submissionKey, ...answersOf(fields) };
        return handedOver(draft, fields, reason);
      },
      forms(),
    );
    await del(filesKey(submissionKey), forms());
  } catch {
    return false;
  }
  announceChange();
  return true;
}

/** The answers of a post whose page kept no draft: the fields' names stand for their labels. */
export function answersOf(fields: [string, FormDataEntryValue][]): Pick<DeviceForm, "values" | "readable"> {
  const values: Record<string, string[]> = {};
  for (const [name, value] of fields) {
    if (typeof value === "string" && !NOT_ANSWERS.has(name)) values[name] = [...(values[name] ?? []), value];
  }
  return {
    values,
    readable: Object.entries(values).map(([label, chosen]) => ({ label, value: chosen.join(", ") })),
  };
}

/** Names the platform adds to a form, which are not the person's answers. */
export const NOT_ANSWERS: ReadonlySet<string> = new Set([
  "submissionKey",
  "fillToken",
  "website",
  "intent",
  SIGNED_IN_AS_FIELD,
  SOFT_CHECKS_SEEN_FIELD,
]);

// ── Who holds a form ────────────────────────────────────────────────────────────────────────────────────────

type Locks = {
  request: (
    name: string,
    options: { ifAvailable?: boolean },
    callback: (lock: unknown) => Promise<void> | undefined,
  ) => Promise<unknown>;
};
const locks = (): Locks | undefined => (globalThis.navigator as { locks?: Locks } | undefined)?.locks;

/**
 * Holds a form for this tab until the returned release is called: a draft while the tab edits it, a waiting
 * form while it is sent, changed or cancelled. `wait` waits for another tab to let go; otherwise a form another
 * tab holds answers undefined at once. Without Web Locks (old browsers) every form is free.
 */
export function holdForm(submissionKey: string, { wait = false } = {}): Promise<(() => void) | undefined> {
  const lockManager = locks();
  if (!lockManager) return Promise.resolve(() => undefined);
  return new Promise((resolve) => {
    void lockManager.request(`device-form:${submissionKey}`, { ifAvailable: !wait }, (lock) => {
      if (!lock) {
        resolve(undefined);
        return undefined;
      }
      return new Promise<void>((release) => resolve(release));
    });
  });
}

// ── Forms kept by earlier versions ──────────────────────────────────────────────────────────────────────────

let imported: Promise<void> | undefined;

/**
 * Before this model, drafts lived in `form-drafts` under the form's type and user, and the queue in
 * `waiting-forms`: both are moved here once, so a form kept across the update is not lost.
 */
function earlierFormsImported(): Promise<void> {
  imported ??= importEarlierForms().catch(() => undefined);
  return imported;
}

/** Whether the device has the database: asked without opening it, which would make an empty one. */
async function hasDatabase(name: string): Promise<boolean> {
  if (typeof indexedDB.databases !== "function") return true;
  return (await indexedDB.databases()).some((database) => database.name === name);
}

async function importEarlierForms() {
  if (typeof indexedDB === "undefined") return;
  const [queue, drafts] = [await hasDatabase("waiting-forms"), await hasDatabase("form-drafts")];
  if (!queue && !drafts) return;
  // Only a device that kept forms before this model loads the code that moves them.
  const earlier = await import("./earlier-device-forms");
  if (queue) await earlier.importEarlierQueue();
  if (drafts) await earlier.importEarlierDrafts();
}

// ── Who is signed in on this page ───────────────────────────────────────────────────────────────────────────

/** Who the staff layout says is signed in on this page: what is handed to the queue now is theirs. */
let signedInUserId: number | undefined;
export function setSignedInUser(userId: number | undefined) {
  signedInUserId = userId;
}
export const signedInUser = () => signedInUserId;
