import { ASSESSMENT_ANSWER_KEY } from "./answer-key.server";
import type { AssessmentAnswers, AssessmentScore } from "./schema";

/** Correct answers over the questions that carry a correct answer, the percentage rounded. */
export function scoreAssessment(answers: AssessmentAnswers): AssessmentScore {
  const keyed = Object.entries(ASSESSMENT_ANSWER_KEY);
  const correct = keyed.filter(([id, { answer }]) => answers[id] === answer).length;
  return { correct, total: keyed.length, percentage: Math.round((correct / keyed.length) * 100) };
}

export function feedbackFor(percentage: number): string {
  if (percentage >= 80) return "Excellent performance!";
  if (percentage >= 70) return "Good performance!";
  if (percentage >= 60) return "Fair performance";
  return "Needs improvement";
}
