import { defineFeature } from "~/forms/feature-manifest";
import { assessmentForm } from "./definition";

export const feature = defineFeature({
  forms: [assessmentForm],
  cards: [
    {
      category: "Team Management",
      position: 3,
      title: "Electrical Assessment",
      description: "The 18-question skills assessment. Copy the link to send it to an applicant.",
      path: "/assessment",
    },
  ],
});
