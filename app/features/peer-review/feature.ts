import { defineFeature } from "~/forms/feature-manifest";
import { peerReviewForm } from "./definition";

export const feature = defineFeature({
  forms: [peerReviewForm],
  cards: [
    {
      category: "Team Management",
      position: 1,
      title: "Peer Review",
      description: "Rate a co-worker on fifteen statements. The answers are compiled with others' into a report.",
      path: "/admin/quick-links/peer-review",
    },
    {
      category: "Team Management",
      position: 2,
      title: "Peer Review Report",
      description: "Each person's averages once enough reviews are in, with its PDF. No reviewer is named.",
      path: "/admin/peer-review-report",
      adminOnly: true,
    },
  ],
});
