import { BeforeAfterSlider } from "~/components/before-after-slider";
import { HeroSlider } from "~/components/hero-slider";
import { ClientsAndTestimonials, CoveredBlurb, ProfessionalBand, ServiceTiles } from "~/components/home/home-sections";
import { publicPageHandle } from "~/components/public-page-handle";
import { publicPageMeta } from "~/components/seo";
import { siteChromeFromMatches } from "~/components/site-chrome";
import { siteUrlFromMatches } from "~/components/site-url";
import { siteContentOf } from "~/services/site-content/site-content-cache.server";
import type { Route } from "./+types/home";

export const handle = publicPageHandle;

export const loader = ({ context }: Route.LoaderArgs) => {
  const { home, pages } = siteContentOf(context);
  return { home, page: pages.home };
};

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { company } = siteChromeFromMatches(matches);
  if (!loaderData) return [];
  return publicPageMeta({
    title: `${company.name} | ${loaderData.page.title}`,
    description: loaderData.page.description,
    path: "/",
    siteUrl: siteUrlFromMatches(matches),
    company,
  });
};

export default function Home({ loaderData: { home } }: Route.ComponentProps) {
  return (
    <>
      <HeroSlider images={home.heroImages} welcomeLine={home.welcomeLine} />
      <ProfessionalBand professionalBand={home.professionalBand} />
      <CoveredBlurb covered={home.covered} />
      <ServiceTiles home={home} />
      <BeforeAfterSlider pairs={home.beforeAfterPairs} />
      <ClientsAndTestimonials home={home} />
    </>
  );
}
