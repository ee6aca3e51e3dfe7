import { Link } from "react-router";
import { inboxQuery } from "./inbox-filters";

type NewCount = { type: string; label: string; status: string; shown: string };

/** How many of each type wait for someone, each a link to exactly those. */
export function NewSubmissionCounts({ counts }: { counts: readonly NewCount[] }) {
  return (
    <section aria-labelledby="new-counts-heading" className="mt-6">
      <h2 id="new-counts-heading" className="sr-only">
        New, not yet handled
      </h2>
      <ul className="flex flex-wrap gap-3">
        {counts.map(({ type, label, status, shown }) => (
          <li key={type}>
            <Link
              to={`/admin/inbox${inboxQuery({ type, status })}`}
              className="inline-flex items-baseline gap-2 rounded-full border border-brand-700 bg-white px-4 py-2 text-brand-900 hover:bg-brand-50"
            >
              <span className="text-lg font-bold">{shown}</span>
              <span>
                {status} · {label}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
