import { useState } from "react";
import { Link } from "react-router";
import { useHydrated } from "~/components/use-hydrated";
import type { OptionId } from "~/features/skills/choice";
import { ChoiceFieldset } from "~/features/skills/choice-fieldset";
import { QuestionStep } from "~/features/skills/question-step";
import { StepHeading } from "~/features/skills/step-heading";
import { quizQuestions } from "./questions";

type QuizState = { phase: "start" } | { phase: "question"; index: number } | { phase: "complete" };

/** Before the first question: what the quiz is, and Start, disabled until the page's script has run. */
function QuizStart({ restarted, onStart }: { restarted: boolean; onStart: () => void }) {
  // The page is prerendered: until the script has run, Start cannot work, so it says so by being disabled.
  const hydrated = useHydrated();
  return (
    <section className="grid gap-4">
      <StepHeading key="start" autoFocus={restarted}>
        Before you start
      </StepHeading>
      <p className="text-lg text-slate-700">
        {quizQuestions.length} questions, about 5 minutes. Each question has one best answer: choose A, B or C.
      </p>
      <noscript>
        <p className="font-semibold text-red-900">
          The quiz runs in your browser: please turn on JavaScript to take it.
        </p>
      </noscript>
      <div>
        <button type="button" disabled={!hydrated} className="button-primary disabled:opacity-70" onClick={onStart}>
          Start Quiz
        </button>
      </div>
    </section>
  );
}

/** After the last question: the letters chosen, Take Quiz Again and the way on to the application. */
function QuizComplete({ answers, onRestart }: { answers: Record<string, OptionId>; onRestart: () => void }) {
  return (
    <section className="grid gap-5">
      <StepHeading key="complete">Quiz complete</StepHeading>
      <p className="text-lg text-slate-700">Thank you for taking the quiz. Your answers:</p>
      <ol className="grid gap-2">
        {quizQuestions.map((question, index) => (
          <li key={question.id} className="rounded-lg bg-slate-50 px-4 py-3">
            Question {index + 1}: <strong>{answers[question.id]}</strong>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <button type="button" className="button-secondary" onClick={onRestart}>
          Take Quiz Again
        </button>
        <Link to="/apply" className="button-primary">
          Continue to Application
        </Link>
      </div>
    </section>
  );
}

/** The practice quiz: start, five questions, then the letters chosen. Nothing is sent anywhere. */
export function SkillsQuiz() {
  const [state, setState] = useState<QuizState>({ phase: "start" });
  const [answers, setAnswers] = useState<Record<string, OptionId>>({});
  // On a fresh page the start screen leaves the focus alone; after Take Quiz Again it takes it.
  const [restarted, setRestarted] = useState(false);

  if (state.phase === "start")
    return <QuizStart restarted={restarted} onStart={() => setState({ phase: "question", index: 0 })} />;
  if (state.phase === "complete") {
    const restart = () => {
      setAnswers({});
      setRestarted(true);
      setState({ phase: "start" });
    };
    return <QuizComplete answers={answers} onRestart={restart} />;
  }

  const { index } = state;
  const question = quizQuestions[index];
  if (!question) return null;
  const last = index === quizQuestions.length - 1;
  return (
    <QuestionStep
      step={index + 1}
      total={quizQuestions.length}
      progressLabel="Quiz progress"
      nextLabel={last ? "Finish Quiz" : "Next"}
      nextDisabled={answers[question.id] === undefined}
      onNext={() => setState(last ? { phase: "complete" } : { phase: "question", index: index + 1 })}
      onPrevious={() => setState({ phase: "question", index: Math.max(0, index - 1) })}
    >
      <ChoiceFieldset
        name={`quiz-${question.id}`}
        legend={question.question}
        options={question.options}
        value={answers[question.id]}
        onChange={(id) => setAnswers({ ...answers, [question.id]: id })}
      />
    </QuestionStep>
  );
}
