import AxeBuilder from "@axe-core/playwright";
import { withAppDatabase } from "../support/app-database";
import { estimatePayload, insertInboxSubmission } from "../support/inbox-fixture";
import { expect, expectNoAxeViolations, test } from "./fixtures";

const dataDir = () => process.env.E2E_DATA_DIR ?? "";

test("Quick Links opens on the Inbox and the leads waiting on a staff member; operator notices are an admin's, below the tools", async ({
  page,
  signInAsStaff,
}) => {
  const staff = await signInAsStaff("staff", "quicklinks");
  const lastName = `Quick${staff.id}`;
  const { lead } = await withAppDatabase(dataDir(), async (db) => {
    // A delivery that gave up: the operator's failed-delivery notice is raised.
    await insertInboxSubmission(db, { deliveryStatuses: ["failed"] });
    return {
      lead: await insertInboxSubmission(db, {
        assigneeId: staff.id,
        createdAt: new Date(Date.now() - 2 * 3_600_000),
        payload: estimatePayload({ firstName: "Dana", lastName, phone: "(803) 555-0142" }),
      }),
    };
  });

  await page.goto("/admin/quick-links");
  // The first card is the Inbox's, and it is on the first screen with the tools after it.
  const firstCard = page
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { level: 3 }) })
    .first();
  await expect(firstCard.getByRole("heading", { level: 3 })).toHaveText(/^Inbox \d+ new leads?$/);
  await expect(firstCard.getByRole("link", { name: "Visit Link: Inbox" })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("heading", { name: "Team Management" })).toBeInViewport({ ratio: 1 });

  // The lead assigned to them, first of those waiting, called with one tap from the first screen.
  const waiting = page.getByRole("region", { name: "Leads waiting for an answer" });
  const call = waiting.getByRole("link", { name: `Call Dana ${lastName} at (803) 555-0142` });
  await expect(call).toHaveAttribute("href", "tel:+18035550142");
  await expect(call).toBeInViewport({ ratio: 1 });
  await expect(waiting.getByRole("listitem").first()).toContainText(`Dana ${lastName} assigned to you, waiting 2 h`);
  await expect(waiting.getByRole("link", { name: /^See all \d+ new leads? in the inbox$/ })).toHaveAttribute(
    "href",
    "/admin/inbox?type=estimate&status=New",
  );

  // No operator notice for a staff member, though a delivery failed.
  for (const notice of [/Failed deliveries/, /held as spam/, /Last backup/, /How fast leads are answered/]) {
    await expect(page.getByText(notice)).toHaveCount(0);
  }
  await expect(page.getByRole("button", { name: "Acknowledge" })).toHaveCount(0);
  await expectNoAxeViolations(page, "Quick Links as a staff member");
  // A screen reader's list of headings goes down one level at a time (Lighthouse's heading-order): the Inbox card's
  // heading is under the Leads heading, unseen, as the tools' cards are under theirs.
  const headingOrder = await new AxeBuilder({ page }).withRules(["heading-order"]).analyze();
  expect(headingOrder.violations.map((violation) => violation.id)).toEqual([]);

  const leadLink = waiting.getByRole("link", { name: `Dana ${lastName}`, exact: true });
  expect((await leadLink.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  await leadLink.click();
  await expect(page).toHaveURL(new RegExp(`/admin/inbox/${lead.id}$`));
  // The lead's page is headed by the customer, with the reference under the name.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Dana ${lastName}`);
  await expect(page.getByText(lead.reference)).toBeVisible();

  // An admin gets the notices, compact, under the tools.
  await signInAsStaff("admin", "quicklinks");
  await page.goto("/admin/quick-links");
  const notices = page.getByRole("region", { name: "Needs attention" });
  await expect(notices).toContainText(/Failed deliveries: .*\d+ webhooks?\./);
  await expect(notices.getByRole("button", { name: "Acknowledge" })).toBeVisible();
  await expect(page.getByText(/Nothing is held as spam\.|held as spam, undelivered\./)).toBeVisible();
  const tools = await page.getByRole("region", { name: "Project Management" }).boundingBox();
  const box = await notices.boundingBox();
  if (!tools || !box) throw new Error("the tools or the notices are not shown");
  expect(box.y).toBeGreaterThan(tools.y + tools.height);
  expect(box.height).toBeLessThan(320);
});
