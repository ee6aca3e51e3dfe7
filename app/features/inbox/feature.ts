import { defineFeature } from "~/forms/feature-manifest";

export const feature = defineFeature({
  cards: [
    {
      category: "Leads",
      position: 1,
      title: "Inbox",
      description: "Every estimate request, application and assessment that came in.",
      path: "/admin/inbox",
    },
  ],
});
