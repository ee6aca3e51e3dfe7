import { type AppLoadContext, data } from "react-router";
import { readStaffForm } from "~/forms/read-staff-form.server";
import type { StaffFormResult } from "~/forms/staff-form-result";
import { signedInStaff } from "~/server/auth/require-staff.server";
import { replayDelivery } from "./replay-delivery.server";
import { markSubmissionSpam } from "./spam-marking.server";
import { requireReadableSubmission } from "./submission-access.server";
import { loadSubmissionDetail, parseRecordId, type SubmissionDetail } from "./submission-detail.server";
import { addSubmissionNote, changeSubmissionStatus, setSubmissionAssignee } from "./submission-workflow.server";
import { WorkflowInputError } from "./workflow-error";

export type SubmissionActionResult = StaffFormResult & { intent: string };

function reply(intent: string, status: number, result: StaffFormResult) {
  return data({ ...result, intent } satisfies SubmissionActionResult, { status });
}

export async function loadSubmissionPage(context: AppLoadContext, submissionIdParam?: string) {
  const staff = signedInStaff(context);
  const submissionId = parseRecordId(submissionIdParam, "submission");
  await requireReadableSubmission(context.db, staff, submissionId);
  const detail = await loadSubmissionDetail(context.db, submissionId, context.config);
  return staff.role === "admin" ? detail : withoutDestinations(detail);
}

/**
 * Where deliveries go is for admins only: a webhook URL carries its secret, and a team message's emails and
 * texts go to technicians' own addresses and numbers. Staff users see each delivery's target and state; an
 * empty destination or replayTo means hidden (a replayTo of null still means the target is not set).
 */
function withoutDestinations(detail: SubmissionDetail): SubmissionDetail {
  return {
    ...detail,
    deliveries: detail.deliveries.map((delivery) => ({
      ...delivery,
      destination: "",
      replayTo: delivery.replayTo === null ? null : "",
      attempts: delivery.attempts.map((attempt) => ({ ...attempt, destination: null })),
    })),
  };
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

/** The detail page's forms: status, assignee, note, replay, and the spam flag. Each answers with a message. */
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
      case "status": {
        const status = String(formData.get("status") ?? "");
        const changed = await changeSubmissionStatus(db, { ...change, status });
        return success(changed ? `Status set to ${status}.` : `The status was ${status} already.`);
      }
      case "assignee": {
        const assigneeId = postedId(formData.get("assigneeId"), "staff user");
        const changed = await setSubmissionAssignee(db, { ...change, assigneeId });
        if (!changed) return success("The assignee was not changed.");
        return success(assigneeId === null ? "The assignee was cleared." : "The assignee was set.");
      }
      case "note": {
        await addSubmissionNote(db, { ...change, body: String(formData.get("body") ?? "") });
        return success("Note added.");
      }
      case "replay": {
        const deliveryId = postedId(formData.get("deliveryId"), "delivery");
        if (deliveryId === null) throw new WorkflowInputError("Choose a delivery to replay.");
        const replay = await replayDelivery(db, { ...change, deliveryId }, context.config);
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
    return reply(intent, 400, { status: "error", message: error.message });
  }
}
