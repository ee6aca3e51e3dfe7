import { useActionData, useSearchParams } from "react-router";
import { AssessmentForm } from "./assessment-form";
import { AssessmentResults } from "./assessment-results";
import { AssessmentSteps } from "./assessment-steps";
import type { AssessmentActionResult } from "./definition";

/**
 * The skills assessment: one question at a time with JavaScript; every question on one form at `?all`, which
 * is where Start leads without JavaScript. Both post to the same action.
 */
export function SkillsAssessment() {
  const posted = useActionData<AssessmentActionResult>();
  const [searchParams] = useSearchParams();
  if (posted?.status === "success") return <AssessmentResults answer={posted} />;
  if (posted || searchParams.has("all")) return <AssessmentForm refused={posted} />;
  return <AssessmentSteps />;
}
