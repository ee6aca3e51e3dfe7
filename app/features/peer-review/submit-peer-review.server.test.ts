import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor } from "#tests/load-context";
import { pdfText } from "#tests/pdf-reading";
import { allRated, peerReviewFields } from "#tests/peer-review-fixture";
import { addStaffUser } from "#tests/staff";
import { asStaffRoute, staffRequest } from "#tests/staff-request";
import { storedByReference } from "#tests/stored-submission";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { submissions } from "~/services/db/schema.server";
import { documentsBuilt } from "~/services/metrics/metrics.server";
import type { PeerReviewActionResult } from "./definition";
import { submitPeerReview } from "./submit-peer-review.server";

let database: TestDatabase;
let receiver: WebhookReceiver;
beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await database.drop();
});

const contextFor = () => loadContextFor(database.db, { WEBHOOK_PEER_REVIEW_URL: `${receiver.url}peer-review` });

async function submit(userId: number, fields: Record<string, string>) {
  const context = contextFor();
  const request = await staffRequest(context, userId, "/admin/quick-links/peer-review", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  const response = await submitPeerReview(request, context);
  return { status: response.init?.status ?? 200, result: response.data as PeerReviewActionResult, context };
}

const RATINGS = ["5", "4", "4", "3", "NE", "5", "2", "1", "4", "5", "NE", "3", "4", "5", "4"];

describe("the peer review action", () => {
  it("stores the review with its server-made PDF and posts both to the webhook as multipart", async () => {
    const reviewer = await addStaffUser(database.db, "staff");
    const { status, result, context } = await submit(reviewer.id, peerReviewFields("  Nguyễn Văn An ", RATINGS));

    expect(status).toBe(200);
    if (result.status !== "success") throw new Error(`not stored: ${JSON.stringify(result)}`);
    expect(result.reference).toMatch(/^PRV-[0-9A-Z]{6}$/);

    const stored = await storedByReference(database.db, result.reference);
    // 49 over 13 counted answers (two NE) is 3.769...
    expect(stored.submission.payload).toEqual({
      reviewFor: "Nguyễn Văn An",
      date: "2026-03-05",
      answers: RATINGS,
      average: "3.77",
      reviewerKey: expect.stringMatching(/^[\w-]{43}$/),
    });
    // Nothing stored says who wrote it, nor from where.
    expect(stored.submission).toMatchObject({ submittedById: null, clientIp: null, userAgent: null });
    expect(stored.files).toHaveLength(1);
    const [pdf] = stored.files;
    expect(pdf).toMatchObject({
      fieldName: "pdf",
      fileName: "peer-review-Nguyễn-Văn-An.pdf",
      contentType: "application/pdf",
    });
    expect(result.pdfUrl).toMatch(new RegExp(`^/admin/inbox/${stored.submission.id}/files/${pdf?.id}\\?grant=`));
    const text = (await pdfText(new Uint8Array(pdf?.content ?? []))).replace(/\s+/g, " ");
    expect(text).toContain("Peer Review for: Nguyễn Văn An");
    expect(text).toContain("Average Score: 3.77");

    expect(stored.deliveries.map((delivery) => [delivery.target, delivery.bodyFormat])).toEqual([
      ["WEBHOOK_PEER_REVIEW_URL", "multipart"],
    ]);
    expect(await context.deliveryWorker.runOnce()).toBe(1);
    const [request] = await receiver.waitForRequests(1);
    const sent = await new Response(new Uint8Array(request?.rawBody ?? []), {
      headers: { "content-type": String(request?.headers["content-type"]) },
    }).formData();
    expect([...sent.keys()]).toEqual(["reviewFor", "date", "answers", "average", "pdf", "submittedAt"]);
    expect(sent.get("reviewFor")).toBe("Nguyễn Văn An");
    expect(sent.get("date")).toBe("2026-03-05");
    expect(JSON.parse(String(sent.get("answers")))).toEqual(RATINGS);
    expect(sent.get("average")).toBe("3.77");
    const submittedAt = String(sent.get("submittedAt"));
    expect(new Date(submittedAt).toISOString()).toBe(submittedAt);
    expect(Math.abs(new Date(submittedAt).getTime() - stored.submission.createdAt.getTime())).toBeLessThan(60_000);
    const file = sent.get("pdf") as File;
    expect(file.name).toBe("peer-review-Nguyễn-Văn-An.pdf");
    expect(file.type).toBe("application/pdf");
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(pdf?.content ?? []))).toBe(true);
  });

  it("refuses a review with a statement left unrated, saying which, and stores nothing", async () => {
    const reviewer = await addStaffUser(database.db, "staff");
    const ratings = [...allRated("4")];
    ratings[6] = "";
    const { status, result } = await submit(reviewer.id, peerReviewFields("Jo Bloggs", ratings));
    expect(status).toBe(400);
    if (result.status !== "invalid") throw new Error(`not refused: ${JSON.stringify(result)}`);
    expect(result.message).toBe("Please fill in the name, the date and a rating for every statement.");
    expect(Object.keys(result.problems)).toEqual(["q7"]);
    expect(await database.db.$count(submissions)).toBe(1);
  });

  it("refuses a rating that is not on the scale, and a name or date left empty", async () => {
    const reviewer = await addStaffUser(database.db, "staff");
    const ratings = [...allRated("4")];
    ratings[0] = "6";
    const { status, result } = await submit(reviewer.id, { ...peerReviewFields("", ratings), date: "" });
    expect(status).toBe(400);
    if (result.status !== "invalid") throw new Error("not refused");
    expect(result.problems).toEqual({
      reviewFor: "This field is required.",
      date: "This field is required.",
      q1: "Choose 1 to 5, or NE",
    });
  });

  it("sends a signed-out visitor to sign in", async () => {
    const context = contextFor();
    const request = new Request("http://localhost/admin/quick-links/peer-review", {
      method: "POST",
      body: new URLSearchParams(peerReviewFields("Jo Bloggs", allRated("3"))),
    });
    const response = (await asStaffRoute(request, context, submitPeerReview).catch(
      (thrown: unknown) => thrown,
    )) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/admin\?redirectTo=/);
  });
  it("keys each review by its reviewer and the person reviewed, so reviewers are counted but never named", async () => {
    const [first, second] = [await addStaffUser(database.db, "staff"), await addStaffUser(database.db, "staff")];
    const keyOf = async (userId: number, reviewFor: string) => {
      const { result } = await submit(userId, peerReviewFields(reviewFor, RATINGS));
      if (result.status !== "success") throw new Error("not stored");
      const { submission } = await storedByReference(database.db, result.reference);
      return { key: submission.payload.reviewerKey };
    };
    const again = await keyOf(first.id, "Pat Lee");
    expect((await keyOf(first.id, " pat  LEE ")).key).toBe(again.key);
    expect((await keyOf(second.id, "Pat Lee")).key).not.toBe(again.key);
    // Across people the same reviewer's reviews cannot be linked either.
    expect((await keyOf(first.id, "Sam Carter")).key).not.toBe(again.key);
  });

  it("answers a resend (same double-submit key) with the stored PDF, without building another", async () => {
    const builtReviews = async () =>
      (await documentsBuilt.get()).values.find((value) => value.labels.type === "peer-review")?.value ?? 0;
    const reviewer = await addStaffUser(database.db, "staff");
    const fields = { ...peerReviewFields("Sam Twice", RATINGS), submissionKey: crypto.randomUUID() };
    const before = await builtReviews();
    const first = await submit(reviewer.id, fields);
    const second = await submit(reviewer.id, fields);
    if (first.result.status !== "success" || second.result.status !== "success") throw new Error("not stored");
    expect(second.result.reference).toBe(first.result.reference);
    expect(new URL(second.result.pdfUrl, "http://localhost").pathname).toBe(
      new URL(first.result.pdfUrl, "http://localhost").pathname,
    );
    expect(await builtReviews()).toBe(before + 1);
  });
});
