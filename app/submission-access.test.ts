import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertInboxSubmission } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { allRated, peerReviewFields } from "#tests/peer-review-fixture";
import { addStaffUser } from "#tests/staff";
import { staffRequest, thrownStatus } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { downloadInboxCsv } from "~/features/inbox/export-csv.server";
import { loadInbox } from "~/features/inbox/load-inbox.server";
import { serveSubmissionFile } from "~/features/inbox/submission-file-download.server";
import { loadSubmissionPage } from "~/features/inbox/submission-page.server";
import type { PeerReviewActionResult } from "~/features/peer-review/definition";
import { submitPeerReview } from "~/features/peer-review/submit-peer-review.server";
import { newWebhookId } from "~/outbox/submission-store.server";
import { deliveries, deliveryAttempts } from "~/services/db/schema.server";

/**
 * A form whose definition says `readableBy: "admin"` (the peer review, which records who wrote it) is kept
 * from staff users everywhere the inbox shows submissions. The inbox and the peer review meet here.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function submit(userId: number, fields: Record<string, string>) {
  const context = loadContextFor(database.db);
  const request = await staffRequest(context, userId, "/admin/quick-links/peer-review", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  const response = await submitPeerReview(request, context);
  return { result: response.data as PeerReviewActionResult, context };
}

describe("who reads a peer review", () => {
  it("lets only admins open it in the inbox, and its writer and admins download its PDF", async () => {
    const writer = await addStaffUser(database.db, "staff");
    const colleague = await addStaffUser(database.db, "staff");
    const admin = await addStaffUser(database.db, "admin");
    const { result, context } = await submit(writer.id, peerReviewFields("Sam Carter", allRated("5")));
    if (result.status !== "success") throw new Error("not stored");
    const [, , , submissionId, , fileId] = (result.pdfUrl.split("?")[0] ?? "").split("/");
    const params = { submissionId, fileId };
    const detailPath = `/admin/inbox/${submissionId}`;

    for (const user of [writer, colleague]) {
      const status = await thrownStatus(
        staffRequest(context, user.id, detailPath).then((request) =>
          loadSubmissionPage(request, context, submissionId),
        ),
      );
      expect(status, `${user.username} opens the review`).toBe(403);
    }
    const forAdmin = await staffRequest(context, admin.id, detailPath).then((request) =>
      loadSubmissionPage(request, context, submissionId),
    );
    expect(forAdmin.submission.reference).toBe(result.reference);

    expect(
      await thrownStatus(
        serveSubmissionFile(await staffRequest(context, colleague.id, result.pdfUrl), context, params),
      ),
    ).toBe(403);
    for (const user of [writer, admin]) {
      const download = await serveSubmissionFile(await staffRequest(context, user.id, result.pdfUrl), context, params);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("application/pdf");
      expect(download.headers.get("content-disposition")).toContain("peer-review-Sam-Carter.pdf");
    }

    // The writer's own download is not logged as theirs: the log would then name the review's author.
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const logged = Object.assign(loadContextFor(database.db), { logger });
    await serveSubmissionFile(await staffRequest(logged, writer.id, result.pdfUrl), logged, params);
    const downloads = lines.filter((line) => line.msg === "submission file downloaded");
    expect(downloads).toHaveLength(1);
    expect(downloads[0]).not.toHaveProperty("by");
    // Without its grant the link is the writer's no more than anyone's.
    const bare = result.pdfUrl.split("?")[0] ?? "";
    expect(await thrownStatus(serveSubmissionFile(await staffRequest(context, writer.id, bare), context, params))).toBe(
      403,
    );
  });

  it("leaves peer reviews out of a staff user's inbox list and CSV, and shows them to admins", async () => {
    const staff = await addStaffUser(database.db, "staff");
    const admin = await addStaffUser(database.db, "admin");
    const { result, context } = await submit(staff.id, peerReviewFields("Casey Jones", allRated("2")));
    if (result.status !== "success") throw new Error("not stored");

    const references = async (userId: number, query: string) => {
      const page = await loadInbox(await staffRequest(context, userId, `/admin/inbox${query}`), context);
      return page.data.status === "valid" ? page.data.rows.map((row) => row.reference) : [];
    };
    expect(await references(staff.id, "")).not.toContain(result.reference);
    expect(await references(staff.id, "?type=peer-review")).toEqual([]);
    expect(await references(admin.id, "")).toContain(result.reference);

    const csv = async (userId: number) =>
      (await downloadInboxCsv(await staffRequest(context, userId, "/admin/inbox/export.csv"), context)).text();
    const staffCsv = await csv(staff.id);
    expect(staffCsv).not.toContain(result.reference);
    expect(staffCsv).not.toContain("Casey Jones");
    expect(staffCsv).not.toContain("Peer Review for");
    expect(await csv(admin.id)).toContain(result.reference);
  });
});

describe("where deliveries went", () => {
  const WEBHOOK_URL = "https://hooks.example.com/catch/secret-token-4711";
  const TECHNICIAN_EMAIL = "dana.reyes@example.com";
  const TECHNICIAN_MOBILE = "+18035550142";

  it("is shown to admins only: webhook URLs carry secrets, and technicians' addresses and numbers are theirs", async () => {
    const staff = await addStaffUser(database.db, "staff");
    const admin = await addStaffUser(database.db, "admin");
    const message = await insertInboxSubmission(database.db, {
      type: "team-message",
      payload: {
        subject: "Storm call-out",
        body: "All hands tomorrow at 6.",
        recipients: [{ id: 1, name: "Dana Reyes", email: TECHNICIAN_EMAIL, phoneNumber: TECHNICIAN_MOBILE }],
        sentAt: new Date().toISOString(),
      },
    });
    const sent = [
      { channel: "webhook", target: "WEBHOOK_TEAM_MESSAGE_URL", destination: WEBHOOK_URL },
      { channel: "email", target: "Dana Reyes", destination: TECHNICIAN_EMAIL },
      { channel: "sms", target: "Dana Reyes", destination: TECHNICIAN_MOBILE },
    ] as const;
    for (const delivery of sent) {
      const [stored] = await database.db
        .insert(deliveries)
        .values({ ...delivery, submissionId: message.id, webhookId: newWebhookId(), body: {}, status: "failed" })
        .returning({ id: deliveries.id });
      await database.db.insert(deliveryAttempts).values({
        deliveryId: stored?.id ?? 0,
        startedAt: new Date(),
        durationMs: 12,
        httpStatus: 500,
        succeeded: false,
        destination: delivery.destination,
      });
    }
    const context = loadContextFor(database.db, { WEBHOOK_TEAM_MESSAGE_URL: WEBHOOK_URL });
    const detailPath = `/admin/inbox/${message.id}`;
    const pageFor = async (userId: number) =>
      JSON.stringify(
        await staffRequest(context, userId, detailPath).then((request) =>
          loadSubmissionPage(request, context, String(message.id)),
        ),
      );

    const forStaff = await pageFor(staff.id);
    for (const secret of ["secret-token-4711", TECHNICIAN_EMAIL, TECHNICIAN_MOBILE, "8035550142"]) {
      expect(forStaff).not.toContain(secret);
    }
    expect(forStaff).toContain("Dana Reyes (email and text)");
    // Staff read where each went in words; the setting's name is an admin's detail.
    expect(forStaff).toContain("the team message webhook");
    expect(forStaff).not.toContain("WEBHOOK_TEAM_MESSAGE_URL");

    const forAdmin = await pageFor(admin.id);
    for (const destination of [WEBHOOK_URL, TECHNICIAN_EMAIL, TECHNICIAN_MOBILE, "WEBHOOK_TEAM_MESSAGE_URL"]) {
      expect(forAdmin).toContain(destination);
    }

    const staffCsv = await (
      await downloadInboxCsv(await staffRequest(context, staff.id, "/admin/inbox/export.csv"), context)
    ).text();
    expect(staffCsv).toContain("Dana Reyes (email and text)");
    expect(staffCsv).not.toContain(TECHNICIAN_EMAIL);
  });
});
