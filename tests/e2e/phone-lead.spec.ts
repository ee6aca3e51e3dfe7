import { createStaffUser, setStaffDisplayName } from "../../app/services/auth/staff-users.server";
import { deliveries } from "../../app/services/db/schema.server";
import { withAppDatabase } from "../support/app-database";
import { estimatePayload, insertInboxSubmission } from "../support/inbox-fixture";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const randomLetters = () =>
  Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

/**
 * A lead on a site the day after install: the estimate webhook not set up, and its office email failed for
 * good after eight tries. A colleague to give it to, known by a display name.
 */
async function storeLeadWithFailedEmail(lastName: string) {
  return withAppDatabase(process.env.E2E_DATA_DIR ?? "", async (db) => {
    const lead = await insertInboxSubmission(db, {
      payload: estimatePayload({
        firstName: "Marisol",
        lastName,
        phone: "(803) 555-0142",
        email: `marisol.${lastName}@example.com`,
        city: "Manning",
        comments: "Breaker trips when the dryer runs",
      }),
    });
    await db.insert(deliveries).values({
      submissionId: lead.id,
      webhookId: `msg_${randomLetters()}`,
      channel: "email",
      target: "STAFF_NOTIFY_EMAIL",
      destination: "office@example.com",
      body: {},
      status: "failed",
      attemptCount: 8,
      lastError: "connect ECONNREFUSED 127.0.0.1:25",
    });
    const colleague = await createStaffUser(db, {
      username: `colleague-${lastName}`,
      password: "unused password of a colleague",
      role: "staff",
      displayName: `Dana ${lastName}`,
    });
    return { id: lead.id, colleague };
  });
}

test("a lead's page starts with the customer and Call, saves its triage in one press, and tells staff what happened to each delivery in words", async ({
  page,
  signInAsStaff,
}) => {
  test.setTimeout(60_000);
  const lastName = `Okafor${randomLetters()}`;
  const lead = await storeLeadWithFailedEmail(lastName);
  const me = await signInAsStaff("staff", "phonelead");
  await withAppDatabase(process.env.E2E_DATA_DIR ?? "", (db) => setStaffDisplayName(db, me.id, `Sam ${lastName}`));

  await page.goto(`/admin/inbox/${lead.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Marisol ${lastName}`);
  await expect(page.getByText("Manning", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Commercial: Breaker trips when the dryer runs")).toBeVisible();
  const call = page.getByRole("link", { name: `Call Marisol ${lastName} at (803) 555-0142` });
  await expect(call).toHaveAttribute("href", "tel:+18035550142");
  const box = await call.boundingBox();
  expect(box && box.y + box.height, "Call within the first screen").toBeLessThanOrEqual(
    page.viewportSize()?.height ?? 0,
  );
  await expect(page.getByRole("link", { name: /^Text Marisol/ })).toHaveAttribute("href", "sms:+18035550142");
  await expect(page.getByRole("link", { name: /^Email Marisol/ })).toHaveAttribute(
    "href",
    `mailto:marisol.${lastName}@example.com`,
  );

  // Deliveries in words for a staff member: no setting names, ids or attempt counts, and no contradiction.
  const deliveriesSection = page.getByRole("region", { name: "Deliveries" });
  await expect(deliveriesSection).toContainText(
    "Not sent: the estimate webhook is not set up. An admin can set it up.",
  );
  await expect(deliveriesSection).toContainText("Failed: it was not sent to the office email");
  await expect(deliveriesSection.getByRole("button", { name: "Replay" })).toBeVisible();
  const pageText = (await page.locator("main").textContent()) ?? "";
  expect(pageText).not.toMatch(/WEBHOOK_|STAFF_NOTIFY_EMAIL|Attempts|webhook-id|Not tried yet/);
  await expect(deliveriesSection.getByText("Details for admins")).toHaveCount(0);

  // Status, assignee and a note, saved with one press.
  await page.getByLabel("Status").selectOption("Contacted");
  await page.getByLabel("Assignee").selectOption({ label: `Dana ${lastName}` });
  await page.getByLabel("Internal note").fill("Called: visit on Tuesday at 9.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: `Status set to Contacted. Assigned to Dana ${lastName}. Note added.` }),
  ).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: `Dana ${lastName}` })).toBeVisible();
  await expect(page.getByRole("region", { name: "Notes" }).getByRole("listitem")).toHaveText([
    new RegExp(`^Sam ${lastName}, .+Called: visit on Tuesday at 9\\.$`),
  ]);
  await expect(page.getByRole("region", { name: "Change history" }).getByRole("listitem")).toHaveText([
    new RegExp(`Sam ${lastName} changed the status from New to Contacted$`),
    new RegExp(`Sam ${lastName} changed the assignee from no one to Dana ${lastName}$`),
    new RegExp(`Sam ${lastName} added a note$`),
  ]);
  await expect(page.getByLabel("Internal note")).toHaveValue("");
  await expectNoAxeViolations(page, "a lead's page after its triage");

  // An admin opens the details: the setting, the attempts and the last error.
  await signInAsStaff("admin", "phoneleadadmin");
  await page.reload();
  const failed = page.getByRole("listitem", { name: "Delivery to the office email" });
  await failed.getByText("Details for admins").click();
  await expect(failed).toContainText("STAFF_NOTIFY_EMAIL (email): office@example.com");
  await expect(failed).toContainText("Attempts: 8. Last error: connect ECONNREFUSED 127.0.0.1:25");
});
