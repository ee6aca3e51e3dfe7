import type { FormEvent, ReactNode } from "react";
import { StepHeading } from "./step-heading";
import { StepProgress } from "./step-progress";

type QuestionStepProps = {
  /** 1-based. */
  step: number;
  total: number;
  progressLabel: string;
  children: ReactNode;
  nextLabel: string;
  nextDisabled: boolean;
  onNext: () => void;
  onPrevious: () => void;
  /** Shown between the question and the buttons: an error, a keyboard hint. */
  footer?: ReactNode;
};

/**
 * One question of a questionnaire shown one at a time: its heading (focused on arrival), the progress, the
 * question itself and the Previous / next buttons. It is a form, so Enter in a text field continues.
 */
export function QuestionStep(props: QuestionStepProps) {
  const { step, total, nextDisabled, onNext } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!nextDisabled) onNext();
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <div className="grid gap-3">
        <StepHeading key={step}>Question {step}</StepHeading>
        <StepProgress step={step} total={total} label={props.progressLabel} />
      </div>
      {props.children}
      {props.footer}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <button
          type="button"
          onClick={props.onPrevious}
          disabled={step === 1}
          className="button-secondary disabled:cursor-not-allowed disabled:opacity-50"
        >
          Previous
        </button>
        <button
          type="submit"
          disabled={nextDisabled}
          className="button-primary disabled:cursor-not-allowed disabled:bg-slate-400"
        >
          {props.nextLabel}
        </button>
      </div>
    </form>
  );
}
