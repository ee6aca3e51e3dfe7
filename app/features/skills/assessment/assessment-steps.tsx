import { OutcomeAlert } from "~/components/forms/alert";
import { TextField } from "~/components/forms/text-field";
import type { OptionId } from "~/features/skills/choice";
import { ChoiceFieldset } from "~/features/skills/choice-fieldset";
import { QuestionStep } from "~/features/skills/question-step";
import { AssessmentIntro } from "./assessment-intro";
import { AssessmentResults } from "./assessment-results";
import { type AssessmentQuestion, assessmentQuestions } from "./questions";
import { answerLengthLimits } from "./schema";
import { useAssessmentAttempt } from "./use-assessment-attempt";

/**
 * The assessment one question at a time (useAssessmentAttempt): the intro, each question with its progress, OK
 * and Previous, and the results once the server has the answers. A failed send offers Retry on the last question.
 */
export function AssessmentSteps() {
  const { attempt, question, answer, problem, result, sending, canContinue, last, setAnswer, next, previous, start } =
    useAssessmentAttempt();
  if (result?.status === "success") return <AssessmentResults answer={result} />;
  if (!attempt || !question) return <AssessmentIntro onStart={start} />;

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
      <AssessmentAnswer question={question} answer={answer} problem={problem} onAnswer={setAnswer} />
    </QuestionStep>
  );
}

/** The question's answer: a choice of A to D, or a box to type in, with the reason it was refused beside it. */
function AssessmentAnswer({
  question,
  answer,
  problem,
  onAnswer,
}: {
  question: AssessmentQuestion;
  answer: string | undefined;
  problem: string | undefined;
  onAnswer: (id: string, value: string) => void;
}) {
  return (
    <>
      {question.type === "select" ? (
        <ChoiceFieldset
          name={question.id}
          legend={question.question}
          options={question.options}
          value={answer as OptionId | undefined}
          onChange={(id) => onAnswer(question.id, id)}
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
          onChange={(event) => onAnswer(question.id, event.target.value)}
          errors={problem ? [problem] : undefined}
        />
      )}
      {question.type === "select" && problem && (
        <p role="alert" className="font-medium text-red-800">
          {problem}
        </p>
      )}
    </>
  );
}
