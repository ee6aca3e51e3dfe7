import { defineFeature } from "~/forms/feature-manifest";
import { estimateRequestForm } from "./definition";

export const feature = defineFeature({
  forms: [estimateRequestForm],
  cards: [
    {
      category: "Project Management",
      position: 1,
      title: "Estimate Request Form",
      description: "Hand an estimate visit to a project manager, with a calendar invite for the appointment.",
      path: "/admin/quick-links/estimate-request",
    },
  ],
});
