import { defineFeature } from "~/forms/feature-manifest";
import { checklistForm } from "./definition";

export const feature = defineFeature({
  forms: [checklistForm],
  cards: [
    {
      category: "Project Management",
      position: 3,
      title: "Estimate Checklist",
      description: "The site survey for an estimate, with photos, filled in on a phone; the office gets its PDF.",
      path: "/admin/quick-links/estimate-checklist",
    },
  ],
});
