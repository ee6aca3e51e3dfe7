import * as z from "zod/mini";
import { aboutIntro, contactSection, valuePillars } from "./about";
import { skillsTests } from "./careers";
import { company } from "./company";
import { beforeAfterPairs, clientLogos, coveredBlurb, professionalBand, serviceTiles, testimonial } from "./home";
import { banners, heroImages, signatureImage } from "./images";
import { footerLinks, mainMenu } from "./navigation";
import { nextSteps } from "./next-steps";
import { phonePlaceholderFor } from "./phone";
import { consentLine, defaultPrivacyNotice } from "./privacy";
import { REQUIRED_MESSAGE } from "./required-message";
import { servicePages } from "./services";
import type { ServicePage } from "./types";

export { telHref, withPhone } from "./phone";

/*
 * Every word and photo of the public pages an admin may change, as one document: the published version is what
 * visitors see, a draft is what an admin works on. The shapes are those of the typed modules beside this file,
 * which make the defaults (a new site shows exactly them). Paths, the order of the menu and the layout are not
 * content: they stay in code.
 */

// Control characters other than tab, line feed and carriage return have no place in the site's words.
// biome-ignore lint/suspicious/noControlCharactersInRegex: this pattern exists to find them
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Required words of at most `max` characters (sized for where the layout shows them), trimmed. */
function words(label: string, max: number) {
  return z.string({ error: REQUIRED_MESSAGE }).check(
    z.trim(),
    z.minLength(1, REQUIRED_MESSAGE),
    z.maxLength(max, `${label} is too long (at most ${max} characters)`),
    z.refine((value) => !CONTROL_CHARACTERS.test(value), `${label} contains characters we cannot accept`),
  );
}

/** A list of `min` to `max` items; `noun` and `nouns` name one and several in the messages. */
function list<Item extends z.ZodMiniType>(item: Item, min: number, max: number, noun: string, nouns: string) {
  return z
    .array(item)
    .check(
      z.minLength(min, min === 1 ? `Add at least one ${noun}` : `Add at least ${min} ${nouns}`),
      z.maxLength(max, `There can be at most ${max} ${nouns}`),
    );
}

/** A slug that names an item of a list (a logo, a pair, a pillar), for the page's keys and the editor. */
const itemId = z.string({ error: REQUIRED_MESSAGE }).check(z.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, "Not a valid id"));

/** How the name of an uploaded photo starts; the build's images have none of them. */
export const UPLOADED_PHOTO_PREFIX = "site-";

/**
 * An image slot: `name` is the stem of its renditions (/images/<name>-<width>.<avif|webp|jpg>), a build image
 * ("hero-1") or an uploaded photo ("site-…"); width and height are the source's intrinsic size.
 */
export const imageRefSchema = z.object({
  name: z.string({ error: REQUIRED_MESSAGE }).check(z.regex(/^[a-z0-9][a-z0-9-]{0,99}$/, "Choose a photo")),
  alt: words("The photo's description", 250),
  width: z.int().check(z.positive()),
  height: z.int().check(z.positive()),
});

const DIGITS_OF_A_PHONE_NUMBER = /^\+?[0-9]{10,15}$/;

/** A phone number as people read it ("(803) 555-0142"); its link is worked out (telHref). */
function phoneNumber(label: string) {
  return words(label, 30).check(
    z.refine(
      (value) => DIGITS_OF_A_PHONE_NUMBER.test(value.replace(/[\s().-]/g, "")),
      "Enter a phone number such as (803) 555-0142",
    ),
  );
}

function webAddress(label: string) {
  return words(label, 300).check(
    z.refine((value) => /^https:\/\/[^\s/]+\.[^\s]+$/.test(value), "Enter a web address starting with https://"),
  );
}

const postalAddress = z.object({
  line1: words("The street or box", 100),
  city: words("The city", 60),
  region: words("The state", 30),
  postalCode: words("The ZIP code", 10),
});

const CLOCK_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const clockTime = z
  .string({ error: REQUIRED_MESSAGE })
  .check(z.regex(CLOCK_TIME, "Enter a time such as 07:00 (24-hour clock)"));

export const WEEK_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

const openingHours = z
  .object({
    label: words("The days' name", 40),
    days: list(z.enum(WEEK_DAYS, "Choose a day of the week"), 1, 7, "day", "days"),
    opens: clockTime,
    closes: clockTime,
  })
  .check(z.refine((period) => period.opens < period.closes, "The office must close after it opens"));

