import { Link } from "react-router";
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
  deliveryState: DeliveryState;
};

const DELIVERY_STATE_CLASSES: Record<DeliveryState, string> = {
  delivered: "border-brand-700 bg-brand-50 text-brand-900",
  retrying: "border-amber-700 bg-amber-50 text-amber-900",
  failed: "border-red-700 bg-red-50 text-red-900",
  held: "border-slate-500 bg-slate-100 text-slate-800",
  none: "border-slate-400 bg-white text-slate-700",
};

// A card per submission on a phone; from md up the same markup lines up as the rows of a table, under a
// header row that repeats for the eye what each card's labels say to a screen reader.
const ROW_GRID = "md:grid md:grid-cols-[9rem_minmax(0,1fr)_minmax(0,1.4fr)_9rem_7rem_7rem] md:items-baseline md:gap-3";

function Cell({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="mt-1 flex gap-2 md:mt-0 md:block">
      <dt className="w-24 shrink-0 text-sm text-slate-600 md:sr-only">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

export function InboxList({
  rows,
  types,
}: {
  rows: readonly ListedSubmission[];
  types: readonly SubmissionTypeChoice[];
}) {
  const labelOf = (type: string) => types.find((choice) => choice.type === type)?.label ?? type;
  if (rows.length === 0) {
    return <p className="mt-8 rounded-xl bg-slate-50 p-6 text-slate-700">Nothing matches these filters.</p>;
  }
  return (
    <div className="mt-6">
      <div
        aria-hidden="true"
        className={`hidden border-b border-slate-300 px-2 pb-2 text-sm text-slate-700 ${ROW_GRID}`}
      >
        <span>Reference</span>
        <span>Name</span>
        <span>Contact</span>
        <span>Received</span>
        <span>Status</span>
        <span>Delivery</span>
      </div>
      <ul className="space-y-3 md:space-y-0">
        {rows.map((row) => (
          <li
            key={row.id}
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm md:rounded-none md:border-x-0 md:border-t-0 md:p-2 md:shadow-none"
          >
            <dl className={ROW_GRID}>
              <Cell label="Reference">
                <Link to={`/admin/inbox/${row.id}`} className="font-mono font-semibold text-brand-800 underline">
                  {row.reference}
                </Link>
                <span className="block text-sm text-slate-700">{labelOf(row.type)}</span>
              </Cell>
              <Cell label="Name">{row.contactName || "(no name)"}</Cell>
              <Cell label="Contact">
                {row.contactEmail ? <span className="block">{row.contactEmail}</span> : null}
                {row.contactPhone ? <span className="block">{row.contactPhone}</span> : null}
              </Cell>
              <Cell label="Received">{row.received}</Cell>
              <Cell label="Status">
                {row.status}
                {row.isSpam ? <span className="block text-sm font-semibold text-red-800">Spam</span> : null}
                {row.suspiciousReason ? (
                  <span className="block text-sm font-semibold text-amber-900" title={row.suspiciousReason}>
                    Suspicious
                  </span>
                ) : null}
              </Cell>
              <Cell label="Delivery">
                <span
                  className={`inline-block rounded-full border px-2 py-0.5 text-sm font-medium ${DELIVERY_STATE_CLASSES[row.deliveryState]}`}
                >
                  {DELIVERY_STATE_LABELS[row.deliveryState]}
                </span>
              </Cell>
            </dl>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Newer and older pages of the same filter. */
export function InboxPager({
  page,
  hasNextPage,
  pageLink,
}: {
  page: number;
  hasNextPage: boolean;
  pageLink: (page: number) => string;
}) {
  if (page === 1 && !hasNextPage) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4">
      {page > 1 ? (
        <Link to={pageLink(page - 1)} className="button-secondary px-4 py-1.5" rel="prev">
          Newer
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-700">Page {page}</span>
      {hasNextPage ? (
        <Link to={pageLink(page + 1)} className="button-secondary px-4 py-1.5" rel="next">
          Older
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
