import { Form } from "react-router";
import { FORM_OUTCOME_ID, OutcomeAlert } from "~/components/forms/alert";
import { useActionAtOutcome } from "~/components/forms/form-outcome";
import { SubmitButton } from "~/components/forms/submit-button";
import { TextField } from "~/components/forms/text-field";
import { usePending } from "~/components/forms/use-pending";
import { ChoiceFieldset } from "~/features/skills/choice-fieldset";
import type { AssessmentActionResult } from "./definition";
import { assessmentQuestions } from "./questions";
import { answerLengthLimits } from "./schema";

type Refused = Extract<AssessmentActionResult, { status: "invalid" | "error" }>;

/**
 * Every question on one page, as a plain HTML form posting to the same action: the assessment without
 * JavaScript. A refused post comes back with the answers as given and the reason beside each.
 */
export function AssessmentForm({ refused }: { refused?: Refused }) {
  const busy = usePending();
  const action = useActionAtOutcome();
  const sent = refused?.status === "invalid" ? refused.result.initialValue : undefined;
  const given = (id: string) => (typeof sent?.[id] === "string" ? sent[id] : undefined);
  const problems = refused?.status === "invalid" ? refused.problems : {};
  return (
    <Form method="post" action={action} className="grid gap-8">
      <h2 className="text-2xl font-bold text-slate-900">All {assessmentQuestions.length} questions</h2>
      <OutcomeAlert
        id={FORM_OUTCOME_ID}
        outcome={refused && { status: "error", message: refused.message }}
        revealOn={refused}
      />
      <ol className="grid gap-6">
        {assessmentQuestions.map((question, index) => {
          const problem = problems[question.id];
          return (
            <li key={question.id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
              <p className="mb-3 text-sm font-semibold tracking-widest text-brand-800 uppercase">
                Question {index + 1}
              </p>
              {question.type === "select" ? (
                <>
                  <ChoiceFieldset
                    name={question.id}
                    legend={question.question}
                    options={question.options}
                    defaultValue={given(question.id)}
                    required
                  />
                  {problem && <p className="mt-2 font-medium text-red-800">{problem}</p>}
                </>
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
                  defaultValue={given(question.id)}
                  errors={problem ? [problem] : undefined}
                />
              )}
            </li>
          );
        })}
      </ol>
      <div>
        <SubmitButton busy={busy} busyLabel="Submitting...">
          Submit Assessment
        </SubmitButton>
      </div>
    </Form>
  );
}