const companySchema = z.object({
  name: words("The company's name", 60),
  /** Where the full name does not fit: the staff tools' header, calendar names. */
  shortName: words("The short name", 30),
  tagline: words("The tagline", 120),
  /** The line at the top of every page (two lines at most on a phone). */
  serviceAreaLine: words("The service area line", 80),
  /** The places search engines are told the company serves. */
  areaServed: list(words("A place served", 80), 1, 12, "place", "places"),
  founded: z
    .int("Enter a year such as 2022")
    .check(z.gte(1800, "Enter a year such as 2022"), z.lte(2200, "Enter a year such as 2022")),
  phone: phoneNumber("The office phone"),
  afterHoursPhone: phoneNumber("The after-hours phone"),
  email: words("The office email", 254).check(
    z.refine((value) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value), "Enter an email address such as name@example.com"),
  ),
  street: postalAddress,
  mailing: postalAddress,
  hours: list(openingHours, 1, 7, "opening time", "opening times"),
  license: z.object({
    label: words("The license line", 120),
    number: words("The license number", 40),
    issuer: words("The licensing board", 120),
  }),
  insurance: words("The insurance line", 60),
  ceo: z.object({ name: words("The name", 80), title: words("The title", 80) }),
  social: z.object({ label: words("The link's words", 80), href: webAddress("The social page") }),
  designer: z.object({ label: words("The link's words", 80), href: webAddress("The designer's site") }),
  /** The office map's name for screen readers; the map itself follows the street address. */
  mapTitle: words("The map's description", 160),
  /** The about page's facts ("Currently taking commercial projects only"). */
  claims: list(words("A fact", 80), 1, 8, "fact", "facts"),
});

/** `{phone}` in these texts is replaced by the office phone as shown, so a new number reaches them too. */
const estimateSchemaTexts = z.object({
  /** Shown under "Residential" while it is chosen: the commercial-only claim, said before sending. */
  residentialNote: words("The note", 300),
  success: z.object({ commercial: words("The text", 300), residential: words("The text", 400) }),
  nextSteps: z.object({ commercial: words("The text", 400), residential: words("The text", 400) }),
});

const MAIN_MENU_IDS = ["home", "about", "lighting", "healthcare", "education", "commercial", "apply"] as const;
const FOOTER_LINK_IDS = ["about", "services", "contact"] as const;
export type MainMenuId = (typeof MAIN_MENU_IDS)[number];
export type FooterLinkId = (typeof FOOTER_LINK_IDS)[number];

const menuLabel = words("The menu label", 30);
const menuSchema = z.object({
  main: z.object(
    Object.fromEntries(MAIN_MENU_IDS.map((id) => [id, menuLabel])) as Record<MainMenuId, typeof menuLabel>,
  ),
  footer: z.object(
    Object.fromEntries(FOOTER_LINK_IDS.map((id) => [id, menuLabel])) as Record<FooterLinkId, typeof menuLabel>,
  ),
});

export const SERVICE_IDS = ["lighting", "healthcare", "education", "commercial"] as const;
export type ServiceId = (typeof SERVICE_IDS)[number];

const headedText = (heading: number, text: number) =>
  z.object({ heading: words("The heading", heading), text: words("The text", text) });

const serviceTile = z.object({ name: words("The tile's name", 40), image: imageRefSchema });

const homeSchema = z.object({
  welcomeLine: words("The welcome line", 80),
  heroImages: list(imageRefSchema, 1, 8, "photo", "photos"),
  professionalBand: z.object({
    heading: words("The heading", 80),
    text: words("The text", 300),
    buttonLabel: words("The button's words", 40),
  }),
  covered: z.object({
    heading: words("The heading", 80),
    text: words("The text", 400),
    points: list(words("A point", 40), 1, 6, "point", "points"),
  }),
  servicesHeading: words("The heading", 60),
  /** The service tiles, in the order of SERVICE_TILE_ORDER. */
  serviceTiles: z.object(
    Object.fromEntries(SERVICE_IDS.map((id) => [id, serviceTile])) as Record<ServiceId, typeof serviceTile>,
  ),
  beforeAfterPairs: list(
    z.object({ id: itemId, caption: words("The caption", 80), before: imageRefSchema, after: imageRefSchema }),
    2,
    6,
    "before and after pair",
    "before and after pairs",
  ),
  clientsHeading: words("The heading", 80),
  clientLogos: list(
    z.object({ id: itemId, name: words("The client's name", 80), image: imageRefSchema }),
    1,
    12,
    "client logo",
    "client logos",
  ),
  testimonials: list(
    z.object({
      quote: words("The quote", 600),
      reviewer: words("The reviewer's name", 80),
      organisation: words("The reviewer's role and organisation", 120),
    }),
    1,
    4,
    "testimonial",
    "testimonials",
  ),
});

