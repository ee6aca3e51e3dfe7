import { Form, useNavigation } from "react-router";
import { ChoiceFieldset } from "~/components/questionnaire/choice-fieldset";
import { ContactField } from "./contact-field";
import type { AssessmentActionResult } from "./definition";
import { assessmentQuestions } from "./questions";

type Refused = Extract<AssessmentActionResult, { status: "invalid" | "error" }>;

/**
 * Every question on one page, as a plain HTML form posting to the same action: the assessment without
 * JavaScript. A refused post comes back with the answers as given and the reason beside each.
 */
export function AssessmentForm({ refused }: { refused?: Refused }) {
  const busy = useNavigation().state === "submitting";
  const sent = refused?.status === "invalid" ? refused.result.initialValue : undefined;
  const given = (id: string) => (typeof sent?.[id] === "string" ? sent[id] : undefined);
  const problems = refused?.status === "invalid" ? refused.problems : {};
  return (
    <Form method="post" className="grid gap-8">
      <h2 className="text-2xl font-bold text-slate-900">All {assessmentQuestions.length} questions</h2>
      {refused && (
        <p role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 font-medium text-red-900">
          {refused.message}
        </p>
      )}
      <ol className="grid gap-6">
        {assessmentQuestions.map((question, index) => (
          <li key={question.id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
            <p className="mb-3 text-sm font-semibold tracking-widest text-brand-800 uppercase">Question {index + 1}</p>
            {question.type === "select" ? (
              <>
                <ChoiceFieldset
                  name={question.id}
                  legend={question.question}
                  options={question.options}
                  defaultValue={given(question.id)}
                  required
                />
                {problems[question.id] && <p className="mt-2 font-medium text-red-800">{problems[question.id]}</p>}
              </>
            ) : (
              <ContactField question={question} defaultValue={given(question.id)} problem={problems[question.id]} />
            )}
          </li>
        ))}
      </ol>
      <div>
        <button type="submit" disabled={busy} className="button-primary disabled:cursor-wait disabled:opacity-70">
          {busy ? "Submitting..." : "Submit Assessment"}
        </button>
      </div>
    </Form>
  );
}
