import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { validApplication } from "#tests/application-fixture";
import { capturingLogger } from "#tests/capturing-logger";
import { formActionHarness } from "#tests/form-action";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { defaultSiteContent } from "~/content/site-content";
import { submitApplication } from "~/features/careers/submit-application.server";
import { estimateForm } from "~/features/estimate/definition";
import { deliveries, submissions } from "~/services/db/schema.server";
import { followPublishedSiteContent } from "~/services/site-content/site-content-cache.server";
import { publishSiteDraft, saveSiteDraft } from "~/services/site-content/site-content-store.server";

/*
 * Words made once, when a form's definition loads, still name what an admin published since: the form
 * platform's messages name the new office phone, and the applicant's receipt the new company name and takes
 * replies at the new office address.
 */

const setup = staffTestDatabaseForFile();

describe("the company facts a publish changes", () => {
  const harness = formActionHarness({
    path: "/apply",
    database: () => setup.database.db,
    env: { SMTP_URL: "smtp://127.0.0.1:9", MAIL_FROM: "Website <website@example.com>" },
  });

  it("reach the forms' messages and the applicant's receipt", async () => {
    const oldPhone = defaultSiteContent.company.phone;
    expect(estimateForm.messages.failed).toContain(oldPhone);

    const content = structuredClone(defaultSiteContent);
    content.company.phone = "(803) 555-0188";
    content.company.name = "Palmetto Current LLC";
    content.company.email = "hello@palmetto-current.example";
    await saveSiteDraft(setup.database.db, { content, baseVersionId: null, userId: setup.actorId });
    await publishSiteDraft(setup.database.db, { userId: setup.actorId, baseVersionId: null });
    const following = await followPublishedSiteContent(setup.database.db, capturingLogger().logger, async () => {});
    try {
      for (const message of [estimateForm.messages.failed, estimateForm.messages.offline]) {
        expect(message).toContain("call us at (803) 555-0188");
        expect(message).not.toContain(oldPhone);
      }

      const response = await submitApplication(
        harness.post({ ...validApplication, submissionKey: crypto.randomUUID() }, { files: { resume: undefined } }),
        harness.contextFor({}, "192.0.2.81"),
      );
      const reference = (response.data as { reference: string }).reference;
      const [receipt] = await setup.database.db
        .select({ body: deliveries.body })
        .from(deliveries)
        .innerJoin(submissions, eq(submissions.id, deliveries.submissionId))
        .where(eq(submissions.reference, reference))
        .then((rows) => rows.filter((row) => JSON.stringify(row.body).includes("Thank you for your application")));
      const text = JSON.stringify(receipt?.body);
      expect(text).toContain("Thank you for your application to Palmetto Current LLC");
      expect(text).not.toContain(defaultSiteContent.company.name);
      // Without STAFF_NOTIFY_EMAIL, replies go to the office's published address.
      expect(text).toContain('"replyTo":"hello@palmetto-current.example"');
    } finally {
      await following.stop();
    }
  });
});
