import type { ValuePillar } from "./types";

export const aboutIntro = {
  heading: "About us",
  text: "We are a licensed electrical contractor based in Sumter, South Carolina. Founded in 2022, our team brings close to four decades of combined experience to schools, clinics and businesses across the Carolinas. We currently take commercial projects only.",
};

export const valuePillars: ValuePillar[] = [
  {
    id: "quality",
    title: "Quality",
    description:
      "Work built to the National Electrical Code and inspected before we call it done, so it passes the first time.",
  },
  {
    id: "experience",
    title: "Experience",
    description:
      "Close to four decades of combined field experience in commercial, education and healthcare buildings.",
  },
  {
    id: "reliability",
    title: "Reliability",
    description: "Clear schedules, crews that arrive on time, and a project manager who answers the phone.",
  },
  {
    id: "integrity",
    title: "Integrity",
    description: "Honest estimates, no surprise change orders, and straight answers about what your building needs.",
  },
];

export const contactSection = {
  heading: "Request a free estimate",
  text: "Tell us about your project and we will set up a time to walk the site. Prefer to talk? Call the office or send us an email.",
};
