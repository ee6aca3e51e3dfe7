import { Link } from "react-router";
import { ContactActions } from "~/components/staff/contact-actions";
import { plural } from "~/content/plural";
import type { LeadsWaitingOnYou } from "./lead-response.server";

/**
 * Quick Links' few leads a staff member should answer next, each a link into the lead with Call, Text and
 * Email, so one tap from the first screen calls the customer.
 */
export function LeadsWaitingOnYouList({ waiting }: { waiting: LeadsWaitingOnYou }) {
  return (
    <section aria-labelledby="waiting-on-you-heading" className="mt-4 border-t border-slate-200 pt-3">
      <h4 id="waiting-on-you-heading" className="font-bold text-slate-900">
        Leads waiting for an answer
      </h4>
      {waiting.leads.length === 0 ? (
        <p className="mt-1 text-slate-700">No new lead is waiting for you.</p>
      ) : (
        <ul className="mt-1 divide-y divide-slate-200">
          {waiting.leads.map((lead) => (
            <li key={lead.id} className="flex flex-wrap items-center justify-between gap-x-3 py-1.5">
              <p className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                <Link
                  to={`/admin/inbox/${lead.id}`}
                  className="inline-block py-2.5 font-semibold text-brand-800 underline"
                >
                  {lead.name}
                </Link>{" "}
                <span className="-mt-1.5 text-sm text-slate-600">
                  {lead.assignedToYou ? "assigned to you" : "not assigned"}, waiting {lead.waited}
                </span>
              </p>
              <ContactActions contact={lead} />
            </li>
          ))}
        </ul>
      )}
      {waiting.newLeads > 0 ? (
        <Link to={waiting.href} className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline">
          See all {plural(waiting.newLeads, "new lead", "new leads")} in the inbox
        </Link>
      ) : null}
    </section>
  );
}
