import { company } from "./company";
import { withPhone } from "./phone";

/*
 * The published company name, office phone and email, for words made once when a form's definition loads that must
 * name what an admin published since: the form platform's messages (app/forms/messages.ts), the emails' fixed
 * intros. The server sets them from the
 * published content each time it changes (kept on globalThis, so the server's own modules and the built app's
 * copy of them read one value); in the browser they are the ones the page was rendered with (root.tsx puts them
 * on <body>), which the public pages' script reads as well as React's.
 */
const PUBLISHED_COMPANY = Symbol.for("tce.publishedCompany");
type PublishedCompany = { name: string; phone: string; email: string };
const holder = globalThis as { [PUBLISHED_COMPANY]?: PublishedCompany };

export function setPublishedCompany(published: PublishedCompany): void {
  holder[PUBLISHED_COMPANY] = { name: published.name, phone: published.phone, email: published.email };
}

/** What root.tsx puts on <body>, for the browser: the facts the page was rendered with. */
export const PUBLISHED_COMPANY_ATTRIBUTES = { name: "data-company-name", phone: "data-office-phone" } as const;

const pageData = () => (typeof document === "undefined" ? undefined : document.body?.dataset);

/** The company's published name: a staff page's title, an email's fixed intro. */
export function publishedCompanyName(): string {
  return holder[PUBLISHED_COMPANY]?.name ?? pageData()?.companyName ?? company.name;
}

/** The office's published email address (the server's; the browser has no need of it). */
export function publishedOfficeEmail(): string {
  return holder[PUBLISHED_COMPANY]?.email ?? company.email;
}

/** The text with `{phone}` replaced by the published office phone (today's default until one is known). */
export function withOfficePhone(text: string): string {
  const phone = holder[PUBLISHED_COMPANY]?.phone ?? pageData()?.officePhone ?? company.phone.display;
  return withPhone(text, { company: { phone } });
}
