import type { FormActionResult } from "~/forms/action-result";
import type { FieldDefinition } from "~/forms/definition";
import { defineForm } from "~/forms/definition";
import { formMessages } from "~/forms/messages";
import { assessmentQuestions } from "./questions";
import { type AssessmentPayload, type AssessmentScore, assessmentSchema } from "./schema";

export const ASSESSMENT_STATUS = { new: "New", reviewed: "Reviewed", archived: "Archived" } as const;

const answerOf = (payload: Record<string, unknown>, id: string) =>
  (payload as Partial<AssessmentPayload>).answers?.[id];

/** Each question by its text, read from the stored answers, then the score. */
const assessmentFields: readonly FieldDefinition[] = [
  ...assessmentQuestions.map(
    (question): FieldDefinition => ({
      name: question.id,
      label: question.question,
      ...(question.type === "select"
        ? { kind: "radio", options: question.options.map((option) => ({ value: option.id, label: option.id })) }
        : { kind: question.type, placeholder: question.placeholder, autoComplete: question.autoComplete }),
      read: (payload) => answerOf(payload, question.id),
    }),
  ),
  {
    name: "score",
    label: "Score",
    kind: "text",
    read: (payload) => {
      const score = (payload as Partial<AssessmentPayload>).score;
      return score ? `${score.correct} of ${score.total} (${score.percentage}%)` : undefined;
    },
  },
];

const answerText = (payload: AssessmentPayload, id: string) => payload.answers[id] ?? "";

/** The skills assessment at /assessment. Its answer key and scoring live on the server only. */
export const assessmentForm = defineForm({
  type: "assessment",
  exportableBy: "admin",
  label: "Skills assessment",
  referencePrefix: "ASM",
  audience: "public",
  statuses: [ASSESSMENT_STATUS.new, ASSESSMENT_STATUS.reviewed, ASSESSMENT_STATUS.archived],
  schema: assessmentSchema,
  fields: assessmentFields,
  contact: (payload: AssessmentPayload) => ({
    name: answerText(payload, "1"),
    email: answerText(payload, "2"),
    phone: answerText(payload, "3"),
  }),
  maxBodyBytes: 64 * 1024,
  messages: formMessages({
    requiredField: "This question needs an answer",
    offline:
      "The connection was lost, so your answers are not sent yet. They are kept on this device: press Retry when you are back online.",
    unreachable:
      "We couldn't reach our server, so we could not confirm that your answers arrived. They are kept on this device: pressing Retry is safe, they will not be stored twice.",
    failed:
      "We could not save your answers just now. They are kept on this device: press Retry, or call us at {phone}.",
    unreadable: "We could not read what was sent. Please answer the questions and send them again.",
    rateLimited:
      "Too many submissions from your connection. Please wait a few minutes and press Retry, or call us at {phone}.",
  }),
  // The shape of the original automation call (docs/spec.md §7), which is also what is stored.
  deliveries: [
    {
      channel: "webhook",
      target: "WEBHOOK_ASSESSMENT_URL",
      receives: "skills assessments",
      body: (payload) => payload,
    },
  ],
});

/** The page shows the score and its feedback line; nothing about which answers were right. */
export type AssessmentActionResult = FormActionResult<{ score: AssessmentScore; feedback: string; nextStep: string }>;
