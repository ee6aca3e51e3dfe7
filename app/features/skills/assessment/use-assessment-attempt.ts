import { useCallback, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { usePending } from "~/components/forms/use-pending";
import type { ChoiceOption, OptionId } from "~/features/skills/choice";
import type { AssessmentActionResult } from "./definition";
import { assessmentQuestions } from "./questions";
import { clearProgress, loadProgress, type SavedProgress, saveProgress } from "./saved-progress";
import { answerProblem } from "./schema";
import { useAnswerShortcuts } from "./use-answer-shortcuts";

const LAST = assessmentQuestions.length - 1;
const NO_OPTIONS: readonly ChoiceOption[] = [];

/**
 * An attempt at the assessment, one question at a time: every change is kept in sessionStorage until the server
 * has the answers, so a reload, a lost connection or a server error loses nothing. The last question sends them;
 * an answer the server refused brings its question back with the reason.
 */
export function useAssessmentAttempt() {
  const fetcher = useFetcher<AssessmentActionResult>();
  const [attempt, setAttempt] = useState<SavedProgress>();
  const [problem, setProblem] = useState<string>();
  const result = fetcher.data;
  const sending = usePending(undefined, fetcher);

  useEffect(() => setAttempt(loadProgress()), []);
  useEffect(() => {
    if (attempt && result?.status !== "success") saveProgress(attempt);
  }, [attempt, result]);
  useEffect(() => {
    if (result?.status === "success") clearProgress();
    if (result?.status === "invalid") {
      // Back to the first answer the server refused, with its reason.
      const index = assessmentQuestions.findIndex((question) => result.problems[question.id]);
      if (index >= 0) {
        setAttempt((current) => current && { ...current, index });
        setProblem(result.problems[assessmentQuestions[index]?.id ?? ""]);
      }
    }
  }, [result]);

  const question = attempt ? assessmentQuestions[attempt.index] : undefined;
  const answer = question && attempt ? attempt.answers[question.id] : undefined;
  const canContinue = (answer?.trim() ?? "") !== "" && !sending;

  const setAnswer = useCallback((id: string, value: string) => {
    setProblem(undefined);
    setAttempt((current) => current && { ...current, answers: { ...current.answers, [id]: value } });
  }, []);
  const goTo = useCallback((index: number) => {
    setProblem(undefined);
    setAttempt((current) => current && { ...current, index: Math.min(Math.max(index, 0), LAST) });
  }, []);
  const next = useCallback(() => {
    if (!attempt || !question || !canContinue) return;
    const found = answerProblem(question, answer);
    if (found) return setProblem(found);
    if (attempt.index < LAST) return goTo(attempt.index + 1);
    const formData = new FormData();
    for (const [id, value] of Object.entries(attempt.answers)) formData.set(id, value);
    formData.set("submissionKey", attempt.submissionKey);
    void fetcher.submit(formData, { method: "post" });
  }, [attempt, question, answer, canContinue, goTo, fetcher]);
  const previous = useCallback(() => attempt && goTo(attempt.index - 1), [attempt, goTo]);
  const choose = useCallback((id: OptionId) => question && setAnswer(question.id, id), [question, setAnswer]);

  useAnswerShortcuts({
    enabled: question !== undefined && result?.status !== "success" && !sending,
    options: question?.type === "select" ? question.options : NO_OPTIONS,
    onChoose: choose,
    onNext: next,
    onPrevious: previous,
  });

  const start = () => setAttempt({ submissionKey: crypto.randomUUID(), index: 0, answers: {} });
  return {
    attempt,
    question,
    answer,
    problem,
    result,
    sending,
    canContinue,
    last: attempt?.index === LAST,
    setAnswer,
    next,
    previous,
    start,
  };
}
