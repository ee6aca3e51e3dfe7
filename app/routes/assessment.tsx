import { publicPageMeta } from "~/components/seo";
import { siteChromeFromMatches } from "~/components/site-chrome";
import { siteUrlFromMatches } from "~/components/site-url";
import { type AssessmentActionResult, assessmentForm } from "~/features/skills/assessment/definition";
import { SkillsAssessment } from "~/features/skills/assessment/skills-assessment";
import { submitAssessment } from "~/features/skills/assessment/submit-assessment.server";
import { QuestionnairePage } from "~/features/skills/questionnaire-page";
import { formRoute } from "~/forms/form-route";
import type { Route } from "./+types/assessment";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { company } = siteChromeFromMatches(matches);
  return publicPageMeta({
    title: `Skills Assessment | ${company.name}`,
    description:
      "The electrical skills assessment for applicants: 18 questions on conduit bending, breakers, panels, grounding, the code and more, about 10 minutes.",
    path: "/assessment",
    siteUrl: siteUrlFromMatches(matches),
    company,
  });
};

export const action = ({ request, context }: Route.ActionArgs) => submitAssessment(request, context);

// Unreachable, the person gets a message and a Retry button and keeps every answer, not the error screen.
export const { clientAction, shouldRevalidate } = formRoute<AssessmentActionResult>(assessmentForm);

export default function Assessment() {
  return (
    <QuestionnairePage title="Skills Assessment" lead="Show us what you know about electrical work and the code.">
      <SkillsAssessment />
    </QuestionnairePage>
  );
}
