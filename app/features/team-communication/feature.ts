import { defineFeature } from "~/forms/feature-manifest";
import { teamMessageForm } from "./definition";

export const feature = defineFeature({
  forms: [teamMessageForm],
  cards: [
    {
      category: "Team Management",
      position: 4,
      title: "Team Communication",
      description: "Send an email and a text message to technicians, and see what reached whom.",
      path: "/admin/quick-links/team-communication",
    },
  ],
});
