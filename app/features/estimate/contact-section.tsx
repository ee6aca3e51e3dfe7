import { useSiteChrome } from "~/components/site-chrome";
import { formatAddress } from "~/content/company";
import { telHref } from "~/content/phone";
import type { SiteContent } from "~/content/site-content";
import { EstimateForm } from "~/features/estimate/estimate-form";

/** The section's words and the estimate form's, as the page's loader gives them. */
export type ContactSectionContent = Pick<SiteContent, "contactSection" | "estimate">;

/** The section at anchor #form: the free-estimate form and the office's contact details. */
export function ContactSection({ content }: { content: ContactSectionContent }) {
  const { company } = useSiteChrome();
  const { contactSection } = content;
  return (
    <section
      id="form"
      tabIndex={-1}
      aria-labelledby="contact-heading"
      className="scroll-mt-32 bg-brand-50 py-16 focus:outline-none"
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="contact-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          {contactSection.heading}
        </h2>
        <p className="mt-3 max-w-2xl text-lg text-slate-700">{contactSection.text}</p>
        <EstimateForm texts={content.estimate} />
        <dl className="mt-10 grid gap-6 sm:grid-cols-3">
          <div>
            <dt className="font-semibold text-brand-900">Phone</dt>
            <dd className="mt-1">
              <a
                href={telHref(company.phone)}
                className="inline-flex min-h-11 items-center text-lg underline underline-offset-4"
              >
                {company.phone}
              </a>
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-brand-900">Email</dt>
            <dd className="mt-1">
              <a
                href={`mailto:${company.email}`}
                className="inline-flex min-h-11 items-center text-lg underline underline-offset-4"
              >
                {company.email}
              </a>
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-brand-900">Office</dt>
            <dd className="mt-1 text-lg">{formatAddress(company.street)}</dd>
          </div>
        </dl>
      </div>
    </section>
  );
}
