import { servicePhotos } from "./images";
import type { ServiceId } from "./site-content";
import type { BeforeAfterPair, ClientLogo, ServiceTile, Testimonial } from "./types";

export const professionalBand = {
  heading: "Your professional electrical contractor",
  text: "From a single panel upgrade to a full building fit-out, our licensed crews plan the work, pull the permits and finish on schedule.",
  buttonLabel: "Learn more about us",
};

export const coveredBlurb = {
  heading: "We've got you covered",
  text: "On-time service, panel upgrades and hazard inspections, handled by a team that shows up when it says it will and leaves every site cleaner than it found it.",
  points: ["On-time service", "Panel upgrades", "Hazard inspections"],
};

/** The tiles in their order; their names and photos are the site's content (site-content.ts). */
export const serviceTiles: (ServiceTile & { id: ServiceId })[] = [
  { id: "commercial", name: "Commercial Electric", image: servicePhotos.commercial[0], path: "/commercial" },
  { id: "education", name: "Education", image: servicePhotos.education[0], path: "/education" },
  { id: "healthcare", name: "Healthcare", image: servicePhotos.healthcare[0], path: "/healthcare" },
  { id: "lighting", name: "Professional Lighting", image: servicePhotos.lighting[0], path: "/lighting" },
];

const pairImage = (name: string, alt: string) => ({ name, alt, width: 960, height: 720 });

export const beforeAfterPairs: BeforeAfterPair[] = [
  {
    id: "panel",
    caption: "Panel replacement",
    before: pairImage("before-1", "Before: an old panel with tangled, unlabelled wiring"),
    after: pairImage("after-1", "After: a new panel with neat, labelled circuits"),
  },
  {
    id: "retrofit",
    caption: "LED lighting retrofit",
    before: pairImage("before-2", "Before: a dim room lit by old fluorescent tubes"),
    after: pairImage("after-2", "After: the same room lit by bright LED panels"),
  },
];

const logo = (name: string, alt: string) => ({ name, alt, width: 320, height: 160 });

export const clientLogos: ClientLogo[] = [
  { id: "palmetto-ridge", name: "Palmetto Ridge Academy", image: logo("logo-1", "Palmetto Ridge Academy") },
  { id: "wateree-tech", name: "Wateree Technical College", image: logo("logo-2", "Wateree Technical College") },
  { id: "santee-valley", name: "Santee Valley Elementary", image: logo("logo-3", "Santee Valley Elementary") },
  { id: "congaree-lakes", name: "Congaree Lakes High School", image: logo("logo-4", "Congaree Lakes High School") },
];

export const testimonial: Testimonial = {
  quote:
    "They rewired two wings of our campus over the summer break and had every classroom lit and inspected before the teachers came back. The crew was careful, tidy and easy to reach.",
  reviewer: "Dana Placeholder",
  organisation: "Facilities Director, Palmetto Ridge Academy",
};