const aboutSchema = z.object({
  intro: headedText(60, 600),
  bannerImage: imageRefSchema,
  pillars: list(
    z.object({ id: itemId, title: words("The title", 40), description: words("The description", 300) }),
    1,
    8,
    "value",
    "values",
  ),
  signature: imageRefSchema,
});

const servicePageSchema = z.object({
  title: words("The title", 50),
  metaDescription: words("The description for search engines", 200),
  bannerImage: imageRefSchema,
  bannerImageText: words("The banner's words", 80),
  images: list(imageRefSchema, 1, 6, "photo", "photos"),
  paragraphs: list(words("The paragraph", 1200), 1, 2, "paragraph", "paragraphs"),
});

const careersSchema = z.object({
  bannerImage: imageRefSchema,
  banner: z.object({
    eyebrow: words("The line above", 40),
    heading: words("The heading", 60),
    text: words("The text", 300),
  }),
  skillsTests: headedText(60, 300),
  tests: z.object({
    quiz: z.object({ name: words("The name", 40), description: words("The description", 300) }),
    assessment: z.object({ name: words("The name", 40), description: words("The description", 300) }),
  }),
  /** `{phone}` is replaced by the office phone. */
  applicationNextSteps: words("The text", 400),
  assessmentNextSteps: words("The text", 400),
});

/**
 * The privacy notice (/privacy). {company}, {email}, {phone} and {mailingAddress} stand for the published
 * facts, {resumeRetentionDays} and {spamRetentionDays} for the periods the retention job applies.
 */
const privacySchema = z.object({
  /** The line under the public forms, before the link to the notice ("... as our privacy notice explains."). */
  consentLine: words("The line under the forms", 200),
  title: words("The title", 60),
  updated: words("The date of the last change", 40),
  lead: words("The text", 600),
  sections: list(
    z.object({
      heading: words("The heading", 80),
      paragraphs: list(words("The paragraph", 1200), 1, 8, "paragraph", "paragraphs"),
    }),
    1,
    12,
    "section",
    "sections",
  ),
});

/** A page's title (the company's name is added to it) and its description for search engines. */
const pageMeta = z.object({ title: words("The title", 70), description: words("The description", 200) });

export const siteContentSchema = z.object({
  company: companySchema,
  estimate: estimateSchemaTexts,
  menu: menuSchema,
  home: homeSchema,
  about: aboutSchema,
  contactSection: headedText(60, 400),
  services: z.object(
    Object.fromEntries(SERVICE_IDS.map((id) => [id, servicePageSchema])) as Record<ServiceId, typeof servicePageSchema>,
  ),
  careers: careersSchema,
  privacy: privacySchema,
  pages: z.object({ home: pageMeta, about: pageMeta, apply: pageMeta }),
});

export type SiteContent = z.infer<typeof siteContentSchema>;

const withPhonePlaceholder = (text: string) => phonePlaceholderFor(text, company.phone.display);

function serviceContent(page: ServicePage): SiteContent["services"][ServiceId] {
  const { title, metaDescription, bannerImage, bannerImageText, images, paragraphs } = page;
  return { title, metaDescription, bannerImage, bannerImageText, images, paragraphs };
}

function servicePageById(id: ServiceId): ServicePage {
  const page = servicePages.find((candidate) => candidate.id === id);
  if (!page) throw new Error(`No service page ${id}`);
  return page;
}

function menuLabels<Id extends string>(ids: readonly Id[], items: { id: string; name: string }[]): Record<Id, string> {
  return Object.fromEntries(ids.map((id) => [id, items.find((item) => item.id === id)?.name ?? id])) as Record<
    Id,
    string
  >;
}

