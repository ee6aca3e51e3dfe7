import { Link } from "react-router";
import { inboxQuery } from "./inbox-filters";

type NewCount = { type: string; label: string; status: string; count: number; shown: string };

/** How many of each type wait for someone, each a link to exactly those; types with none are left out. */
export function NewSubmissionCounts({ counts }: { counts: readonly NewCount[] }) {
  return (
    <section aria-labelledby="new-counts-heading" className="mt-4">
      <h2 id="new-counts-heading" className="sr-only">
        New, not yet handled
      </h2>
      <ul className="flex flex-wrap gap-2">
        {counts
          .filter(({ count }) => count > 0)
          .map(({ type, label, status, shown }) => (
            <li key={type}>
              <Link
                to={`/admin/inbox${inboxQuery({ type, status })}#results`}
                className="inline-flex min-h-11 items-center gap-1.5 rounded-full border border-brand-700 bg-white px-3 text-sm text-brand-900 hover:bg-brand-50"
              >
                <span className="text-base font-bold">{shown}</span>
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
