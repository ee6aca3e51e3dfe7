import { PageBanner } from "~/components/page-banner";
import { publicPageHandle } from "~/components/public-page-handle";
import { publicPageMeta } from "~/components/seo";
import { siteChromeFromMatches } from "~/components/site-chrome";
import { siteUrlFromMatches } from "~/components/site-url";
import { banners } from "~/content/images";
import { privacyPath, privacyText } from "~/content/privacy";
import { SPAM_RETENTION_DAYS } from "~/features/inbox/retention.server";
import { siteContentOf } from "~/services/site-content/site-content-cache.server";
import type { Route } from "./+types/privacy";

export const handle = publicPageHandle;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const { company } = siteChromeFromMatches(matches);
  return publicPageMeta({
    title: `${loaderData?.title ?? "Privacy"} | ${company.name}`,
    description: `What ${company.name} collects through its estimate and job application forms, why, and how long it is kept.`,
    path: privacyPath,
    siteUrl: siteUrlFromMatches(matches),
    company,
    imageName: banners.about.name,
  });
};

/**
 * Rendered per request, not prerendered: the periods are the ones the running retention job applies, the words
 * those published (or previewed).
 */
export function loader({ context }: Route.LoaderArgs) {
  const content = siteContentOf(context);
  const retention = {
    resumeRetentionDays: context.config.RESUME_RETENTION_DAYS,
    spamRetentionDays: SPAM_RETENTION_DAYS,
  };
  const fill = (text: string) => privacyText(text, content, retention);
  const { title, updated, lead, sections } = content.privacy;
  return {
    title: fill(title),
    updated: fill(updated),
    lead: fill(lead),
    sections: sections.map((section) => ({ heading: fill(section.heading), paragraphs: section.paragraphs.map(fill) })),
  };
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageBanner image={banners.about}>
        <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{loaderData.title}</h1>
        <p className="mt-4 max-w-2xl text-lg text-slate-100">{loaderData.lead}</p>
      </PageBanner>
      <article className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <p className="text-sm text-slate-600">Last updated {loaderData.updated}</p>
        {loaderData.sections.map((section) => (
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
