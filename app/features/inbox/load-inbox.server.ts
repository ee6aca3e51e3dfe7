import { type AppLoadContext, data } from "react-router";
import { typeChoicesFor, typesHiddenFrom, typesNotExportableBy } from "~/features/submission-types.server";
import { signedInStaff } from "~/server/auth/require-staff.server";
import { parseInboxFilters } from "./inbox-filters.server";
import { countNewSubmissions, listSubmissions } from "./list-submissions.server";

/** The inbox list's loader: a filter the URL gets wrong is answered 400 with what to fix, never a 500. */
export async function loadInbox(request: Request, context: AppLoadContext) {
  const staff = signedInStaff(context);
  const hiddenTypes = typesHiddenFrom(staff.role);
  const parsed = parseInboxFilters(new URL(request.url).searchParams);
  const newCounts = await countNewSubmissions(context.db, hiddenTypes);
  const types = typeChoicesFor(staff.role);
  if (parsed.status === "invalid") {
    return data(
      { status: "invalid" as const, messages: parsed.messages, values: parsed.values, newCounts, types },
      { status: 400 },
    );
  }
  const page = await listSubmissions(context.db, parsed.filters, hiddenTypes);
  const notExported = typesNotExportableBy(staff.role).map(({ label }) => label);
  return data({ status: "valid" as const, filters: parsed.filters, ...page, newCounts, notExported, types });
}

export type InboxLoaderData = Awaited<ReturnType<typeof loadInbox>>["data"];
