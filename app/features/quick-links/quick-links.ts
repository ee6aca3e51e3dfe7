export type QuickLinkCategory = "Team Management" | "Project Management";

export type QuickLink = {
  title: string;
  description: string;
  path: string;
  category: QuickLinkCategory;
  /** A card for a screen only admins may open; staff users do not see it. */
  adminOnly?: true;
};

export const QUICK_LINK_CATEGORIES: readonly QuickLinkCategory[] = ["Team Management", "Project Management"];

/** The dashboard's cards, in the spec's order within each category. Only screens that exist are listed. */
export const quickLinks: readonly QuickLink[] = [
  {
    category: "Team Management",
    title: "Peer Review",
    description: "Rate a co-worker on fifteen statements. The answers are compiled with others' into a report.",
    path: "/admin/quick-links/peer-review",
  },
  {
    category: "Team Management",
    title: "Peer Review Report",
    description: "Each person's averages once enough reviews are in, with its PDF. No reviewer is named.",
    path: "/admin/peer-review-report",
    adminOnly: true,
  },
  {
    category: "Team Management",
    title: "Electrical Assessment",
    description: "The 18-question skills assessment. Copy the link to send it to an applicant.",
    path: "/assessment",
  },
  {
    category: "Team Management",
    title: "Team Communication",
    description: "Send an email and a text message to technicians, and see what reached whom.",
    path: "/admin/quick-links/team-communication",
  },
  {
    category: "Project Management",
    title: "Estimate Request Form",
    description: "Hand an estimate visit to a project manager, with a calendar invite for the appointment.",
    path: "/admin/quick-links/estimate-request",
  },
  {
    category: "Project Management",
    title: "Job Request Form",
    description: "Pass on a sold job with its amount and contact; its day goes to the scheduler's calendar.",
    path: "/admin/quick-links/job-request",
  },
  {
    category: "Project Management",
    title: "Estimate Checklist",
    description: "The site survey for an estimate, with photos, filled in on a phone; the office gets its PDF.",
    path: "/admin/quick-links/estimate-checklist",
  },
  {
    category: "Project Management",
    title: "Inbox",
    description: "Every estimate request, application and assessment that came in, with its delivery state.",
    path: "/admin/inbox",
  },
];

/** The cards a staff user of that role sees. */
export function quickLinksFor(isAdmin: boolean): readonly QuickLink[] {
  return quickLinks.filter((link) => isAdmin || !link.adminOnly);
}

/** The cards that open a staff tool of ours; the staff navigation lists these too, after Quick Links and Inbox. */
export const staffToolLinks: readonly QuickLink[] = quickLinks.filter((link) =>
  link.path.startsWith("/admin/quick-links/"),
);
