import { useCallback, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { OutcomeAlert } from "~/components/forms/alert";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import type { ChoiceOption, OptionId } from "~/features/skills/choice";
import { ChoiceFieldset } from "~/features/skills/choice-fieldset";
import { QuestionStep } from "~/features/skills/question-step";
import { AssessmentIntro } from "./assessment-intro";
import { AssessmentResults } from "./assessment-results";
import type { AssessmentActionResult } from "./definition";
import { assessmentQuestions } from "./questions";
import { clearProgress, loadProgress, type SavedProgress, saveProgress } from "./saved-progress";
import { answerLengthLimits, answerProblem } from "./schema";
import { useAnswerShortcuts } from "./use-answer-shortcuts";

const LAST = assessmentQuestions.length - 1;
const NO_OPTIONS: readonly ChoiceOption[] = [];

/**
 * The assessment one question at a time. Every change is kept in sessionStorage until the server has the
 * answers, so a reload, a lost connection or a server error loses nothing: the person presses Retry.
 */
export function AssessmentSteps() {
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

  if (result?.status === "success") return <AssessmentResults answer={result} />;
  if (!attempt || !question) {
    return (
      <AssessmentIntro onStart={() => setAttempt({ submissionKey: crypto.randomUUID(), index: 0, answers: {} })} />
    );
  }

  const last = attempt.index === LAST;
  const failure = result?.status === "error" && !sending ? result : undefined;
  return (
    <QuestionStep
      step={attempt.index + 1}
      total={assessmentQuestions.length}
      progressLabel="Assessment progress"
      nextLabel={!last ? "OK" : sending ? "Submitting..." : failure?.retry ? "Retry" : "Submit Assessment"}
      nextDisabled={!canContinue}
      onNext={next}
      onPrevious={previous}
      footer={
        <>
          <OutcomeAlert
            outcome={last && failure ? { status: "error", message: failure.message } : undefined}
            revealOn={result}
          />
          {question.type === "select" && (
            // Only where the keys work: on a choice, with a keyboard and a mouse (not on a touch screen).
            <p className="hidden text-sm text-slate-600 [@media(hover:hover)_and_(pointer:fine)]:block">
              Keys: <kbd>A</kbd>–<kbd>D</kbd> or <kbd>1</kbd>–<kbd>4</kbd> choose, <kbd>Enter</kbd> continues,{" "}
              <kbd>←</kbd> goes back.
            </p>
          )}
        </>
      }
    >
      {question.type === "select" ? (
        <ChoiceFieldset
          name={question.id}
          legend={question.question}
          options={question.options}
          value={answer as OptionId | undefined}
          onChange={(id) => setAnswer(question.id, id)}
        />
      ) : (
        <TextField
          size="large"
          label={question.question}
          id={`assessment-${question.id}`}
          name={question.id}
          kind={question.type}
          maxLength={answerLengthLimits[question.id]?.maxLength}
          placeholder={question.placeholder}
          autoComplete={question.autoComplete}
          required
          value={answer ?? ""}
          onChange={(event) => setAnswer(question.id, event.target.value)}
          errors={problem ? [problem] : undefined}
        />
      )}
      {question.type === "select" && problem && (
        <p role="alert" className="font-medium text-red-800">
          {problem}
        </p>
      )}
    </QuestionStep>
  );
}
