import type { AppLoadContext } from "react-router";
import { withPhone } from "~/content/site-content";
import { submitForm } from "~/forms/submit-form.server";
import { siteContentOf } from "~/services/site-content/site-content-cache.server";
import { assessmentForm } from "./definition";
import { assessmentQuestions } from "./questions";
import type { AssessmentAnswers, AssessmentPayload } from "./schema";
import { feedbackFor, scoreAssessment } from "./score-assessment.server";

const INVALID_ANSWERS_MESSAGE = "Some answers need another look:";

/**
 * The assessment's action: the pipeline, with the answers scored here on the server. It answers with the
 * score only, never with which answers were right.
 */
export function submitAssessment(request: Request, context: AppLoadContext) {
  const content = siteContentOf(context);
  return submitForm(request, context, assessmentForm, {
    payload: (given): AssessmentPayload => {
      const answers = inQuestionOrder(given);
      return { answers, score: scoreAssessment(answers) };
    },
    success: ({ payload }) => ({
      score: payload.score,
      feedback: feedbackFor(payload.score.percentage),
      nextStep: withPhone(content.careers.assessmentNextSteps, content),
    }),
    invalidMessage: (problems) => {
      const list = Object.entries(problems).map(([id, problem]) => `question ${id}: ${problem}`);
      return `${INVALID_ANSWERS_MESSAGE} ${list.join("; ")}.`;
    },
  });
}

function inQuestionOrder(answers: AssessmentAnswers): AssessmentAnswers {
  return Object.fromEntries(assessmentQuestions.map(({ id }) => [id, answers[id] ?? ""]));
}
