import type { SiteContent } from "./site-content";

/** What every page's header and footer show, which the root loader gives every page. */
export type SiteChrome = Pick<SiteContent, "company" | "menu"> & {
  careerTestNames: Record<keyof SiteContent["careers"]["tests"], string>;
  /** The line under the public forms, before the link to the privacy notice. */
  consentLine: string;
};

export function siteChromeOf({ company, menu, careers, privacy }: SiteContent): SiteChrome {
  return {
    company,
    menu,
    careerTestNames: { quiz: careers.tests.quiz.name, assessment: careers.tests.assessment.name },
    consentLine: privacy.consentLine,
  };
}
