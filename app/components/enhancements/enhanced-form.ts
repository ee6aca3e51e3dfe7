import type * as z from "zod/mini";
import { alertToneClass, errorMessageOf, fieldErrorClass } from "~/components/forms/field-look";
import { checkAnswers } from "~/forms/check-answers";
import type { FormMessages } from "~/forms/messages";
import { requestFillToken } from "~/forms/request-fill-token";
import { REQUIRED_MESSAGE } from "~/forms/required-message";
import { sendForm } from "~/forms/send-form";

/** What a form's answer endpoint says, as far as this script reads it (app/forms/action-result.ts). */
type Answer = {
  status: "success" | "error" | "invalid";
  message?: string;
  problems?: Record<string, string>;
  result?: { error?: Record<string, readonly string[] | null> };
};

type EnhancedFormOptions<Success> = {
  schema: z.ZodMiniType;
  messages: Pick<FormMessages, "missing" | "offline" | "unreachable" | "timedOut" | "signedOut" | "failed">;
  /** Where the form is sent for an answer in JSON; without JavaScript it posts to its page instead. */
  endpoint: string;
  busyLabel: string;
  onSuccess: (answer: Success) => void;
};

/** The names the form platform adds to every public form, which are not the visitor's answers. */
const GUARD_NAMES = new Set(["submissionKey", "fillToken", "website"]);

/**
 * A server-rendered public form, once scripts run on a page without React: the answers are checked as the
 * schema says before anything is sent (and again on every input after the first try), the form is sent with
 * its double-submit key and fill-time token, and the answer is shown in place, in view and focused: every value
 * stays. It is sent as every other form is (send-form.ts): when our server cannot be reached or does not answer
 * in time, the visitor is told whether nothing left the device (offline) or the send could not be confirmed, in
 * which case sending again is safe: the same key gets the stored reference back.
 */
export function enhanceForm<Success extends { status: "success" }>(
  form: HTMLFormElement,
  options: EnhancedFormOptions<Success>,
) {
  const region = form.querySelector<HTMLElement>("[data-form-alert]");
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
  const idleLabel = button?.textContent ?? "";
  const submissionKey = hiddenInput(form, "submissionKey", crypto.randomUUID());
  let keyUsed = false;
  let tried = false;
  let busy = false;
  let serverMessage: string | undefined;

  /** Shows each field's problems and the banner; true when nothing is wrong. */
  const check = (): boolean => {
    const result = checkAnswers(options.schema, Object.fromEntries(new FormData(form)));
    const errors = "error" in result ? result.error : {};
    showFieldErrors(form, errors);
    const missing = Object.values(errors).some((messages) => messages.includes(REQUIRED_MESSAGE));
    showAlert(region, missing ? options.messages.missing : serverMessage);
    return !("error" in result);
  };
  const setBusy = (value: boolean) => {
    busy = value;
    if (!button) return;
    button.disabled = value;
    button.textContent = value ? options.busyLabel : idleLabel;
  };

  askForFillTokenOnFocus(form);
  form.addEventListener("input", () => {
    // After a success, editing the form makes the next send a new request, with a new key.
    if (keyUsed) {
      submissionKey.value = crypto.randomUUID();
      keyUsed = false;
    }
    if (tried) check();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    tried = true;
    serverMessage = undefined;
    if (!check()) {
      form.querySelector<HTMLElement>("[aria-invalid=true]:not(fieldset), fieldset[aria-invalid=true] input")?.focus();
      return;
    }
    setBusy(true);
    const answer = await sendForm<Answer>(options.endpoint, bodyOf(form), options.messages);
    setBusy(false);
    if (answer.status === "success") {
      keyUsed = true;
      options.onSuccess(answer as unknown as Success);
      return;
    }
    serverMessage = answer.message;
    showFieldErrors(form, serverErrorsOf(answer));
    const alert = showAlert(region, serverMessage);
    alert?.focus({ preventScroll: true });
    alert?.scrollIntoView({ block: "center" });
  });
}

