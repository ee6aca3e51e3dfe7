import { describe, expect, it } from "vitest";
import { assessmentAnswers } from "#tests/assessment-fixture";
import { ASSESSMENT_ANSWER_KEY } from "./answer-key.server";
import { choiceQuestions } from "./questions";
import { feedbackFor, scoreAssessment } from "./score-assessment.server";

const answersWithCorrect = assessmentAnswers;

describe("the answer key", () => {
  it("has one answer for every multiple-choice question, among that question's options", () => {
    expect(Object.keys(ASSESSMENT_ANSWER_KEY)).toEqual(choiceQuestions.map((question) => question.id));
    for (const question of choiceQuestions) {
      const entry = ASSESSMENT_ANSWER_KEY[question.id];
      expect(
        question.options.map((option) => option.id),
        question.id,
      ).toContain(entry?.answer);
      expect(entry?.basis, question.id).toBeTruthy();
    }
  });

  it("gives 5% as the answer to the voltage-drop question", () => {
    const question = choiceQuestions.find((candidate) => candidate.question.includes("voltage drop"));
    const answer = question?.options.find((option) => option.id === ASSESSMENT_ANSWER_KEY[question.id]?.answer);
    expect(answer?.text).toBe("5%");
  });
});

describe("scoring", () => {
  it("counts right answers over the 15 scored questions, the percentage rounded, and ignores the contact answers", () => {
    expect(scoreAssessment(answersWithCorrect(15))).toEqual({
      correct: 15,
      total: 15,
      percentage: 100,
    });
    expect(scoreAssessment(answersWithCorrect(0))).toEqual({ correct: 0, total: 15, percentage: 0 });
    expect(scoreAssessment(answersWithCorrect(11))).toEqual({ correct: 11, total: 15, percentage: 73 });
    expect(scoreAssessment(answersWithCorrect(1))).toEqual({ correct: 1, total: 15, percentage: 7 });
  });

  it.each([
    [80, "Excellent performance!"],
    [79, "Good performance!"],
    [70, "Good performance!"],
    [69, "Fair performance"],
    [60, "Fair performance"],
    [59, "Needs improvement"],
    [100, "Excellent performance!"],
    [0, "Needs improvement"],
  ])("gives %i%% the feedback %s", (percentage, feedback) => {
    expect(feedbackFor(percentage)).toBe(feedback);
  });

  // With 15 questions no answer set scores exactly 70%: 10 right is 67%, 11 right is 73%.
  it.each([
    [12, 80, "Excellent performance!"],
    [11, 73, "Good performance!"],
    [10, 67, "Fair performance"],
    [9, 60, "Fair performance"],
    [8, 53, "Needs improvement"],
  ])("gives %i right answers %i%%: %s", (correct, percentage, feedback) => {
    const score = scoreAssessment(answersWithCorrect(correct));
    expect(score).toEqual({ correct, total: 15, percentage });
    expect(feedbackFor(score.percentage)).toBe(feedback);
  });
});
