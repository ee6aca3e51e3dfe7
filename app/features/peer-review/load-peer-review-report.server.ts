import { asc, eq } from "drizzle-orm";
import { type AppLoadContext, data } from "react-router";
import { signedInStaff } from "~/services/auth/require-staff.server";
import { submissions } from "~/services/db/schema.server";
import { inWorker, WorkPoolFull } from "~/services/work-pool/work-pool.server";
import { peerReviewForm } from "./definition";
import { type PersonSummary, summarisePeerReviews } from "./peer-review-report";
import { reportFileName } from "./peer-review-report-pdf.server";
import { workTasks } from "./work-tasks.server";

/**
 * Every stored review's person, answers and reviewer key, and nothing else: not who wrote it, not when. What
 * the report is made of can then never name a reviewer.
 */
async function summaries(context: AppLoadContext): Promise<PersonSummary[]> {
  const rows = await context.db
    .select({ payload: submissions.payload })
    .from(submissions)
    .where(eq(submissions.type, peerReviewForm.type))
    .orderBy(asc(submissions.id));
  const reviews = rows.map(({ payload }) => ({
    reviewFor: typeof payload.reviewFor === "string" ? payload.reviewFor : "",
    answers: Array.isArray(payload.answers) ? payload.answers : [],
    reviewer: typeof payload.reviewerKey === "string" ? payload.reviewerKey : undefined,
  }));
  return summarisePeerReviews(reviews, context.config.PEER_REVIEW_MIN_RESPONSES);
}

/** The answer when every worker is making a photo or a PDF and the queue is full: nothing is lost by waiting. */
export const REPORT_BUSY_MESSAGE =
  "The server is busy making other documents just now. Please try the PDF again in a minute.";

/** The report page's loader: admins only. */
export async function loadPeerReviewReport(context: AppLoadContext) {
  signedInStaff(context, { role: "admin" });
  return { people: await summaries(context), minResponses: context.config.PEER_REVIEW_MIN_RESPONSES };
}

/** One person's report as a PDF, to admins only; a person with too few reviews has none. */
export async function downloadPeerReviewReport(request: Request, context: AppLoadContext): Promise<Response> {
  signedInStaff(context, { role: "admin" });
  const key = new URL(request.url).searchParams.get("person") ?? "";
  const person = (await summaries(context)).find((candidate) => candidate.key === key);
  if (!person) throw data({ message: "No reviews of that person." }, { status: 404 });
  if (!person.enough) {
    throw data(
      { message: `Not enough reviews yet (${person.reviews} of ${context.config.PEER_REVIEW_MIN_RESPONSES}).` },
      { status: 404 },
    );
  }
  const bytes = await inWorker(context.config, workTasks.peerReviewReportPdf, person).catch((error: unknown) => {
    if (error instanceof WorkPoolFull) throw data({ message: REPORT_BUSY_MESSAGE }, { status: 503 });
    throw error;
  });
  return new Response(bytes, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(bytes.byteLength),
      "Content-Disposition": reportFileName(person.name),
      "Cache-Control": "private, no-store",
    },
  });
}
