import { defineFeature } from "~/forms/feature-manifest";

export const feature = defineFeature({
  cards: [
    {
      category: "Team Management",
      position: 10,
      title: "Edit the site",
      description: "Every word and photo of the public pages: a draft, a preview, then Publish. With the history.",
      path: "/admin/site",
      adminOnly: true,
    },
  ],
});
