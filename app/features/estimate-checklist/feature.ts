import { defineFeature } from "~/forms/feature-manifest";
import { checklistForm } from "./definition";

export const feature = defineFeature({
  forms: [checklistForm],
  cards: [
    {
      category: "Project Management",
      position: 3,
      title: "Estimate Checklist",
      description: "The site survey for an estimate, with photos, filled in on a phone; its PDF is filed in the inbox.",
      path: "/admin/quick-links/estimate-checklist",
    },
  ],
});
