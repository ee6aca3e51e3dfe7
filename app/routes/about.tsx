import { OfficeMap } from "~/components/office-map";
import { PageBanner } from "~/components/page-banner";
import { Picture } from "~/components/picture";
import { publicPageHandle } from "~/components/public-page-handle";
import { ScrollToSectionLink } from "~/components/scroll-to-section-link";
import { namedPageMeta } from "~/components/seo";
import { useSiteChrome } from "~/components/site-chrome";
import { TrustDetails } from "~/components/trust-details";
import { telHref } from "~/content/phone";
import { ContactSection } from "~/features/estimate/contact-section";
import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import { siteContentOf } from "~/services/site-content/site-content-cache.server";
import type { Route } from "./+types/about";

export const handle = publicPageHandle;

export const loader = ({ context }: Route.LoaderArgs) => {
  const { about, contactSection, estimate, pages } = siteContentOf(context);
  return { about, contactSection, estimate, page: pages.about };
};

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  loaderData
    ? namedPageMeta(matches, { ...loaderData.page, path: "/learnmore", imageName: loaderData.about.bannerImage.name })
    : [];

export const action = ({ request, context }: Route.ActionArgs) => submitEstimate(request, context);

export default function About({ loaderData }: Route.ComponentProps) {
  const { company } = useSiteChrome();
  const { intro: aboutIntro, pillars: valuePillars, signature: signatureImage, bannerImage } = loaderData.about;
  return (
    <>
      <PageBanner image={bannerImage}>
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{aboutIntro.heading}</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-100">{aboutIntro.text}</p>
        <ScrollToSectionLink targetId="form" className="button-primary mt-8">
          Contact Us
        </ScrollToSectionLink>
      </PageBanner>

      <section aria-labelledby="claims-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="claims-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          Who we are
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {company.claims.map((claim) => (
            <li
              key={claim}
              className="rounded-xl border-l-4 border-brand-700 bg-brand-50 p-5 font-semibold text-slate-900"
            >
              {claim}
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="values-heading" className="bg-slate-50 py-16">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="values-heading" className="text-3xl font-bold tracking-tight text-slate-900">
            Our values
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {valuePillars.map((pillar) => (
              <li key={pillar.id} className="rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <h3 className="text-xl font-bold text-brand-800">{pillar.title}</h3>
                <p className="mt-2 text-slate-700">{pillar.description}</p>
              </li>
            ))}
          </ul>
          <div className="mt-12 flex flex-col items-start gap-2">
            <Picture image={signatureImage} sizes="320px" className="h-auto w-64" />
            <p className="font-semibold text-slate-900">{company.ceo.name}</p>
            <p className="text-slate-700">{company.ceo.title}</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="trust-heading mailing-heading" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 id="trust-heading" className="text-3xl font-bold tracking-tight text-slate-900">
          Licensed, insured, and easy to reach
        </h2>
        <TrustDetails className="mt-6 grid gap-4 text-lg sm:grid-cols-3" />
        <h2 id="mailing-heading" className="mt-12 text-3xl font-bold tracking-tight text-slate-900">
          Mailing address
        </h2>
        <address className="mt-4 text-lg leading-relaxed not-italic">
          {company.name}
          <br />
          {company.mailing.line1}
          <br />
          {company.mailing.city}, {company.mailing.region} {company.mailing.postalCode}
          <br />
          Office: <a href={telHref(company.phone)}>{company.phone}</a>
        </address>
        <OfficeMap />
      </section>

      <ContactSection content={loaderData} />
    </>
  );
}
