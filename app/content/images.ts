import type { ImageRef } from "./types";

const photo = (name: string, alt: string): ImageRef => ({ name, alt, width: 960, height: 720 });
const banner = (name: string, alt: string): ImageRef => ({ name, alt, width: 1920, height: 640 });
const hero = (name: string, alt: string): ImageRef => ({ name, alt, width: 1920, height: 1080 });
const trio = (first: ImageRef, second: ImageRef, third: ImageRef): [ImageRef, ImageRef, ImageRef] => [
  first,
  second,
  third,
];

export const heroImages: ImageRef[] = [
  hero("hero-1", "A commercial building at dusk with lit windows and parking-lot lights"),
  hero("hero-2", "An electrician working at an open electrical panel"),
  hero("hero-3", "Overhead conduit runs and cable tray in a warehouse"),
  hero("hero-4", "A school building with LED walkway lighting"),
  hero("hero-5", "A bright hospital corridor with ceiling light fixtures"),
];

export const banners = {
  about: banner("banner-about", "Our service van and tools ready for the day's work"),
  lighting: banner("banner-lighting", "Modern pendant and LED lighting fixtures"),
  healthcare: banner("banner-healthcare", "A clinic building with its emergency power equipment"),
  education: banner("banner-education", "A school classroom under new LED lighting"),
  commercial: banner("banner-commercial", "An office and retail building at night"),
};

export const servicePhotos = {
  lighting: trio(
    photo("lighting-1", "LED high-bay fixtures over a school gymnasium"),
    photo("lighting-2", "Parking lot pole lights at night"),
    photo("lighting-3", "Architectural lighting washing a building facade"),
  ),
  healthcare: trio(
    photo("healthcare-1", "A standby generator and automatic transfer switch"),
    photo("healthcare-2", "A patient room headwall with outlets and medical gas"),
    photo("healthcare-3", "Surgical lights over an operating table"),
  ),
  education: trio(
    photo("education-1", "A classroom lit by flat LED panels"),
    photo("education-2", "Stadium lights over a school football field"),
    photo("education-3", "A fire alarm pull station and emergency light in a school hallway"),
  ),
  commercial: trio(
    photo("commercial-1", "Switchgear lined up in an electrical room"),
    photo("commercial-2", "A lit retail storefront"),
    photo("commercial-3", "A tenant fit-out with a new ceiling grid and light fixtures"),
  ),
};

export const signatureImage: ImageRef = {
  name: "signature",
  alt: "Signature of Jordan Example, Chief Executive Officer",
  width: 640,
  height: 200,
};
