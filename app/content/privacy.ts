import { formatAddress } from "./company";

/** The privacy notice's retention periods, from the configuration the retention job reads. */
export type RetentionPeriods = { resumeRetentionDays: number; spamRetentionDays: number };

/*
 * The privacy notice as the site starts with it: the defaults of the site's content (`privacy`), which an admin
 * edits. Facts kept elsewhere are written as placeholders, filled in when the page is shown (privacyText), so
 * the notice names the company's published name, email, phone and mailing address and the periods the running
 * retention job applies.
 */
export const PRIVACY_PLACEHOLDERS = [
  "{company}",
  "{email}",
  "{phone}",
  "{mailingAddress}",
  "{resumeRetentionDays}",
  "{spamRetentionDays}",
] as const;

export const defaultPrivacyNotice = {
  title: "Privacy & Terms",
  updated: "November 2026",
  lead: "{company} collects only what it needs to answer an estimate request or an application. This notice says what that is, why, and how long we keep it. (The company and its details are placeholders.)",
  sections: [
    {
      heading: "What we collect",
      paragraphs: [
        "From an estimate request: your name, email, phone, city, the kind of project, how and when you like to be contacted, and your comments.",
        "From a job application: your contact details and address, the answers to the application's questions (transportation, education, experience, certifications, military service and criminal background), and your resume.",
        "From the skills assessment: your name, email, phone and answers, and the score they give.",
        "With each of them, the address your device connected from and the time, to keep the forms free of abuse.",
      ],
    },
    {
      heading: "Why we use it",
      paragraphs: [
        "To call or write back about your project, or about your application and a possible job with us. Our office staff and project managers read it; nobody outside the company does, except the services that carry it to us (our email provider and our scheduling system).",
        "We do not sell it, and we do not use it for advertising.",
      ],
    },
    {
      heading: "How long we keep it",
      paragraphs: [
        "Applications are kept while we consider them. When an application is declined, its resume is deleted {resumeRetentionDays} days later; the application's answers stay in our hiring records.",
        "Estimate requests stay in our customer records for as long as we may work on the project.",
        "Messages our filters take for spam are deleted after {spamRetentionDays} days.",
      ],
    },
    {
      heading: "Your choices",
      paragraphs: [
        "To see, correct or delete what we hold about you, write to {email} or call {phone}. Our mailing address is {mailingAddress}.",
      ],
    },
    {
      heading: "Terms",
      paragraphs: [
        "The information on this site describes our services in general. An estimate becomes an offer only in writing, signed by our office.",
      ],
    },
  ],
};

type PrivacyFacts = {
  company: { name: string; email: string; phone: string; mailing: Parameters<typeof formatAddress>[0] };
};

/** A text of the notice with its placeholders filled in from the published facts and the retention periods. */
export function privacyText(text: string, { company: facts }: PrivacyFacts, retention: RetentionPeriods): string {
  const values: Record<(typeof PRIVACY_PLACEHOLDERS)[number], string> = {
    "{company}": facts.name,
    "{email}": facts.email,
    "{phone}": facts.phone,
    "{mailingAddress}": formatAddress(facts.mailing),
    "{resumeRetentionDays}": String(retention.resumeRetentionDays),
    "{spamRetentionDays}": String(retention.spamRetentionDays),
  };
  return PRIVACY_PLACEHOLDERS.reduce(
    (filled, placeholder) => filled.replaceAll(placeholder, values[placeholder]),
    text,
  );
}

/** The short consent line under the public forms (the default of the content's `privacy.consentLine`). */
export const consentLine = "By sending this form you agree that we keep your answers to reply to you, as our";
export const privacyPath = "/privacy";
