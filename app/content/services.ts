import { banners, servicePhotos } from "./images";
import type { ServicePage } from "./types";

export const servicePages: ServicePage[] = [
  {
    id: "lighting",
    path: "/lighting",
    title: "Professional Lighting",
    metaDescription:
      "LED retrofits, parking lot and site lighting, controls and emergency lighting for commercial buildings in the Tri County area of South Carolina.",
    bannerImage: banners.lighting,
    bannerImageText: "Light that works as hard as you do",
    images: servicePhotos.lighting,
    paragraphs: [
      "We design and install interior and exterior lighting for offices, warehouses, gyms and parking lots. Our LED retrofits swap tired fluorescent and metal-halide fixtures for fixtures that use a fraction of the energy, with occupancy sensors, daylight harvesting and time clocks that meet the energy code.",
      "Outside, we set poles, trench and pull new circuits for site and parking lighting, and we aim and test every fixture after dark. We also install and test emergency and exit lighting so your egress paths stay lit when the power goes out.",
    ],
  },
  {
    id: "healthcare",
    path: "/healthcare",
    title: "Healthcare",
    metaDescription:
      "Electrical work for clinics, medical offices and care facilities: essential power, generators, transfer switches and patient-area wiring.",
    bannerImage: banners.healthcare,
    bannerImageText: "Power that patients can count on",
    images: servicePhotos.healthcare,
    paragraphs: [
      "Clinics and medical offices cannot afford an outage. We install and maintain essential electrical systems: standby generators, automatic transfer switches, and the separate life safety, critical and equipment branches that keep care going when utility power fails.",
      "Inside, we wire exam and patient rooms with hospital-grade receptacles and the redundant grounding that patient care spaces require, and we plan our work around your schedule so patients are never in the way of a live circuit.",
    ],
  },
  {
    id: "education",
    path: "/education",
    title: "Education",
    metaDescription:
      "Classroom lighting, power and low-voltage work, fire alarm and emergency lighting for schools and colleges, done over breaks and after hours.",
    bannerImage: banners.education,
    bannerImageText: "Ready for the first bell",
    images: servicePhotos.education,
    paragraphs: [
      "Schools run on tight calendars, so we schedule the loud and disruptive work for summer, holiday breaks and evenings. We upgrade classroom lighting, add power for technology carts and smart boards, and replace aging panels and feeders.",
      "We also install gym and field lighting, fire alarm devices and emergency lighting, and we hand your facilities team clear panel schedules and as-built notes when we leave.",
    ],
  },
  {
    id: "commercial",
    path: "/commercial",
    title: "Commercial Electric",
    metaDescription:
      "Commercial electrical contracting: tenant fit-outs, service upgrades, switchgear, panel replacements and code corrections in South Carolina.",
    bannerImage: banners.commercial,
    bannerImageText: "Built for business",
    images: servicePhotos.commercial,
    paragraphs: [
      "From a single-suite tenant fit-out to a new service entrance, we handle commercial electrical work from estimate to final inspection. We size and install services, switchgear and distribution panels, run feeders and branch circuits, and correct the code violations that stand between you and a certificate of occupancy.",
      "Our project managers coordinate with your general contractor and the other trades, keep the schedule honest, and document every circuit so the next person to open the panel knows exactly what is on it.",
    ],
  },
];
