import type { FormActionResult, FormReply } from "~/forms/action-result";
import { defineForm } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { serverDocument, storedFileBase64 } from "~/outbox/stored-file-base64";
import {
  CHECKLIST_ANSWER_NAMES,
  type ChecklistAnswers,
  checklistFields,
  checklistSchema,
  PHOTOS_FIELD,
} from "./schema";

export const CHECKLIST_STATUS = { received: "Received", estimated: "Estimated", archived: "Archived" } as const;

/** The file field the server-made PDF is stored under. */
export const CHECKLIST_PDF_FIELD = "pdf";

/**
 * The whole post: a dozen phone photos of 3 to 6 MB with room to spare, or 30 iPhone HEICs; past it the
 * server would hold too much of one upload in memory.
 */
export const CHECKLIST_MAX_BODY_BYTES = 80 * 1024 * 1024;

export const UNTITLED_PROJECT = "Untitled Project";

/** The estimate checklist at /admin/quick-links/estimate-checklist. */
const SENT = "PDF generated and sent to webhook successfully!";
const WEBHOOK_NOT_SET_UP = "the checklist webhook is not set up on this server. An admin can set it up.";

const NOT_REACHED =
  "Error: the server could not be reached, so nothing was sent. Your answers and photos are kept on this device: submit again when you have a signal.";

export const checklistForm = defineForm({
  type: "estimate-checklist",
  label: "Estimate checklist",
  referencePrefix: "CHK",
  audience: "staff",
  statuses: [CHECKLIST_STATUS.received, CHECKLIST_STATUS.estimated, CHECKLIST_STATUS.archived],
  schema: checklistSchema,
  fields: checklistFields,
  contact: (checklist: ChecklistAnswers) => ({ name: checklist.fillerName, email: checklist.fillerEmail, phone: "" }),
  maxBodyBytes: CHECKLIST_MAX_BODY_BYTES,
  // The spec's words (§8); the others start with "Error" so the banner shows them as errors.
  messages: formMessages({
    missing: "Please fill in your name and email.",
    success: SENT,
    failed: "Error generating PDF or sending to webhook. Please try again.",
    unreachable: NOT_REACHED,
    offline: NOT_REACHED,
    timedOut:
      "Error: the server took too long to answer, so we could not confirm the checklist arrived. Your answers and photos are kept on this device: submitting again is safe, it will not be stored twice.",
    signedOut:
      "Error: you were signed out, so nothing was sent. Your checklist is kept on this device: sign in again and it is sent.",
    unreadable: "Error: the checklist could not be read. Please submit it again.",
    tooLarge: "Error: the photos add up to more than 80 MB. Please remove some and submit again.",
  }),
  // The spec's words once the webhook has it (queued in the outbox); without the webhook, what did happen.
  outcome: ({ deliveries }) => {
    if (deliveries.some((delivery) => delivery.target === "WEBHOOK_CHECKLIST_URL"))
      return { sent: true, message: SENT };
    const emailed = deliveries.some((delivery) => delivery.target === "STAFF_NOTIFY_EMAIL");
    return {
      sent: false,
      message: emailed
        ? `PDF generated, saved and emailed to the office. Not sent to the webhook: ${WEBHOOK_NOT_SET_UP}`
        : `PDF generated and saved. Not sent: ${WEBHOOK_NOT_SET_UP}`,
    };
  },
  deliveries: [
    {
      channel: "webhook",
      target: "WEBHOOK_CHECKLIST_URL",
      receives: "estimate checklists",
      // The original automation's body (docs/spec.md §7); the PDF's base64 is read from the stored PDF when it is sent.
      body: (checklist, stored) => ({
        fillerName: checklist.fillerName,
        fillerEmail: checklist.fillerEmail,
        projectName: checklist.projectName || UNTITLED_PROJECT,
        timestamp: stored.submittedAt,
        filename: stored.files.find((file) => file.fieldName === CHECKLIST_PDF_FIELD)?.fileName ?? "",
        pdfBase64: storedFileBase64(serverDocument(CHECKLIST_PDF_FIELD)),
        formData: Object.fromEntries(CHECKLIST_ANSWER_NAMES.map((name) => [name, checklist[name]])),
        photoCount: stored.files.filter((file) => file.fieldName === PHOTOS_FIELD).length,
      }),
    },
    {
      channel: "email",
      target: "STAFF_NOTIFY_EMAIL",
      to: (_checklist, config) => config.STAFF_NOTIFY_EMAIL,
      subject: (checklist, reference) =>
        `Estimate checklist ${reference}: ${checklist.projectName || UNTITLED_PROJECT}`,
      intro: (checklist) => `${checklist.fillerName} filled in an estimate checklist. Its PDF is attached.`,
      replyTo: (checklist) => checklist.fillerEmail,
      attachStoredFiles: [CHECKLIST_PDF_FIELD],
    },
  ],
});

export type ChecklistActionResult = FormActionResult<{ result: FormReply }>;
