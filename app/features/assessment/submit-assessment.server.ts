import { createHash } from "node:crypto";
import type { AppLoadContext } from "react-router";
import { data } from "react-router";
import * as z from "zod/mini";
import type { OutgoingDelivery } from "~/features/deliveries/submission-store.server";
import { acceptSubmission } from "~/features/deliveries/submission-store.server";
import { REQUIRED_MESSAGE } from "~/features/forms/text-field";
import { clientAddressKey } from "~/server/client-address.server";
import { hitRateLimit } from "~/server/rate-limit.server";
import { assessmentQuestions } from "./questions";
import {
  type AssessmentActionResult,
  type AssessmentAnswers,
  type AssessmentScore,
  assessmentSchema,
  INVALID_ANSWERS_MESSAGE,
  RATE_LIMITED_MESSAGE,
  UNAVAILABLE_MESSAGE,
  UNREADABLE_FORM_MESSAGE,
} from "./schema";
import { feedbackFor, scoreAssessment } from "./score-assessment.server";

/** Made in the browser once per attempt, so that a retry is the same submission. */
const submissionKeySchema = z.catch(z.optional(z.uuid()), undefined);
const RATE_LIMIT_WINDOW_SECONDS = 600;

/**
 * The assessment's action: validates the answers, scores them here on the server, stores the submission with
 * its webhook delivery in one transaction, and answers with the score only, never with which answers were right.
 */
export async function submitAssessment(request: Request, context: AppLoadContext) {
  const formData = await request.formData().catch(() => undefined);
  if (!formData) return reply({ status: "error", message: UNREADABLE_FORM_MESSAGE, retry: false }, 400);

  const given = givenAnswers(formData);
  const parsed = z.safeParse(assessmentSchema, given);
  if (!parsed.success) {
    const problems: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const id = String(issue.path[0]);
      problems[id] ??= issue.message === REQUIRED_MESSAGE ? "This question needs an answer" : issue.message;
    }
    const list = Object.entries(problems).map(([id, problem]) => `question ${id}: ${problem}`);
    return reply(
      { status: "invalid", message: `${INVALID_ANSWERS_MESSAGE} ${list.join("; ")}.`, problems, answers: given },
      400,
    );
  }

  const answers = inQuestionOrder(parsed.data);
  const clientIp = context.clientIp;
  try {
    const allowed = await hitRateLimit(context.db, `public-form:${clientAddressKey(clientIp)}`, {
      limit: context.config.PUBLIC_FORM_RATE_LIMIT,
      windowSeconds: RATE_LIMIT_WINDOW_SECONDS,
    });
    if (!allowed) return reply({ status: "error", message: RATE_LIMITED_MESSAGE, retry: true }, 429);

    const score = scoreAssessment(answers);
    const stored = await acceptSubmission(context, {
      type: "assessment",
      referencePrefix: "ASM",
      submissionKey:
        submissionKeySchema.parse(formData.get("submissionKey")) ?? derivedSubmissionKey(clientIp, answers),
      payload: assessmentPayload(answers, score),
      clientIp,
      userAgent: request.headers.get("user-agent") ?? undefined,
      deliveries: () => assessmentDeliveries(context, answers, score),
    });
    return reply({ status: "success", reference: stored.reference, score, feedback: feedbackFor(score.percentage) });
  } catch (error) {
    context.logger.error({ err: error }, "assessment could not be stored");
    return reply({ status: "error", message: UNAVAILABLE_MESSAGE, retry: true }, 503);
  }
}

function reply(result: AssessmentActionResult, status = 200) {
  return data(result, { status });
}

/** The text of each question's field, blanks left out (an empty input means "not given"). */
function givenAnswers(formData: FormData): AssessmentAnswers {
  const given: AssessmentAnswers = {};
  for (const { id } of assessmentQuestions) {
    const value = formData.get(id);
    if (typeof value === "string" && value.trim() !== "") given[id] = value;
  }
  return given;
}

function inQuestionOrder(answers: AssessmentAnswers): AssessmentAnswers {
  return Object.fromEntries(assessmentQuestions.map(({ id }) => [id, answers[id] ?? ""]));
}

/** The shape of the original automation call (spec §7), which is also what is stored. */
function assessmentPayload(answers: AssessmentAnswers, score: AssessmentScore) {
  return { answers, score };
}

function assessmentDeliveries(
  context: AppLoadContext,
  answers: AssessmentAnswers,
  score: AssessmentScore,
): OutgoingDelivery[] {
  const url = context.config.WEBHOOK_ASSESSMENT_URL;
  if (!url) return [];
  return [
    { channel: "webhook", target: "WEBHOOK_ASSESSMENT_URL", destination: url, body: assessmentPayload(answers, score) },
  ];
}

/**
 * Without JavaScript the form carries no key of its own: the same answers from the same address within ten
 * minutes count as one submission.
 */
function derivedSubmissionKey(clientIp: string, answers: AssessmentAnswers): string {
  const window = Math.floor(Date.now() / 600_000);
  return createHash("sha256")
    .update(JSON.stringify(["assessment", clientIp, answers, window]))
    .digest("hex");
}
