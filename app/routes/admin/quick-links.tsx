import { data } from "react-router";
import { BackupStatusNote } from "~/components/staff/backup-status-note";
import { KEPT_PAGE_HEADER } from "~/components/staff/kept-page";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { StaffSection } from "~/components/staff/staff-section";
import { plural } from "~/content/plural";
import { formatFileSize } from "~/features/inbox/format-size";
import { ACKNOWLEDGE_FAILURES_INTENT, InboxAlertBanner } from "~/features/inbox/inbox-alert-banner";
import { acknowledgeFailedDeliveries, loadInboxAlerts } from "~/features/inbox/inbox-alerts.server";
import { loadLeadResponse, loadLeadsWaitingOn } from "~/features/inbox/lead-response.server";
import { LeadResponseSummary } from "~/features/inbox/lead-response-summary";
import { LeadsWaitingOnYouList } from "~/features/inbox/leads-waiting-on-you";
import { HeldSpamCount } from "~/features/inbox/spam-count";
import { countHeldSpam } from "~/features/inbox/spam-count.server";
import { QuickLinkCard } from "~/features/quick-links/quick-link-card";
import { quickLinksFor } from "~/features/quick-links.server";
import { QUICK_LINK_CATEGORIES, type QuickLinkCategory } from "~/forms/feature-manifest";
import { readStaffForm } from "~/forms/read-staff-form.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { loadBackupStatus } from "~/services/backup/backup-schedule.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import type { Route } from "./+types/quick-links";

export const meta: Route.MetaFunction = () => staffPageMeta("Quick Links");

/**
 * The copy the staff app keeps on the device has the cards only: the leads (with their phones and emails) and the
 * notices are today's, and every page that has them says no-store.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = signedInStaff(context);
  const isAdmin = staff.role === "admin";
  const cards = quickLinksFor(isAdmin);
  if (request.headers.has(KEPT_PAGE_HEADER)) return data({ cards, waiting: undefined, notices: undefined });
  const [waiting, notices] = await Promise.all([
    loadLeadsWaitingOn(context.db, staff.id),
    isAdmin ? loadOperatorNotices(context) : undefined,
  ]);
  return data({ cards, waiting, notices }, { headers: { "Cache-Control": "no-store" } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** What only admins see on the dashboard: failed deliveries, spam held, backups and how fast leads are answered. */
async function loadOperatorNotices(context: Route.LoaderArgs["context"]) {
  const [alerts, leadResponse, heldSpam, backupStatus] = await Promise.all([
    loadInboxAlerts(context.db, context.config),
    loadLeadResponse(context.db, context.config),
    countHeldSpam(context.db),
    loadBackupStatus(context.db, context.config),
  ]);
  const backups = backupStatus && {
    alert: backupStatus.alert,
    every: context.config.BACKUP_EVERY,
    lastGood: backupStatus.lastGood && {
      finishedAt: formatStaffTime(backupStatus.lastGood.finishedAt),
      size: formatFileSize(backupStatus.lastGood.bytes),
    },
  };
  return { alerts, leadResponse, heldSpam, backups };
}

const ACKNOWLEDGE_ANSWERS = {
  acknowledged: {
    status: 200,
    result: { status: "success", message: "Acknowledged: these failures no longer raise the alert. A new one will." },
  },
  changed: {
    status: 409,
    result: {
      status: "error",
      message: "The failed deliveries changed since the page was loaded. Read the alert again, then acknowledge it.",
    },
  },
  nothing: { status: 200, result: { status: "success", message: "No failed delivery is waiting to be acknowledged." } },
} as const satisfies Record<string, { status: number; result: StaffFormResult }>;

/**
 * The dashboard's one form: Acknowledge on the failed-delivery alert, a plain post that works without JavaScript.
 * The alert is an admin's, and so is its answer.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = signedInStaff(context, { role: "admin" });
  const formData = await readStaffForm(request);
  const intent = String(formData.get("intent"));
  if (intent !== ACKNOWLEDGE_FAILURES_INTENT) {
    return data({ status: "error", message: "Unknown action.", intent } satisfies StaffFormResult, { status: 400 });
  }
  const outcome = await acknowledgeFailedDeliveries(context.db, {
    staffUserId: staff.id,
    username: staff.username,
    seen: String(formData.get("seen") ?? ""),
  });
  context.logger.info({ outcome, by: staff.id }, "failed-delivery alert acknowledged");
  const answer = ACKNOWLEDGE_ANSWERS[outcome];
  return data({ ...answer.result, intent } satisfies StaffFormResult, { status: answer.status });
}

const headingId = (category: string) => `${category.toLowerCase().replaceAll(" ", "-")}-heading`;

export default function QuickLinks({ loaderData }: Route.ComponentProps) {
  const { cards, waiting, notices } = loaderData;
  const cardsOf = (category: QuickLinkCategory) => cards.filter((link) => link.category === category);
  const toolGroups = QUICK_LINK_CATEGORIES.filter((category) => category !== "Leads")
    .map((category) => ({ category, links: cardsOf(category) }))
    .filter((group) => group.links.length > 0);
  const newLeads = waiting?.newLeads ? plural(waiting.newLeads, "new lead", "new leads") : undefined;
  return (
    <StaffPage title="Quick Links" width="max-w-7xl">
      {/* The leads first, with no visible heading over one card: the Inbox, and in it the leads this person should
          call next. The heading is there for screen readers, so the cards' headings follow one of the level above. */}
      <section aria-labelledby={headingId("Leads")}>
        <h2 id={headingId("Leads")} className="sr-only">
          Leads
        </h2>
        <ul className="mt-4">
          {cardsOf("Leads").map((link) => (
            <QuickLinkCard key={link.path} link={link} count={newLeads}>
              {waiting ? <LeadsWaitingOnYouList waiting={waiting} /> : null}
            </QuickLinkCard>
          ))}
        </ul>
      </section>
      {/* The categories side by side on wide screens; within one, as many cards to a row as fit, none left narrow. */}
      <div className="mt-8 grid gap-x-8 gap-y-10 lg:grid-cols-2">
        {toolGroups.map(({ category, links }) => (
          <StaffSection key={category} headingId={headingId(category)} title={category}>
            <ul className="mt-4 grid grid-cols-[repeat(auto-fit,minmax(min(16rem,100%),1fr))] gap-4">
              {links.map((link) => (
                <QuickLinkCard key={link.path} link={link} />
              ))}
            </ul>
          </StaffSection>
        ))}
      </div>
      {notices ? (
        <div className="mt-10 space-y-3 border-t border-slate-200 pt-4">
          <p className="text-sm text-slate-600">For admins only: what the site needs from you.</p>
          <InboxAlertBanner alerts={notices.alerts} />
          <HeldSpamCount count={notices.heldSpam} />
          {notices.backups ? <BackupStatusNote {...notices.backups} /> : null}
          <LeadResponseSummary response={notices.leadResponse} />
        </div>
      ) : null}
    </StaffPage>
  );
}