/** The fill-time token, asked for once the visitor first reaches into the form, and posted with it. */
function askForFillTokenOnFocus(form: HTMLFormElement) {
  let fillToken: HTMLInputElement | undefined;
  let askingForToken = false;
  form.addEventListener("focusin", () => {
    if (fillToken || askingForToken) return;
    askingForToken = true;
    void requestFillToken().then((token) => {
      askingForToken = false;
      if (token) fillToken = hiddenInput(form, "fillToken", token);
    });
  });
}

/** The form's banner in its alert region, focusable; none without a message. */
function showAlert(region: HTMLElement | null, message: string | undefined) {
  if (!region) return undefined;
  const alert = document.createElement("div");
  alert.setAttribute("role", "alert");
  alert.tabIndex = -1;
  alert.className = `${alertToneClass.error} scroll-m-4`;
  alert.textContent = message ?? "";
  region.replaceChildren(...(message ? [alert] : []));
  return alert;
}

/**
 * The form's answers in the encoding the form itself would post: URL-encoded, a third the size of multipart for
 * a form without files and read with less work; multipart for a form that says so.
 */
function bodyOf(form: HTMLFormElement): FormData | URLSearchParams {
  const answers = new FormData(form);
  if (form.enctype === "multipart/form-data") return answers;
  const encoded = new URLSearchParams();
  // A file in a URL-encoded form goes as its name, as the browser's own submit sends it.
  for (const [name, value] of answers) encoded.append(name, typeof value === "string" ? value : value.name);
  return encoded;
}

function serverErrorsOf(answer: Partial<Answer>): Record<string, readonly string[]> {
  const errors: Record<string, readonly string[]> = {};
  for (const [name, messages] of Object.entries(answer.result?.error ?? {})) if (messages) errors[name] = messages;
  for (const [name, message] of Object.entries(answer.problems ?? {})) errors[name] ??= [message];
  return errors;
}

function hiddenInput(form: HTMLFormElement, name: string, value: string): HTMLInputElement {
  const input = document.createElement("input");
  input.type = "hidden";
  input.name = name;
  input.value = value;
  form.append(input);
  return input;
}

/**
 * Marks each answer with problems invalid and writes its message under it, as the field kit renders them
 * (field-frame.tsx, choice-field.tsx): a radio group is marked as a whole, with its message inside.
 */
function showFieldErrors(form: HTMLFormElement, errors: Record<string, readonly string[]>) {
  const names = new Set<string>();
  for (const element of form.querySelectorAll<HTMLInputElement>("[name]")) {
    if (element.type !== "hidden" && !GUARD_NAMES.has(element.name)) names.add(element.name);
  }
  for (const name of names) {
    const first = form.querySelector<HTMLInputElement>(`[name="${name}"]`);
    const described = first?.type === "radio" ? first.closest("fieldset") : first;
    if (!described?.id) continue;
    const fieldErrors = errors[name] ?? [];
    const message = errorMessageOf(fieldErrors);
    const errorId = `${described.id}-error`;
    const describedBy = (described.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .filter((id) => id && id !== errorId);
    let shown = document.getElementById(errorId);
    if (message) {
      if (!shown) {
        shown = document.createElement("p");
        shown.id = errorId;
        shown.className = fieldErrorClass.normal;
        (described instanceof HTMLFieldSetElement ? described : described.parentElement)?.append(shown);
      }
      shown.textContent = message;
      describedBy.push(errorId);
    } else {
      shown?.remove();
    }
    if (fieldErrors.length > 0) described.setAttribute("aria-invalid", "true");
    else described.removeAttribute("aria-invalid");
    if (describedBy.length > 0) described.setAttribute("aria-describedby", describedBy.join(" "));
    else described.removeAttribute("aria-describedby");
  }
}
