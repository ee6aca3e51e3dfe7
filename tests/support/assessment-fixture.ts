import { ASSESSMENT_ANSWER_KEY } from "../../app/features/skills/assessment/answer-key.server";
import { choiceQuestions } from "../../app/features/skills/assessment/questions";

export const validContactAnswers = { "1": "Abby Carter", "2": "abby@example.com", "3": "(803) 555-0100" };

/** A complete, valid set of answers with exactly `correct` right ones (the first ones in question order). */
export function assessmentAnswers(correct: number): Record<string, string> {
  const choices = choiceQuestions.map((question, index) => {
    const right = ASSESSMENT_ANSWER_KEY[question.id]?.answer ?? "A";
    const wrong = question.options.find((option) => option.id !== right)?.id ?? "A";
    return [question.id, index < correct ? right : wrong];
  });
  return { ...validContactAnswers, ...Object.fromEntries(choices) };
}
