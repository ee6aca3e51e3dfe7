import { Link } from "react-router";
import { StaffSection } from "~/components/staff/staff-section";
import type { LeadResponse } from "./lead-response.server";

/** Quick Links' figures on how fast leads are answered, so the owner sees whether the speed is kept. */
export function LeadResponseSummary({ response }: { response: LeadResponse }) {
  return (
    <StaffSection headingId="lead-response-heading" title="How fast leads are answered" className="pt-4">
      <p className="mt-2 text-lg text-slate-900">{response.median}</p>
      {response.unanswered ? <p className="text-slate-700">{response.unanswered}</p> : null}
      <p className="mt-1 text-sm text-slate-600">
        This week: since Monday 00:00, New York time. An answer is the first change of a lead's status in the inbox.
      </p>
      <p className="mt-3 text-slate-900">
        {response.waiting.summary}{" "}
        {response.waiting.oldest.length > 0 ? (
          <Link to={response.waiting.href} className="font-semibold text-brand-800 underline">
            See the new estimate requests
          </Link>
        ) : null}
      </p>
      {response.waiting.oldest.length > 0 ? (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-800">
          {response.waiting.oldest.map((lead) => (
            <li key={lead.id}>
              <Link to={`/admin/inbox/${lead.id}`} className="font-semibold text-brand-800 underline">
                {lead.reference}
              </Link>{" "}
              {lead.name}, waiting {lead.waited}
            </li>
          ))}
        </ul>
      ) : null}
    </StaffSection>
  );
}
