import { company } from "./company";

/*
 * What a visitor is told happens after they sent something, beside the confirmation itself (whose words the
 * spec fixes). Placeholder promises, as the rest of the company's content.
 */

const urgent = `For anything urgent, call us at ${company.phone.display}.`;

export const nextSteps = {
  estimate: {
    commercial: `What happens next: our office calls you within one business day, at the time you asked for, to talk through the project and set up a site visit. ${urgent}`,
    residential: `Questions in the meantime? Call us at ${company.phone.display}.`,
  },
  application: `What happens next: our hiring team reads every application within five business days and calls you if there is a fit. ${urgent}`,
  assessment: `What happens next: our hiring team reviews your score with your application within five business days. Questions? Call us at ${company.phone.display}.`,
} as const;
