import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
import { servicePages } from "./content/services";

export default [
  index("routes/home.tsx"),
  route("learnmore", "routes/about.tsx"),
  route("privacy", "routes/privacy.tsx"),
  ...servicePages.map((page) => route(page.path.slice(1), "routes/service.tsx", { id: `service-${page.id}` })),
  route("apply", "routes/apply.tsx"),
  route("quiz", "routes/quiz.tsx"),
  route("assessment", "routes/assessment.tsx"),
  layout("routes/admin/sign-in-layout.tsx", [
    route("admin", "routes/admin/login.tsx"),
    route("admin/verify", "routes/admin/verify.tsx"),
    route("admin/setup", "routes/admin/setup.tsx"),
  ]),
  route("admin/logout", "routes/admin/logout.tsx"),
  // A download, not a screen: outside the staff layout, whose loader it does not need.
  route("admin/inbox/:submissionId/files/:fileId", "routes/admin/inbox-file.ts"),
  // The checklist's JSON answer to the page's script; the screen itself is in the staff layout.
  route("admin/quick-links/estimate-checklist/submit", "routes/admin/estimate-checklist-submit.ts"),
  route("admin/quick-links/estimate-checklist/photo-preview", "routes/admin/estimate-checklist-photo-preview.ts"),
  // An uploaded site photo for the editor and its preview before it is published.
  route("admin/site/photos/:file", "routes/admin/site-photo.ts"),
  layout("routes/admin/staff-layout.tsx", [
    route("admin/quick-links", "routes/admin/quick-links.tsx"),
    route("admin/quick-links/team-communication", "routes/admin/team-communication.tsx"),
    route("admin/quick-links/team-communication/history", "routes/admin/team-communication-history.tsx"),
    route("admin/staff-directory", "routes/admin/staff-directory.tsx"),
    route("admin/quick-links/estimate-request", "routes/admin/estimate-request.tsx"),
    route("admin/quick-links/job-request", "routes/admin/job-request.tsx"),
    route("admin/quick-links/estimate-checklist", "routes/admin/estimate-checklist.tsx"),
    route("admin/inbox", "routes/admin/inbox.tsx"),
    route("admin/inbox/export.csv", "routes/admin/inbox-export.ts"),
    route("admin/staff", "routes/admin/staff.tsx"),
    route("admin/staff/:userId", "routes/admin/staff-user.tsx"),
    route("admin/inbox/:submissionId", "routes/admin/inbox-submission.tsx"),
    route("admin/account", "routes/admin/account.tsx"),
    route("admin/account/two-factor", "routes/admin/two-factor.tsx"),
    route("admin/quick-links/peer-review", "routes/admin/peer-review.tsx"),
    route("admin/peer-review-report", "routes/admin/peer-review-report.tsx"),
    route("admin/peer-review-report/pdf", "routes/admin/peer-review-report-pdf.ts"),
    route("admin/site", "routes/admin/site.tsx"),
    route("admin/site/history", "routes/admin/site-history.tsx"),
    route("admin/site/preview", "routes/admin/site-preview.tsx"),
    route("admin/site/:section", "routes/admin/site-section.tsx"),
    route("admin/*", "routes/admin/staff-not-found.tsx"),
  ]),
  route("calendar/:file", "routes/calendar-feed.ts"),
  route("forms/fill-token", "routes/fill-token.ts"),
  route("forms/estimate", "routes/estimate-answer.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
] satisfies RouteConfig;
