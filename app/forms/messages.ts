import { withOfficePhone } from "~/content/published-company";

/**
 * Every message a form's action or its page may show. Each form takes the shared wording and replaces only
 * the lines the spec words for it, so the same situation reads the same on every form.
 */
export type FormMessages = {
  /** Some required answer is missing (the fields say which). */
  missing: string;
  /** Beside a field left empty. */
  requiredField: string;
  /** Some answer is not acceptable (the fields say why). */
  invalid: string;
  success: string;
  /** The submission could not be stored (the database is down); nothing was lost from the screen. */
  failed: string;
  /** The device was offline when sending, so nothing left it. */
  offline: string;
  /** The browser could not reach the server, or its answer was lost after the server may have stored it. */
  unreachable: string;
  /** The server did not answer in time; it may have stored the form, so sending again is safe. */
  timedOut: string;
  /** The session ended before the form was sent, so nothing was stored; the answers wait on the device. */
  signedOut: string;
  rateLimited: string;
  unreadable: string;
  /** The whole post is over the form's cap (a file over its own is its field's message: FileMessages). */
  tooLarge: string;
  /** The server's disk is too full to take the post's files (answers without files still store). */
  noRoomForFiles: string;
};

/** `{phone}` in a message stands for the published office phone: every read of it names the current one. */
const SHARED_TEXTS: FormMessages = {
  missing: "Please fill in all required fields.",
  requiredField: "This field is required.",
  invalid: "Please correct the fields below.",
  success: "Your request has been submitted successfully!",
  failed: `We could not send your request just now. Please try again, or call us at {phone}.`,
  offline: `The connection was lost, so your request was not sent. Your answers are still here: send it again when you are back online, or call us at {phone}.`,
  unreachable: `We couldn't reach our server, so we could not confirm that your request arrived. Your answers are still here: sending again is safe, it will not be stored twice. Or call us at {phone}.`,
  timedOut: `Our server took too long to answer, so we could not confirm that your request arrived. Your answers are still here: sending again is safe, it will not be stored twice. Or call us at {phone}.`,
  signedOut:
    "You were signed out, so nothing was sent. Your answers are kept on this device: sign in again and they are sent, without retyping.",
  rateLimited: `Too many requests from your connection. Please wait a few minutes and try again, or call us at {phone}.`,
  unreadable: "We could not read what was sent. Please fill in the form and send it again.",
  tooLarge: "The form is too large to send. Please shorten your answers or choose smaller files.",
  noRoomForFiles: `Our server is short of space for files just now, so nothing was sent. Your answers are still here: please try again later, or call us at {phone}.`,
};

/**
 * The shared wording with a form's own lines over it. Each message is read through a getter that puts in the
 * office phone published at the time it is read, so a form made before a publish still names the new number.
 */
export function formMessages(overrides: Partial<FormMessages>): FormMessages {
  const texts: FormMessages = { ...SHARED_TEXTS, ...overrides };
  const messages = {} as FormMessages;
  for (const key of Object.keys(texts) as (keyof FormMessages)[]) {
    Object.defineProperty(messages, key, { enumerable: true, get: () => withOfficePhone(texts[key]) });
  }
  return messages;
}

/** The shared wording, as a form without lines of its own shows it. */
export const DEFAULT_FORM_MESSAGES = formMessages({});
