import { PageBanner } from "~/components/page-banner";
import { publicPageHandle } from "~/components/public-page-handle";
import { publicPageMeta } from "~/components/seo";
import { siteChromeFromMatches } from "~/components/site-chrome";
import { siteUrlFromMatches } from "~/components/site-url";
import { banners } from "~/content/images";
import { privacyNotice, privacyPath } from "~/content/privacy";
import { SPAM_RETENTION_DAYS } from "~/features/inbox/retention.server";
import type { Route } from "./+types/privacy";

export const handle = publicPageHandle;

export const meta: Route.MetaFunction = ({ matches }) => {
  const { company } = siteChromeFromMatches(matches);
  return publicPageMeta({
    title: `${privacyNotice.title} | ${company.name}`,
    description: `What ${company.name} collects through its estimate and job application forms, why, and how long it is kept.`,
    path: privacyPath,
    siteUrl: siteUrlFromMatches(matches),
    company,
    imageName: banners.about.name,
  });
};

/** Rendered per request, not prerendered: the periods are the ones the running retention job applies. */
export const loader = ({ context }: Route.LoaderArgs) => ({
  resumeRetentionDays: context.config.RESUME_RETENTION_DAYS,
  spamRetentionDays: SPAM_RETENTION_DAYS,
});

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageBanner image={banners.about}>
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{privacyNotice.title}</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-100">{privacyNotice.lead}</p>
      </PageBanner>
      <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <p className="text-sm text-slate-600">Last updated {privacyNotice.updated}</p>
        {privacyNotice.sections(loaderData).map((section) => (
          <section key={section.heading} className="mt-10">
            <h2 className="text-2xl font-bold tracking-tight text-slate-900">{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph.slice(0, 32)} className="mt-4 text-lg leading-relaxed text-slate-700">
                {paragraph}
              </p>
            ))}
          </section>
        ))}
      </article>
    </>
  );
}
