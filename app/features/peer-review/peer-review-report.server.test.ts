import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdWorkPool } from "#tests/held-work-pool";
import { loadContextFor } from "#tests/load-context";
import { pdfText } from "#tests/pdf-reading";
import { allRated, peerReviewFields } from "#tests/peer-review-fixture";
import { addStaffUser } from "#tests/staff";
import { staffRequest, thrownStatus } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { workPool } from "~/services/work-pool/work-pool.server";
import { downloadPeerReviewReport, loadPeerReviewReport, REPORT_BUSY_MESSAGE } from "./load-peer-review-report.server";
import { submitPeerReview } from "./submit-peer-review.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const context = () => loadContextFor(database.db);
const REPORT_PATH = "/admin/peer-review-report";

async function review(reviewerId: number, reviewFor: string, ratings: readonly string[]) {
  const reviewerContext = context();
  const request = await staffRequest(reviewerContext, reviewerId, "/admin/quick-links/peer-review", {
    method: "POST",
    body: new URLSearchParams(peerReviewFields(reviewFor, ratings)),
  });
  const response = await submitPeerReview(request, reviewerContext);
  if ((response.data as { status: string }).status !== "success") throw new Error("the review was not stored");
}

async function reportAs(userId: number) {
  const readerContext = context();
  return staffRequest(readerContext, userId, REPORT_PATH).then(() => loadPeerReviewReport(readerContext));
}

async function pdfAs(userId: number, key: string) {
  const path = `${REPORT_PATH}/pdf?person=${encodeURIComponent(key)}`;
  const readerContext = context();
  return downloadPeerReviewReport(await staffRequest(readerContext, userId, path), readerContext);
}

// Three reviews of one person, each by someone else: statement 1 gets 5, 4 and NE; statement 2 gets 1, 2
// and 2; the rest 3, 4 and 5.
const FIRST = ["5", "1", ...allRated("3").slice(2)];
const SECOND = ["4", "2", ...allRated("4").slice(2)];
const THIRD = ["NE", "2", ...allRated("5").slice(2)];

describe("the peer review report", () => {
  it("shows no numbers for a person with 2 reviews, and the averages once a third is in", async () => {
    const reviewers = await Promise.all([1, 2, 3].map(() => addStaffUser(database.db, "staff")));
    const admin = await addStaffUser(database.db, "admin");
    await review(reviewers[0]?.id ?? 0, "John Smith", FIRST);
    await review(reviewers[1]?.id ?? 0, "  john   SMITH ", SECOND);

    const early = await reportAs(admin.id);
    expect(early.minResponses).toBe(3);
    expect(early.people).toEqual([{ key: "john smith", name: "John Smith", reviews: 2, enough: false }]);
    expect(await thrownStatus(pdfAs(admin.id, "john smith"))).toBe(404);

    await review(reviewers[2]?.id ?? 0, "john smith ", THIRD);
    const [person] = (await reportAs(admin.id)).people;
    if (!person?.enough) throw new Error("three reviews should be enough");
    expect(person.reviews).toBe(3);
    expect(person.statements[0]).toMatchObject({ average: "4.50", answers: 2 });
    expect(person.statements[1]).toMatchObject({ average: "1.67", answers: 3 });
    for (const row of person.statements.slice(2)) expect(row).toMatchObject({ average: "4.00", answers: 3 });
    // (5 + 4 + 1 + 2 + 2 + 13 × (3 + 4 + 5)) / 44 answers that count.
    expect(person.overall).toBe(((5 + 4 + 1 + 2 + 2 + 13 * 12) / 44).toFixed(2));
    expect(person.spread).toEqual({ "1": 1, "2": 2, "3": 13, "4": 14, "5": 14, NE: 1 });

    const text = (await pdfText(new Uint8Array(await (await pdfAs(admin.id, person.key)).arrayBuffer()))).replace(
      /\s+/g,
      " ",
    );
    expect(text).toContain("Peer Review Report");
    expect(text).toContain("Peer Review for: John Smith");
    expect(text).toContain("1 Behaves consistently with the company's mission, vision and values. 4.50 2");
    expect(text).toContain("2 Is viewed as a person of integrity by co-workers. 1.67 3");
    expect(text).toContain(`Overall average: ${person.overall}`);
    expect(text).toContain("Spread of all answers: 1: 1, 2: 2, 3: 13, 4: 14, 5: 14, NE: 1");
    for (const reviewer of reviewers) expect(text).not.toContain(reviewer.username);
    expect(JSON.stringify(await reportAs(admin.id))).not.toMatch(
      new RegExp(reviewers.map((r) => r.username).join("|")),
    );
  });

  it("waits for more reviews when PEER_REVIEW_MIN_RESPONSES asks for more", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const strict = loadContextFor(database.db, { PEER_REVIEW_MIN_RESPONSES: "4" });
    const report = await staffRequest(strict, admin.id, REPORT_PATH).then(() => loadPeerReviewReport(strict));
    expect(report.minResponses).toBe(4);
    expect(report.people.find((person) => person.key === "john smith")).toEqual({
      key: "john smith",
      name: "John Smith",
      reviews: 3,
      enough: false,
    });
  });

  it("counts reviewers, not reviews: one person's several reviews of someone neither reach the minimum nor outweigh", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const [real, padder] = [await addStaffUser(database.db, "staff"), await addStaffUser(database.db, "staff")];
    await review(real.id, "Robin Park", allRated("5"));
    await review(padder.id, "Robin Park", allRated("1"));
    await review(padder.id, "robin park", allRated("1"));
    const person = () => reportAs(admin.id).then((report) => report.people.find((p) => p.key === "robin park"));
    expect(await person()).toEqual({ key: "robin park", name: "Robin Park", reviews: 2, enough: false });

    // A third reviewer reaches it; the padder counts once, with their latest review.
    const third = await addStaffUser(database.db, "staff");
    await review(padder.id, "Robin Park", allRated("3"));
    await review(third.id, "Robin Park", allRated("4"));
    expect(await person()).toMatchObject({ reviews: 3, enough: true, overall: "4.00" });
  });

  it("builds the PDF in the work pool: with every worker busy and the queue full it answers 503 with why, then the PDF", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const busy = loadContextFor(database.db, { PHOTO_WORKERS: "1", PHOTO_QUEUE_LIMIT: "1" });
    const download = async () =>
      downloadPeerReviewReport(await staffRequest(busy, admin.id, `${REPORT_PATH}/pdf?person=john%20smith`), busy);
    const held = holdWorkPool(workPool(busy.config), 2);
    try {
      const refused = await download().then(
        () => undefined,
        (error: unknown) => error as { data?: unknown; init?: { status?: number } },
      );
      expect(refused?.init?.status).toBe(503);
      expect(refused?.data).toEqual({ message: REPORT_BUSY_MESSAGE });
    } finally {
      await held.release();
    }
    const pdf = await download();
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain("Peer Review for: John Smith");
  });

  it("answers a staff user 403, on the page and on the PDF", async () => {
    const staff = await addStaffUser(database.db, "staff");
    expect(await thrownStatus(reportAs(staff.id))).toBe(403);
    expect(await thrownStatus(pdfAs(staff.id, "john smith"))).toBe(403);
  });
});
