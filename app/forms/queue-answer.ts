import { registerBackgroundSync, SEND_WAITING_FORMS } from "./background-sync";
import {
  ANSWERED_BY_BROWSER,
  type BrowserAnswer,
  type BrowserFailure,
  browserAnswer,
  type FailureMessages,
} from "./browser-answer";
import { type DeviceFormInfo, handOver, signedInUser } from "./device-forms";

/** The answer a form shows once it is handed to the device's queue to wait for the signal. */
export const KEPT_FOR_SIGNAL = {
  status: "error",
  kept: true,
  [ANSWERED_BY_BROWSER]: true,
  retry: true,
  message:
    "No signal: your request is kept on this device and will be sent by itself when the signal returns. It is listed under “Waiting to be sent”.",
} as const;

/** The answer once it is handed over to wait for the person's next sign-in: the session had ended. */
export type KeptForSignIn = BrowserAnswer & { kept: true };

export type KeptAnswer = typeof KEPT_FOR_SIGNAL | KeptForSignIn;

/**
 * For the senders (form-route.ts, send-form.ts): hands a staff form the browser could not send to the device's
 * queue when what stopped it is waited out there (no signal, a session that ended), and answers what the form
 * shows then; nothing when the queue does not wait for that, or the form could not be kept.
 */
export const handOverOnFailure =
  (info: DeviceFormInfo, messages: FailureMessages) =>
  async (body: FormData, failure: BrowserFailure): Promise<KeptAnswer | undefined> => {
    if (failure !== "offline" && failure !== "signedOut") return undefined;
    const reason = failure === "offline" ? "signal" : "sign-in";
    if (!(await handOver(info, signedInUser(), body, reason))) return undefined;
    if (reason === "sign-in") return { ...browserAnswer("signedOut", messages), kept: true };
    // The worker wakes the pages when the signal is back.
    await registerBackgroundSync(SEND_WAITING_FORMS);
    // A new object for each form handed over: the form's page starts a new form on each new answer it gets
    // (useDeviceForm), and the same object twice would keep the second form's key for the answers typed next.
    return { ...KEPT_FOR_SIGNAL };
  };
