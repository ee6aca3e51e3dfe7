import * as z from "zod/mini";
import { lengthConstraintsOf } from "~/forms/field-limits";
import { textField } from "~/forms/text-field";
import { type AssessmentQuestion, choiceQuestions, type contactQuestions } from "./questions";

const PHONE_CHARACTERS = /^[0-9+().\-\s]+$/;

const contactAnswerSchemas = {
  "1": textField("Full name", 120),
  "2": textField("Email", 254).check(z.regex(z.regexes.email, "Enter a valid email address, like name@example.com")),
  "3": textField("Phone", 40).check(
    z.refine(
      (value) => PHONE_CHARACTERS.test(value) && value.replace(/\D/g, "").length >= 10,
      "Enter a phone number with its area code, like (803) 555-0100",
    ),
  ),
} satisfies Record<(typeof contactQuestions)[number]["id"], z.ZodMiniType<string>>;

function choiceAnswerSchema(question: (typeof choiceQuestions)[number]) {
  const ids = question.options.map((option) => option.id);
  return z.enum(ids, { error: `Choose ${ids.slice(0, -1).join(", ")} or ${ids.at(-1)}` });
}

const answerSchemas: Record<string, z.ZodMiniType<string>> = {
  ...contactAnswerSchemas,
  ...Object.fromEntries(choiceQuestions.map((question) => [question.id, choiceAnswerSchema(question)])),
};

/** Every answer of the assessment, keyed by question id: one schema for the browser and the action. */
export const assessmentSchema = z.object(answerSchemas);

/** The server's length cap of each text answer, as its field's maxlength. */
export const answerLengthLimits = lengthConstraintsOf(assessmentSchema);

export type AssessmentAnswers = Record<string, string>;

/** The problem with one answer, or undefined when it is fine: the browser checks each step with this. */
export function answerProblem(question: AssessmentQuestion, value: string | undefined): string | undefined {
  const schema = assessmentSchema.shape[question.id];
  if (!schema) return undefined;
  const trimmed = value?.trim();
  const result = z.safeParse(schema, trimmed === "" ? undefined : trimmed);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/** The score, the only thing about correctness that reaches the browser. */
export type AssessmentScore = { correct: number; total: number; percentage: number };

/** What is stored and delivered: the docs/spec.md §7 shape. */
export type AssessmentPayload = { answers: AssessmentAnswers; score: AssessmentScore };
