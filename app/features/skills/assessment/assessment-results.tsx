import { StepHeading } from "~/features/skills/step-heading";
import type { AssessmentActionResult } from "./definition";

/**
 * The score the server worked out (which answers were right is never sent), and what happens next in the
 * published words.
 */
export function AssessmentResults({ answer }: { answer: Extract<AssessmentActionResult, { status: "success" }> }) {
  const { score, feedback, reference, nextStep } = answer;
  return (
    <section className="grid gap-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <StepHeading>Assessment complete</StepHeading>
      <p className="text-2xl font-bold text-slate-900">{feedback}</p>
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-xl bg-brand-50 p-4">
          <dt className="font-semibold text-brand-900">Score</dt>
          <dd className="mt-1 text-3xl font-extrabold text-slate-900">{score.percentage}%</dd>
        </div>
        <div className="rounded-xl bg-brand-50 p-4">
          <dt className="font-semibold text-brand-900">Correct answers</dt>
          <dd className="mt-1 text-3xl font-extrabold text-slate-900">{score.correct}</dd>
        </div>
        <div className="rounded-xl bg-brand-50 p-4">
          <dt className="font-semibold text-brand-900">Scored questions</dt>
          <dd className="mt-1 text-3xl font-extrabold text-slate-900">{score.total}</dd>
        </div>
      </dl>
      <p className="text-slate-700">
        Your reference number is <strong className="font-mono">{reference}</strong>.
      </p>
      <p className="text-slate-700">Thank you. Your answers are with our hiring team, who will be in touch.</p>
      <p className="text-slate-700">{nextStep}</p>
    </section>
  );
}
