import { Alert } from "~/components/forms/alert";
import { touchLinkClass } from "~/components/forms/field-look";
import { StaffPage } from "~/components/staff/staff-page";
import { staffPageMeta } from "~/components/staff/staff-page-meta";
import { InboxFilterForm } from "~/features/inbox/inbox-filter-form";
import { inboxQuery } from "~/features/inbox/inbox-filters";
import type { InboxFilters } from "~/features/inbox/inbox-filters.server";
import { InboxList, InboxPager } from "~/features/inbox/inbox-list";
import { loadInbox } from "~/features/inbox/load-inbox.server";
import { NewSubmissionCounts } from "~/features/inbox/new-submission-counts";
import type { Route } from "./+types/inbox";

export const meta: Route.MetaFunction = () => staffPageMeta("Inbox");

export const loader = ({ request, context }: Route.LoaderArgs) => loadInbox(request, context);

const filterValues = (filters: InboxFilters) =>
  Object.fromEntries(Object.entries(filters).map(([key, value]) => [key, String(value)]));

export default function Inbox({ loaderData }: Route.ComponentProps) {
  const values = loaderData.status === "valid" ? filterValues(loaderData.filters) : loaderData.values;
  const formKey = new URLSearchParams(values).toString();
  return (
    <StaffPage
      title="Inbox"
      intro="Everything the forms sent in, newest first. Tap a lead to open it."
      width="max-w-6xl"
    >
      <NewSubmissionCounts counts={loaderData.newCounts} />
      <InboxFilterForm key={formKey} values={values} types={loaderData.types} />
      {loaderData.status === "invalid" ? (
        <Alert tone="error" className="mt-6">
          <p className="font-semibold">These filters cannot be used:</p>
          <ul className="mt-1 list-disc pl-6">
            {loaderData.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </Alert>
      ) : (
        <>
          <InboxList
            rows={loaderData.rows}
            types={loaderData.types}
            matchesInWords={loaderData.matchesInWords}
            inboxQueryString={inboxQuery(loaderData.filters)}
          />
          <InboxPager
            page={loaderData.filters.page}
            hasNextPage={loaderData.hasNextPage}
            pageInWords={loaderData.pageInWords}
            pageLink={(page) => `/admin/inbox${inboxQuery({ ...loaderData.filters, page })}#results`}
          />
          <p className="mt-6">
            <a
              href={`/admin/inbox/export.csv${inboxQuery({ ...loaderData.filters, page: 1 })}`}
              className={touchLinkClass}
            >
              Download these as CSV (all pages)
            </a>
            {loaderData.notExported.length > 0 && (
              <span className="block text-sm text-slate-700">
                Without {loaderData.notExported.join(" and ")} submissions: only admins export applicant data.
              </span>
            )}
          </p>
        </>
      )}
    </StaffPage>
  );
}
