import { enhanceForm } from "~/components/enhancements/enhanced-form";
import { type EstimateActionResult, estimateForm } from "./definition";
import {
  ESTIMATE_ANSWER_PATH,
  ESTIMATE_FORM_ID,
  ESTIMATE_SUCCESS_DIALOG_ID,
  nextStepAttribute,
  successTextAttribute,
} from "./page-contract";
import { estimateSchema } from "./schema";

type EstimateSuccess = Extract<EstimateActionResult, { status: "success" }>;

/**
 * The estimate form on a page that runs without React: sent in place, with its confirmation as a modal dialog
 * that gives focus back to the send button (which was disabled while sending, so the browser lost track of it).
 */
export function enhanceEstimateForm(document: Document) {
  const form = document.getElementById(ESTIMATE_FORM_ID);
  const dialog = document.getElementById(ESTIMATE_SUCCESS_DIALOG_ID);
  if (!(form instanceof HTMLFormElement) || !(dialog instanceof HTMLDialogElement)) return;
  const text = dialog.querySelector("[data-success-text]");
  const reference = dialog.querySelector("[data-reference]");
  const nextStep = dialog.querySelector("[data-next-step]");
  dialog.addEventListener("close", () => form.querySelector<HTMLButtonElement>("button[type=submit]")?.focus());
  enhanceForm<EstimateSuccess>(form, {
    schema: estimateSchema,
    messages: estimateForm.messages,
    endpoint: ESTIMATE_ANSWER_PATH,
    busyLabel: "Sending...",
    onSuccess: (answer) => {
      if (text) text.textContent = dialog.getAttribute(successTextAttribute(answer.projectType));
      if (reference) reference.textContent = answer.reference;
      if (nextStep) nextStep.textContent = dialog.getAttribute(nextStepAttribute(answer.projectType));
      if (dialog.open) dialog.close();
      dialog.showModal();
    },
  });
}
