import { type AppLoadContext, data } from "react-router";
import { readStaffForm } from "~/forms/read-staff-form.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { inboxQuery } from "./inbox-filters";
import { parseInboxFilters } from "./inbox-filters.server";
import { typedSearch } from "./load-inbox.server";
import { replayDelivery } from "./replay-delivery.server";
import { markSubmissionSpam } from "./spam-marking.server";
import { requireReadableSubmission } from "./submission-access.server";
import { loadSubmissionDetail, parseRecordId, type SubmissionDetail } from "./submission-detail.server";
import { type TriageOutcome, triageSubmission } from "./submission-workflow.server";
import { WorkflowInputError } from "./workflow-error";

export type SubmissionActionResult = StaffFormResult & { intent: string };

function reply(intent: string, status: number, result: StaffFormResult) {
  return data({ ...result, intent } satisfies SubmissionActionResult, { status });
}

/**
 * The inbox a lead was opened from: its card links carry the inbox's search, filters and page, read here as an
 * inbox query (anything else is dropped), so "Back to the inbox" returns to the same list and never elsewhere.
 */
function inboxReturnLink(searchParams: URLSearchParams): string {
  const parsed = parseInboxFilters(searchParams);
  const query =
    parsed.status === "valid" ? inboxQuery({ ...parsed.filters, q: typedSearch(searchParams, parsed.filters) }) : "";
  return query ? `/admin/inbox${query}#results` : "/admin/inbox";
}

export async function loadSubmissionPage(request: Request, context: AppLoadContext, submissionIdParam?: string) {
  const staff = signedInStaff(context);
  const submissionId = parseRecordId(submissionIdParam, "submission");
  await requireReadableSubmission(context.db, staff, submissionId);
  const detail = await loadSubmissionDetail(context.db, submissionId, context.config, staff.role);
  const backTo = inboxReturnLink(new URL(request.url).searchParams);
  return { ...(staff.role === "admin" ? detail : withoutAdminDetails(detail)), backTo };
}

/**
 * A delivery's setting, where it goes, its id and its attempts are for admins only: a webhook URL carries its
 * secret, and a team message's emails and texts go to technicians' own addresses and numbers. Staff users
 * read what happened in words.
 */
function withoutAdminDetails(detail: SubmissionDetail): SubmissionDetail {
  return { ...detail, deliveries: detail.deliveries.map((delivery) => ({ ...delivery, details: null })) };
}

/** An id posted from a form: a positive whole number, or null for an empty value. */
function postedId(value: FormDataEntryValue | null, what: string): number | null {
  if (value === null || value === "") return null;
  const id = Number(value);
  if (typeof value !== "string" || !/^\d+$/.test(value) || !Number.isSafeInteger(id)) {
    throw new WorkflowInputError(`That is not a valid ${what}.`);
  }
  return id;
}

/** A text field of the form, or undefined when the form did not send it (it is then left as it is). */
const posted = (formData: FormData, name: string) => (formData.has(name) ? String(formData.get(name)) : undefined);

/** What a triage did, in one line: "Status set to Contacted. Assigned to Dana Reyes. Note added."; empty for nothing. */
function triageInWords(outcome: TriageOutcome): string {
  const assignee = outcome.assignee && (outcome.assignee.displayName ?? null);
  return [
    outcome.status === undefined ? "" : `Status set to ${outcome.status}.`,
    outcome.assignee === undefined ? "" : assignee === null ? "The assignee was cleared." : `Assigned to ${assignee}.`,
    outcome.noteAdded ? "Note added." : "",
  ]
    .filter((sentence) => sentence !== "")
    .join(" ");
}

/** The detail page's forms: triage (status, assignee, note), replay, and the spam flag. Each answers with a message. */
export async function submissionPageAction(request: Request, context: AppLoadContext, submissionIdParam?: string) {
  const staff = signedInStaff(context);
  const submissionId = parseRecordId(submissionIdParam, "submission");
  await requireReadableSubmission(context.db, staff, submissionId);
  const formData = await readStaffForm(request);
  const intent = String(formData.get("intent"));
  const { db, logger, deliveryWorker } = context;
  const change = { submissionId, actorId: staff.id };
  const success = (message: string) => reply(intent, 200, { status: "success", message });
  try {
    switch (intent) {
      case "triage": {
        const outcome = await triageSubmission(db, {
          ...change,
          status: posted(formData, "status"),
          assigneeId: formData.has("assigneeId") ? postedId(formData.get("assigneeId"), "staff user") : undefined,
          note: posted(formData, "note"),
        });
        const said = triageInWords(outcome);
        if (said === "") {
          return reply(intent, 400, {
            status: "error",
            message: "Nothing to save: choose another status or assignee, or write a note.",
          });
        }
        return success(said);
      }
      case "replay": {
        const deliveryId = postedId(formData.get("deliveryId"), "delivery");
        if (deliveryId === null) throw new WorkflowInputError("Choose a delivery to replay.");
        const replay = await replayDelivery(
          db,
          { submissionId, deliveryId, replayer: staff, confirmed: formData.get("confirmed") === "yes" },
          context.config,
        );
        deliveryWorker.wake();
        logger.info({ submissionId, deliveryId, replayId: replay.deliveryId, by: staff.id }, "delivery replayed");
        return success(
          staff.role === "admin"
            ? `The delivery will be sent again now, to ${replay.destination}.`
            : "The delivery will be sent again now.",
        );
      }
      case "spam":
      case "not-spam": {
        const isSpam = intent === "spam";
        const changed = await markSubmissionSpam(db, { ...change, isSpam });
        if (changed && !isSpam) deliveryWorker.wake();
        logger.info({ submissionId, isSpam, changed, by: staff.id }, "submission spam flag set");
        return success(
          isSpam
            ? "Marked as spam: its deliveries not yet sent are held."
            : "Marked as not spam: its deliveries are sent.",
        );
      }
      default:
        return reply(intent, 400, { status: "error", message: "Unknown action." });
    }
  } catch (error) {
    if (!(error instanceof WorkflowInputError)) throw error;
    return reply(intent, error.status, { status: "error", message: error.message });
  }
}
