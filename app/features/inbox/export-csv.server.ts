import { and, eq, sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { company } from "~/content/company";
import {
  describeSubmissionType,
  submissionTypes,
  typesHiddenFrom,
  typesNotExportableBy,
} from "~/features/submission-types.server";
import type { FieldDefinition } from "~/forms/definition";
import { answerOf, printAnswer } from "~/forms/print-answer";
import { signedInStaff } from "~/services/auth/require-staff.server";
import type { Database } from "~/services/db/database.server";
import { inboxExports, type StaffRole, staffUsers, submissions } from "~/services/db/schema.server";
import { queryNamesOnly } from "~/services/query-names.server";
import { CSV_BYTE_ORDER_MARK, csvRow } from "./csv";
import { DELIVERY_STATE_LABELS } from "./delivery-state";
import type { InboxFilters } from "./inbox-filters.server";
import { parseInboxFilters } from "./inbox-filters.server";
import { deliveryStateOfSubmission, inboxConditions, newestFirst } from "./inbox-query.server";
import { submissionColumns } from "./list-submissions.server";

const EXPORT_BATCH_SIZE = 1_000;
const FIXED_COLUMNS = ["Reference", "Type", "Created at", "Status", "Assignee", "Spam", "Delivery state"];

/** A local date and time a spreadsheet sorts as text: 2025-03-31 14:05:09, in the company's zone. */
const spreadsheetTime = new Intl.DateTimeFormat("sv-SE", {
  timeZone: company.timeZone,
  dateStyle: "short",
  timeStyle: "medium",
});
const companyDate = new Intl.DateTimeFormat("en-CA", { timeZone: company.timeZone });

/** One column per field label: the chosen type's fields, or every shown type's, a label shared by types once. */
export function fieldLabelsFor(type: string | undefined, hiddenTypes: readonly string[] = []): string[] {
  const described = (type === undefined ? submissionTypes : [describeSubmissionType(type)]).filter(
    (description) => !hiddenTypes.includes(description.type),
  );
  return [
    ...new Set(
      described.flatMap((description) =>
        description.fields.filter((field) => field.kind !== "file").map((field) => field.label),
      ),
    ),
  ];
}

/** Each type's fields by label, to fill the label columns of its rows. */
const fieldsOfType = new Map<string, Map<string, FieldDefinition>>(
  submissionTypes.map((description) => [
    description.type,
    new Map(description.fields.filter((field) => field.kind !== "file").map((field) => [field.label, field])),
  ]),
);

/** A submission's answers under the export's label columns; a column of another type's field stays empty. */
export function fieldCells(type: string, payload: Record<string, unknown>, labels: readonly string[]): string[] {
  const fields = fieldsOfType.get(type);
  return labels.map((label) => {
    const field = fields?.get(label);
    return field ? printAnswer(field, answerOf(field, payload)) : "";
  });
}

export type ExportCursor = { time: string; id: number };

/** One batch of the export: the rows after the cursor's row (a keyset page), with what the CSV needs. */
export function exportBatchQuery(
  db: Database,
  filters: Omit<InboxFilters, "page">,
  after?: ExportCursor,
  hiddenTypes: readonly string[] = [],
) {
  return db
    .select({
      ...submissionColumns,
      deliveryState: deliveryStateOfSubmission,
      payload: submissions.payload,
      assignee: staffUsers.username,
      // The exact timestamp as PostgreSQL prints it: a JavaScript Date would drop the microseconds.
      cursorTime: sql<string>`${submissions.createdAt}::text`,
    })
    .from(submissions)
    .leftJoin(staffUsers, eq(staffUsers.id, submissions.assigneeId))
    .where(
      and(
        inboxConditions(filters, hiddenTypes),
        after && sql`(${submissions.createdAt}, ${submissions.id}) < (${after.time}::timestamptz, ${after.id})`,
      ),
    )
    .orderBy(...newestFirst)
    .limit(EXPORT_BATCH_SIZE);
}

/**
 * The rows of a filter in batches, newest first, each batch a keyset page after the last row of the one
 * before: the export never holds more than one batch, and no batch reads past rows it skips.
 */
async function* submissionBatches(db: Database, filters: Omit<InboxFilters, "page">, hiddenTypes: readonly string[]) {
  let after: ExportCursor | undefined;
  for (;;) {
    const batch = await exportBatchQuery(db, filters, after, hiddenTypes);
    if (batch.length > 0) yield batch;
    const last = batch.at(-1);
    if (!last || batch.length < EXPORT_BATCH_SIZE) return;
    after = { time: last.cursorTime, id: last.id };
  }
}

/**
 * The CSV of a filter, all pages, as a stream of text, without the types the viewer may not read.
 * `onFinished` hears the number of rows once the last one is written.
 */
export function inboxCsv(
  db: Database,
  filters: Omit<InboxFilters, "page">,
  hiddenTypes: readonly string[] = [],
  onFinished: (rowCount: number) => Promise<void> = async () => {},
): ReadableStream<Uint8Array> {
  const labels = fieldLabelsFor(filters.type, hiddenTypes);
  const batches = submissionBatches(db, filters, hiddenTypes);
  const encoder = new TextEncoder();
  let rowCount = 0;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BYTE_ORDER_MARK + csvRow([...FIXED_COLUMNS, ...labels])));
    },
    async pull(controller) {
      const next = await batches.next();
      if (next.done) {
        await onFinished(rowCount);
        controller.close();
        return;
      }
      rowCount += next.value.length;
      const text = next.value
        .map((row) => {
          return csvRow([
            row.reference,
            describeSubmissionType(row.type).label,
            spreadsheetTime.format(row.createdAt),
            row.status,
            row.assignee ?? "",
            row.isSpam ? "Yes" : "No",
            DELIVERY_STATE_LABELS[row.deliveryState],
            ...fieldCells(row.type, row.payload, labels),
          ]);
        })
        .join("");
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}

/** The types a CSV for `role` leaves out: those it may not read, and applicant data it may read but not export. */
export function typesLeftOutOfExport(role: StaffRole): string[] {
  return [...typesHiddenFrom(role), ...typesNotExportableBy(role).map(({ type }) => type)];
}

/**
 * The export route's loader: signed-in staff only, the same filters as the list, downloaded as a file. Each
 * export is recorded with who asked for it (inbox_exports) and logged.
 */
export async function downloadInboxCsv(request: Request, context: AppLoadContext) {
  const staff = signedInStaff(context);
  const url = new URL(request.url);
  const parsed = parseInboxFilters(url.searchParams);
  if (parsed.status === "invalid") {
    return new Response(`These filters cannot be used: ${parsed.messages.join("; ")}`, {
      status: 400,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const { page: _page, ...filters } = parsed.filters;
  const leftOutTypes = typesLeftOutOfExport(staff.role);
  // The filters' names only: a search is what someone typed (a customer's name), kept out of the record and the log.
  const query = queryNamesOnly(url.search);
  const [record] = await context.db
    .insert(inboxExports)
    .values({ staffUserId: staff.id, username: staff.username, query, leftOutTypes })
    .returning({ id: inboxExports.id });
  context.logger.info(
    { exportId: record?.id, staffUserId: staff.id, username: staff.username, query, leftOutTypes },
    "inbox exported as CSV",
  );
  const recordRowCount = async (rowCount: number) => {
    if (record) await context.db.update(inboxExports).set({ rowCount }).where(eq(inboxExports.id, record.id));
  };
  return new Response(inboxCsv(context.db, filters, leftOutTypes, recordRowCount), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="inbox-${companyDate.format(new Date())}.csv"`,
      "cache-control": "no-store",
    },
  });
}
