import { data } from "react-router";
import { BackupStatusNote } from "~/components/staff/backup-status-note";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { StaffSection } from "~/components/staff/staff-section";
import { formatFileSize } from "~/features/inbox/format-size";
import { ACKNOWLEDGE_FAILURES_INTENT, InboxAlertBanner } from "~/features/inbox/inbox-alert-banner";
import { acknowledgeFailedDeliveries, loadInboxAlerts } from "~/features/inbox/inbox-alerts.server";
import { loadLeadResponse } from "~/features/inbox/lead-response.server";
import { LeadResponseSummary } from "~/features/inbox/lead-response-summary";
import { HeldSpamCount } from "~/features/inbox/spam-count";
import { countHeldSpam } from "~/features/inbox/spam-count.server";
import { QuickLinkCard } from "~/features/quick-links/quick-link-card";
import { quickLinksFor } from "~/features/quick-links.server";
import { QUICK_LINK_CATEGORIES } from "~/forms/feature-manifest";
import { readStaffForm } from "~/forms/read-staff-form.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { signedInStaff } from "~/server/auth/require-staff.server";
import { loadBackupStatus } from "~/server/backup/backup-schedule.server";
import { formatStaffTime } from "~/server/format-staff-time.server";
import type { Route } from "./+types/quick-links";

export const meta: Route.MetaFunction = () => staffPageMeta("Quick Links");

export async function loader({ context }: Route.LoaderArgs) {
  const staff = signedInStaff(context);
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
  return { alerts, leadResponse, heldSpam, backups, cards: quickLinksFor(staff.role === "admin") };
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

/** The dashboard's one form: Acknowledge on the failed-delivery alert, a plain post that works without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = signedInStaff(context);
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
  const { cards } = loaderData;
  const groups = QUICK_LINK_CATEGORIES.map((category) => ({
    category,
    links: cards.filter((link) => link.category === category),
  })).filter((group) => group.links.length > 0);
  return (
    <StaffPage title="Quick Links" intro="The staff tools and the links you send out." width="max-w-7xl">
      <InboxAlertBanner alerts={loaderData.alerts} />
      <LeadResponseSummary response={loaderData.leadResponse} />
      <HeldSpamCount count={loaderData.heldSpam} />
      {loaderData.backups ? <BackupStatusNote {...loaderData.backups} /> : null}
      {/* The categories side by side on wide screens; within one, as many cards to a row as fit, none left narrow. */}
      <div className="mt-10 grid gap-x-8 gap-y-10 lg:grid-cols-2">
        {groups.map(({ category, links }) => (
          <StaffSection key={category} headingId={headingId(category)} title={category}>
            <ul className="mt-4 grid grid-cols-[repeat(auto-fit,minmax(min(16rem,100%),1fr))] gap-4">
              {links.map((link) => (
                <QuickLinkCard key={link.path} link={link} />
              ))}
            </ul>
          </StaffSection>
        ))}
      </div>
    </StaffPage>
  );
}