/** Today's site, from the typed modules: what a site shows until an admin publishes. */
export const defaultSiteContent: SiteContent = {
  company: {
    name: company.name,
    shortName: company.shortName,
    tagline: company.tagline,
    serviceAreaLine: company.serviceAreaLine,
    areaServed: [...company.areaServed],
    founded: company.founded,
    phone: company.phone.display,
    afterHoursPhone: company.afterHoursPhone.display,
    email: company.email,
    street: { ...company.street },
    mailing: { ...company.mailing },
    hours: company.hours.map((period) => ({ ...period, days: [...period.days] })),
    license: { ...company.license },
    insurance: company.insurance,
    ceo: { ...company.ceo },
    social: { ...company.social },
    designer: { ...company.designer },
    mapTitle: company.map.title,
    claims: [...company.claims],
  },
  estimate: {
    residentialNote:
      "Please note: we currently take commercial projects only. You can still send the form; we keep your details on file and will reach out if that changes.",
    success: {
      residential:
        "Thank you, we have received your request. We currently focus only on commercial projects, so we can't take on residential work right now, but we have kept your information on file and will reach out if that changes.",
      commercial: "Thank you, we have received your request and will reach out to you shortly.",
    },
    nextSteps: {
      commercial: withPhonePlaceholder(nextSteps.estimate.commercial),
      residential: withPhonePlaceholder(nextSteps.estimate.residential),
    },
  },
  menu: { main: menuLabels(MAIN_MENU_IDS, mainMenu), footer: menuLabels(FOOTER_LINK_IDS, footerLinks) },
  home: {
    welcomeLine: company.welcomeLine,
    heroImages,
    professionalBand: { ...professionalBand },
    covered: { ...coveredBlurb },
    servicesHeading: "Our services",
    serviceTiles: Object.fromEntries(
      serviceTiles.map((tile) => [tile.id, { name: tile.name, image: tile.image }]),
    ) as SiteContent["home"]["serviceTiles"],
    beforeAfterPairs,
    clientsHeading: "Trusted by schools and colleges",
    clientLogos,
    testimonials: [testimonial],
  },
  about: { intro: { ...aboutIntro }, bannerImage: banners.about, pillars: valuePillars, signature: signatureImage },
  contactSection: { ...contactSection },
  services: Object.fromEntries(
    SERVICE_IDS.map((id) => [id, serviceContent(servicePageById(id))]),
  ) as SiteContent["services"],
  careers: {
    bannerImage: banners.about,
    banner: {
      eyebrow: "Career Application",
      heading: "Join Our Team",
      text: "We are growing and looking for people who take pride in safe, quality work. Tell us about yourself and we will be in touch.",
    },
    skillsTests: { heading: skillsTests.heading, text: skillsTests.text },
    tests: {
      quiz: { name: skillsTests.tests[0].name, description: skillsTests.tests[0].description },
      assessment: { name: skillsTests.tests[1].name, description: skillsTests.tests[1].description },
    },
    applicationNextSteps: withPhonePlaceholder(nextSteps.application),
    assessmentNextSteps: withPhonePlaceholder(nextSteps.assessment),
  },
  privacy: { consentLine, ...structuredClone(defaultPrivacyNotice) },
  pages: {
    home: {
      title: "Commercial Electrical Contractor in the Tri County Area, SC",
      description:
        "Licensed commercial electrical contractor serving the Tri County area of South Carolina: lighting, healthcare, education and commercial electrical work.",
    },
    about: {
      title: "About Us",
      description:
        "Founded in 2022 with close to four decades of team experience, we are a licensed commercial electrical contractor serving the Carolinas.",
    },
    apply: {
      title: "Careers: Apply to Join Our Team",
      description:
        "Apply for a job as a helper, electrician, lead electrician, project or field manager, or office admin with our commercial electrical team in South Carolina.",
    },
  },
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `stored` over `fallback`, field by field: a field the stored value lacks (added by a later version of the
 * code) or holds as another type takes the fallback's value; what is there is kept. A stored list stays as it
 * is, its items given the fields they lack from the fallback's first item.
 */
function filledIn(fallback: unknown, stored: unknown): unknown {
  if (Array.isArray(fallback)) {
    if (!Array.isArray(stored)) return fallback;
    const template = fallback[0];
    return template === undefined ? stored : stored.map((item) => filledIn(template, item));
  }
  if (isRecord(fallback)) {
    if (!isRecord(stored)) return fallback;
    return Object.fromEntries(Object.entries(fallback).map(([key, value]) => [key, filledIn(value, stored[key])]));
  }
  return typeof stored === typeof fallback ? stored : fallback;
}

/**
 * Stored content (a version or a draft, written by this or an earlier version of the code) as this version's
 * SiteContent: the owner's words and photos as they are, a field added since with its default. Fields the code
 * no longer has are dropped.
 */
export function withDefaults(stored: unknown): SiteContent {
  return filledIn(defaultSiteContent, stored) as SiteContent;
}

const isImageRef = (value: Record<string, unknown>) =>
  typeof value.name === "string" && typeof value.alt === "string" && typeof value.width === "number";

/** The names of the uploaded photos (`site-…`) the content shows, each once: what a publish writes out. */
export function uploadedPhotoNames(content: SiteContent): string[] {
  const names = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isRecord(value)) {
      if (isImageRef(value) && String(value.name).startsWith(UPLOADED_PHOTO_PREFIX)) names.add(String(value.name));
      else Object.values(value).forEach(visit);
    }
  };
  visit(content);
  return [...names];
}
