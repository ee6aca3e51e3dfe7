import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { validApplication } from "#tests/application-fixture";
import { formActionHarness } from "#tests/form-action";
import { SENDING_LIMITS } from "#tests/inbox-fixture";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { submitApplication } from "~/features/careers/submit-application.server";
import { replayDelivery } from "~/features/inbox/replay-delivery.server";
import { WorkflowInputError } from "~/features/inbox/workflow-error";
import { deliveries } from "~/services/db/schema.server";

const setup = staffTestDatabaseForFile();

const deliveriesOf = (submissionId: number) =>
  setup.database.db
    .select()
    .from(deliveries)
    .where(eq(deliveries.submissionId, submissionId))
    .orderBy(asc(deliveries.id));

describe("replaying a receipt", () => {
  const harness = formActionHarness({
    path: "/apply",
    database: () => setup.database.db,
    env: { SMTP_URL: "smtp://127.0.0.1:9", MAIL_FROM: "Website <website@example.com>" },
  });

  /** An application from `email`, whose receipt failed; resolves with the submission and its receipt. */
  async function applicationWithReceipt(email: string, clientIp: string) {
    const response = await submitApplication(
      harness.post(
        { ...validApplication, email, submissionKey: crypto.randomUUID() },
        { files: { resume: undefined } },
      ),
      harness.contextFor({}, clientIp),
    );
    const reference = (response.data as { reference: string }).reference;
    const stored = await setup.database.db.query.submissions.findFirst({
      where: (table, { eq: equals }) => equals(table.reference, reference),
    });
    if (!stored) throw new Error(`no submission ${reference}`);
    const receipt = (await deliveriesOf(stored.id)).find((delivery) => delivery.target === "APPLICANT_RECEIPT");
    if (!receipt) throw new Error(`no receipt for ${reference}`);
    await setup.database.db.update(deliveries).set({ status: "failed" }).where(eq(deliveries.id, receipt.id));
    return { submissionId: stored.id, receipt };
  }

  it("counts against the address's daily limit of receipts: the replay that would be the fourth is refused", async () => {
    const first = await applicationWithReceipt("Replayed@Example.com", "192.0.2.71");
    const replayFirst = () =>
      replayDelivery(
        setup.database.db,
        {
          submissionId: first.submissionId,
          deliveryId: first.receipt.id,
          replayer: { id: setup.actorId, role: "staff" },
        },
        SENDING_LIMITS,
      );
    const replayed = await replayFirst();
    await setup.database.db.update(deliveries).set({ status: "failed" }).where(eq(deliveries.id, replayed.deliveryId));
    await applicationWithReceipt("replayed@example.com", "192.0.2.72");
    await expect(replayFirst()).rejects.toThrow(
      new WorkflowInputError(
        "Replayed@Example.com has had 3 of these emails in the last 24 hours, the most one address gets: replay it tomorrow.",
      ),
    );
    expect((await deliveriesOf(first.submissionId)).filter((d) => d.target === "APPLICANT_RECEIPT")).toHaveLength(2);
  });
});
