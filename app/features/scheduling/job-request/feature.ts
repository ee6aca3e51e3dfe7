import { defineFeature } from "~/forms/feature-manifest";
import { jobRequestForm } from "./definition";

export const feature = defineFeature({
  forms: [jobRequestForm],
  cards: [
    {
      category: "Project Management",
      position: 2,
      title: "Job Request Form",
      description: "Pass on a sold job with its amount and contact; its day goes to the scheduler's calendar.",
      path: "/admin/quick-links/job-request",
    },
  ],
});
