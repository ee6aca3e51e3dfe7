import { publicPageMeta } from "~/components/seo";
import { siteChromeFromMatches } from "~/components/site-chrome";
import { siteUrlFromMatches } from "~/components/site-url";
import { QuestionnairePage } from "~/features/skills/questionnaire-page";
import { SkillsQuiz } from "~/features/skills/quiz/skills-quiz";
import type { Route } from "./+types/quiz";

export const meta: Route.MetaFunction = ({ matches }) => {
  const { company } = siteChromeFromMatches(matches);
  return publicPageMeta({
    title: `Skills Quiz | ${company.name}`,
    description:
      "A five-question practice quiz for electricians and helpers: conduit bends, wire sizes, box fill, safety gear and outlet heights.",
    path: "/quiz",
    siteUrl: siteUrlFromMatches(matches),
    company,
  });
};

export default function Quiz() {
  return (
    <QuestionnairePage title="Skills Quiz" lead="A short practice quiz before you apply to join our team.">
      <SkillsQuiz />
    </QuestionnairePage>
  );
}
