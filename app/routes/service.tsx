import { Link } from "react-router";
import { PageBanner } from "~/components/page-banner";
import { Picture } from "~/components/picture";
import { publicPageHandle } from "~/components/public-page-handle";
import { namedPageMeta } from "~/components/seo";
import { servicePages } from "~/content/services";
import { ContactSection } from "~/features/estimate/contact-section";
import { submitEstimate } from "~/features/estimate/submit-estimate.server";
import { siteContentOf } from "~/services/site-content/site-content-cache.server";
import type { Route } from "./+types/service";

/** One module serves the four service pages; the route table mounts it once per page path. */
export const loader = ({ request, context }: Route.LoaderArgs) => {
  const pathname = new URL(request.url).pathname.replace(/\/$/, "");
  const fixed = servicePages.find((candidate) => candidate.path === pathname);
  if (!fixed) throw new Response("Not Found", { status: 404 });
  const { services, contactSection, estimate } = siteContentOf(context);
  return { page: { path: fixed.path, ...services[fixed.id] }, contactSection, estimate };
};

export const handle = publicPageHandle;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [];
  const { page } = loaderData;
  return namedPageMeta(matches, {
    title: page.title,
    description: page.metaDescription,
    path: page.path,
    imageName: page.bannerImage.name,
  });
};

export const action = ({ request, context }: Route.ActionArgs) => submitEstimate(request, context);

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  const { page } = loaderData;
  return (
    <>
      <PageBanner image={page.bannerImage}>
        <p className="text-lg font-semibold text-brand-100">{page.bannerImageText}</p>
        <h1 className="mt-2 text-4xl font-extrabold tracking-tight text-white sm:text-5xl">{page.title}</h1>
      </PageBanner>
      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <div className="max-w-3xl space-y-5 text-lg leading-relaxed text-slate-700">
          {page.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 24)}>{paragraph}</p>
          ))}
        </div>
        <ul className="mt-10 grid gap-6 sm:grid-cols-3">
          {page.images.map((image) => (
            <li key={image.name}>
              <Picture
                image={image}
                sizes="(min-width: 1152px) 360px, (min-width: 640px) 33vw, 100vw"
                className="h-auto w-full rounded-xl shadow"
              />
            </li>
          ))}
        </ul>
        <Link to="/learnmore" className="button-primary mt-10">
          Learn More About Us
        </Link>
      </section>
      <ContactSection content={loaderData} />
    </>
  );
}
