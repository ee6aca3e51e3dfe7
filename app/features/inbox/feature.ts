import { defineFeature } from "~/forms/feature-manifest";

export const feature = defineFeature({
  cards: [
    {
      category: "Project Management",
      position: 4,
      title: "Inbox",
      description: "Every estimate request, application and assessment that came in, with its delivery state.",
      path: "/admin/inbox",
    },
  ],
});
