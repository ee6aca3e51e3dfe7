import type { MetaDescriptor } from "react-router";
import type { SiteContent } from "~/content/site-content";
import { siteChromeFromMatches } from "./site-chrome";
import { siteUrlFromMatches } from "./site-url";

type Company = SiteContent["company"];

export type PageSeo = {
  title: string;
  description: string;
  path: string;
  siteUrl: string;
  company: Company;
  imageName?: string;
};

/** Title, description, canonical URL, Open Graph tags and the Electrician JSON-LD of a public page. */
export function publicPageMeta({
  title,
  description,
  path,
  siteUrl,
  company,
  imageName = "hero-1",
}: PageSeo): MetaDescriptor[] {
  const url = `${siteUrl}${path === "/" ? "/" : path}`;
  const image = `${siteUrl}/images/${imageName}-1280.jpg`;
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: company.name },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
    { "script:ld+json": electricianJsonLd(siteUrl, company) },
  ];
}

function electricianJsonLd(siteUrl: string, company: Company) {
  return {
    "@context": "https://schema.org",
    "@type": "Electrician",
    name: company.name,
    url: `${siteUrl}/`,
    telephone: company.phone,
    email: company.email,
    foundingDate: String(company.founded),
    image: `${siteUrl}/images/hero-1-1280.jpg`,
    address: {
      "@type": "PostalAddress",
      streetAddress: company.street.line1,
      addressLocality: company.street.city,
      addressRegion: company.street.region,
      postalCode: company.street.postalCode,
      addressCountry: "US",
    },
    areaServed: company.areaServed.map((name) => ({ "@type": "AdministrativeArea", name })),
    openingHoursSpecification: company.hours.map((period) => ({
      "@type": "OpeningHoursSpecification",
      dayOfWeek: period.days,
      opens: period.opens,
      closes: period.closes,
    })),
    hasCredential: {
      "@type": "EducationalOccupationalCredential",
      credentialCategory: "license",
      name: company.license.label,
      identifier: company.license.number,
      recognizedBy: { "@type": "GovernmentOrganization", name: company.license.issuer },
    },
  };
}

type Matches = Parameters<typeof siteChromeFromMatches>[0];

/** A public page's tags, its title followed by the company's name, from what the root loader gave every page. */
export function namedPageMeta(
  matches: Matches,
  page: { title: string; description: string; path: string; imageName?: string },
): MetaDescriptor[] {
  const { company } = siteChromeFromMatches(matches);
  return publicPageMeta({
    ...page,
    title: `${page.title} | ${company.name}`,
    siteUrl: siteUrlFromMatches(matches),
    company,
  });
}
