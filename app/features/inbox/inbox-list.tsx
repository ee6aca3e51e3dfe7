import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { ContactActions } from "~/components/staff/contact-actions";
import type { SubmissionTypeChoice } from "~/features/submission-types.server";
import { DELIVERY_STATE_LABELS, type DeliveryState } from "./delivery-state";

type ListedSubmission = {
  id: number;
  reference: string;
  type: string;
  status: string;
  isSpam: boolean;
  suspiciousReason: string | null;
  /** When it came in, as staff read it. */
  received: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  /** The city or job address, and the kind of project, role or job asked for (empty when the form has none). */
  place: string;
  kind: string;
  deliveryState: DeliveryState;
};

const DELIVERY_STATE_CLASSES: Record<DeliveryState, string> = {
  delivered: "text-brand-800",
  retrying: "text-amber-900",
  failed: "font-semibold text-red-800",
  held: "text-slate-700",
  none: "text-slate-700",
};

/**
 * A lead as a card to act on: the whole card opens the lead (its name link's ::after covers the card), and
 * Call, Text and Email sit above that cover as links of their own, so no link is inside another.
 */
function LeadCard({ row, typeLabel, leadLink }: { row: ListedSubmission; typeLabel: string; leadLink: string }) {
  // Where first: on a narrow screen the line is cut at its end, where the type's name is least needed.
  const what = [row.place, row.kind ? `${row.kind} (${typeLabel.toLowerCase()})` : typeLabel]
    .filter(Boolean)
    .join(" · ");
  return (
    <li className="relative rounded-xl border border-slate-300 bg-white px-3 py-2 shadow-sm hover:border-brand-700">
      <div className="flex items-baseline justify-between gap-3">
        <Link
          to={leadLink}
          className="-my-2.5 inline-block min-w-0 break-words py-2.5 font-semibold text-slate-900 after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-brand-700"
        >
          {row.contactName || typeLabel}{" "}
          <span className="font-mono text-sm font-normal text-brand-800 underline">{row.reference}</span>
        </Link>
        <span className="shrink-0 text-sm text-slate-600">{row.received}</span>
      </div>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <p className="min-w-0 truncate text-slate-800">{what}</p>
        <p className="shrink-0 text-slate-700">
          {row.status} ·{" "}
          <span className={DELIVERY_STATE_CLASSES[row.deliveryState]}>{DELIVERY_STATE_LABELS[row.deliveryState]}</span>
          {row.isSpam ? <span className="font-semibold text-red-800"> · Spam</span> : null}
          {row.suspiciousReason ? (
            <span className="font-semibold text-amber-900" title={row.suspiciousReason}>
              {" "}
              · Suspicious
            </span>
          ) : null}
        </p>
      </div>
      <div className="relative z-10 mt-1 w-fit">
        <ContactActions contact={{ name: row.contactName, phone: row.contactPhone, email: row.contactEmail }} />
      </div>
    </li>
  );
}

/**
 * The results under their count, the heading a search or filter lands on (#results); each card's link carries
 * the inbox's query, so the lead's "Back to the inbox" returns to this same list.
 */
export function InboxList({
  rows,
  types,
  matchesInWords,
  inboxQueryString,
}: {
  rows: readonly ListedSubmission[];
  types: readonly SubmissionTypeChoice[];
  matchesInWords: string;
  /** The list's query string ("?q=reyes&page=2", or empty), which each lead's link carries. */
  inboxQueryString: string;
}) {
  const labelOf = (type: string) => types.find((choice) => choice.type === type)?.label ?? type;
  const { search, key } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  // After a search, a filter or a page change, the count and the first results are what the person looks for:
  // the list starts the screen (without JavaScript, the #results of the form's and links' addresses does this).
  // biome-ignore lint/correctness/useExhaustiveDependencies: each navigation (key) lands on the results again.
  useEffect(() => {
    if (search === "" || !heading.current) return;
    heading.current.scrollIntoView({ block: "start" });
    heading.current.focus({ preventScroll: true });
  }, [search, key]);
  return (
    <section aria-labelledby="results" className="mt-4">
      <h2
        id="results"
        ref={heading}
        tabIndex={-1}
        className="scroll-mt-20 text-lg font-bold text-slate-900 focus:outline-none"
      >
        {matchesInWords}
      </h2>
      {rows.length > 0 ? (
        <ul className="mt-2 grid grid-cols-1 gap-2 lg:grid-cols-2">
          {rows.map((row) => (
            <LeadCard
              key={row.id}
              row={row}
              typeLabel={labelOf(row.type)}
              leadLink={`/admin/inbox/${row.id}${inboxQueryString}`}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Where this page is in the list ("51–100 of 312"), with newer and older pages of the same filter. */
export function InboxPager({
  page,
  hasNextPage,
  pageInWords,
  pageLink,
}: {
  page: number;
  hasNextPage: boolean;
  pageInWords: string;
  pageLink: (page: number) => string;
}) {
  if (page === 1 && !hasNextPage) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-2">
      {page > 1 ? (
        <Link to={pageLink(page - 1)} className="button-secondary px-4" rel="prev">
          Newer
        </Link>
      ) : (
        <span />
      )}
      <span className="text-center text-slate-700">{pageInWords}</span>
      {hasNextPage ? (
        <Link to={pageLink(page + 1)} className="button-secondary px-4" rel="next">
          Older
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
