import { SERVICE_IDS, type SiteContent } from "~/content/site-content";

/** Where a value sits in the site's content: keys and list positions, as `home.testimonials.0.quote` spells it. */
export type ContentPath = readonly (string | number)[];

/** One screen of the editor: the parts of the content it edits, and the public page they show on. */
export type SiteSection = { id: string; title: string; parts: readonly ContentPath[]; pagePath?: string };

const SERVICE_TITLES: Record<(typeof SERVICE_IDS)[number], string> = {
  lighting: "Lighting page",
  healthcare: "Healthcare page",
  education: "Education page",
  commercial: "Commercial page",
};

/** One screen per public page, then the company's facts and the menu. */
export const SITE_SECTIONS: readonly SiteSection[] = [
  { id: "home", title: "Home page", parts: [["pages", "home"], ["home"], ["contactSection"]], pagePath: "/" },
  { id: "about", title: "About page", parts: [["pages", "about"], ["about"]], pagePath: "/learnmore" },
  ...SERVICE_IDS.map((id) => ({ id, title: SERVICE_TITLES[id], parts: [["services", id]], pagePath: `/${id}` })),
  { id: "careers", title: "Careers page", parts: [["pages", "apply"], ["careers"]], pagePath: "/apply" },
  { id: "privacy", title: "Privacy notice", parts: [["privacy"]], pagePath: "/privacy" },
  { id: "company", title: "Company facts", parts: [["company"], ["estimate"]] },
  { id: "menu", title: "Menu", parts: [["menu"]] },
];

/** The public pages the preview shows, each named as its editor screen is. */
export const PREVIEW_PAGES = SITE_SECTIONS.flatMap((section) =>
  section.pagePath ? [{ path: section.pagePath, title: section.title }] : [],
);

export const siteSectionById = (id: string) => SITE_SECTIONS.find((section) => section.id === id);

export const fieldNameOf = (path: ContentPath) => path.join(".");

/** The value at `path`, or undefined. */
export function valueAt(root: unknown, path: ContentPath): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** A copy of `root` with `value` at `path` (objects and lists on the way copied, nothing else). */
export function withValueAt<Root>(root: Root, path: ContentPath, value: unknown): Root {
  const [key, ...rest] = path;
  if (key === undefined) return value as Root;
  const copy = (Array.isArray(root) ? [...root] : { ...(root as object) }) as Record<string | number, unknown>;
  copy[key] = withValueAt(copy[key], rest, value);
  return copy as Root;
}

/** An image slot's value: a build image or an uploaded photo, its description and its fixed size. */
export type ImageSlot = { name: string; alt: string; width: number; height: number };

export const isImageSlot = (value: unknown): value is ImageSlot =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  "name" in value &&
  "alt" in value &&
  "width" in value &&
  "height" in value;

/** The parts a section edits, from the whole content: what its form shows. */
export const sectionValues = (section: SiteSection, content: SiteContent) =>
  section.parts.map((part) => valueAt(content, part));

/** Keys whose words, made from the key, would not say what they are. */
const LABELS: Record<string, string> = {
  ceo: "Chief executive",
  updated: "Last updated",
  areaServed: "Places served",
  mapTitle: "The map's description",
  heroImages: "Slideshow photos",
  beforeAfterPairs: "Before and after pairs",
  href: "Web address",
  line1: "Street or box",
  region: "State",
  postalCode: "ZIP code",
  claims: "Facts",
};

/** Words for a key: `clientLogos` reads "Client logos". */
export function labelOf(key: string): string {
  const label = LABELS[key];
  if (label) return label;
  const spaced = key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${spaced.charAt(0).toUpperCase()}${spaced.slice(1)}`;
}

/** What one item of a list is called: "Testimonial 2", "Client logo 1". */
export function itemLabelOf(listKey: string, index: number): string {
  const one = labelOf(listKey).replace(/ies$/, "y").replace(/s$/, "");
  return `${one} ${index + 1}`;
}

/** The keys of a list that may be added to, removed from and reordered; the schema holds their counts. */
export const LIST_INTENTS = ["add", "remove", "up", "down"] as const;
export type ListIntent = (typeof LIST_INTENTS)[number];
