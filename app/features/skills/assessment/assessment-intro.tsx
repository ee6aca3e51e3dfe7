import { Link } from "react-router";
import { useHydrated } from "~/components/use-hydrated";
import { assessmentQuestions, choiceQuestions, contactQuestions } from "./questions";

/** What the assessment is and how to take it. Without JavaScript, Start leads to the all-questions form. */
export function AssessmentIntro({ onStart }: { onStart: () => void }) {
  const hydrated = useHydrated();
  return (
    <section aria-labelledby="assessment-intro-heading" className="grid gap-5">
      <h2 id="assessment-intro-heading" className="text-2xl font-bold text-slate-900">
        Before you start
      </h2>
      <p className="text-lg text-slate-700">{assessmentQuestions.length} questions, about 10 minutes.</p>
      <ul className="grid list-disc gap-2 pl-6 text-slate-700">
        <li>
          Questions 1 to {contactQuestions.length} ask for your name, email and phone, so we can reach you about your
          results.
        </li>
        <li>
          Questions {contactQuestions.length + 1} to {assessmentQuestions.length} ({choiceQuestions.length} in all) are
          multiple choice on electrical work and the code: choose the one best answer.
        </li>
        <li>One question at a time: OK moves on, Previous goes back to change an answer.</li>
        <li>With a keyboard: A to D (or 1 to 4) choose an option, Enter continues, and the Left arrow goes back.</li>
        <li>Submit Assessment on the last question sends your answers and shows your score.</li>
      </ul>
      <div>
        {hydrated ? (
          <button type="button" className="button-primary" onClick={onStart}>
            Start Assessment
          </button>
        ) : (
          <Link to="?all" className="button-primary">
            Start Assessment
          </Link>
        )}
      </div>
    </section>
  );
}
