import type { BrowserContext, Locator, Page } from "@playwright/test";
import { RATING_MEANINGS } from "../../app/features/peer-review/ratings";
import { PEER_REVIEW_STATEMENTS } from "../../app/features/peer-review/statements";
import { smallPdf } from "../support/application-fixture";
import { draftHoldsTheScreen } from "../support/saved-draft";
import { validEstimateRequest, validJobRequest } from "../support/staff-request-fixture";
import { countSubmissionsOf, queryAppDatabase } from "../support/submission-lookup";
import { expect, test } from "./fixtures";
import { holdScripts } from "./held-scripts";
import { fillApplication, fillEstimate } from "./public-forms";
import { cutSignal, restoreSignal } from "./signal";

/**
 * The same cases over every form, public and staff, at a phone's width and a desktop's: what a person sees
 * after pressing send, whatever happened to the send. A form is one entry of FORMS; the cases are not
 * written per form.
 */

type FormUnderTest = {
  name: string;
  path: string;
  /** The submission type, to count what was stored. */
  type: string;
  staff: boolean;
  /** Filled on a phone only (the checklist). */
  phoneOnly?: boolean;
  /** What must exist before the form can be filled (a technician to write to). */
  prepare?: (dataDir: string, contact: string) => Promise<void>;
  /** Fills every required answer, `contact` as the name the submission is stored under. */
  fill: (page: Page, contact: string) => Promise<void>;
  /** The answers the person typed are all still there. */
  expectKept: (page: Page, contact: string) => Promise<void>;
  send: (page: Page) => Locator;
  /** Where the success shows. */
  success: (page: Page) => Locator;
};

const byLabel = (page: Page, label: string) =>
  page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( \\(optional\\))?$`));

async function fillLabels(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await byLabel(page, label).fill(value);
}

async function expectLabels(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) await expect(byLabel(page, label)).toHaveValue(value);
}

const estimateRequestAnswers = (contact: string) => ({
  "Job Name": validEstimateRequest.jobName,
  "Job Address": validEstimateRequest.jobAddress,
  "Contact Person": contact,
  "Phone Number": validEstimateRequest.phone,
  "Email Address": validEstimateRequest.email,
  "Customer Name": validEstimateRequest.customerName,
  "Customer Billing Address": validEstimateRequest.customerBillingAddress,
  "Brief Description of Work Needed": validEstimateRequest.description,
  "Appointment for estimate": validEstimateRequest.appointment,
  "Appointment Time": validEstimateRequest.appointmentTime,
  Notes: validEstimateRequest.notes,
});

const jobRequestAnswers = (contact: string) => ({
  "Job Name": validJobRequest.jobName,
  "Job Address": validJobRequest.jobAddress,
  "Job Summary": validJobRequest.jobSummary,
  "Appointment for Job": validJobRequest.appointmentForJob,
  "Project Total Amount": validJobRequest.projectTotalAmount,
  "Contact Person": contact,
  "Phone Number": validJobRequest.phone,
  "Email Address": validJobRequest.email,
});

const checklistAnswers = (contact: string) => ({
  "Your Name": contact,
  "Your Email": "surveyor@example.com",
  "Project Name": "Gym addition",
});

const rating = (page: Page, index: number) =>
  page
    .getByRole("group", { name: `${index + 1}. ${PEER_REVIEW_STATEMENTS[index]}` })
    .getByRole("radio", { name: `4 ${RATING_MEANINGS["4"]}` });

/** The estimate request and the job request: labelled fields, and Submit. */
function staffRequest(name: string, type: string, answers: (contact: string) => Record<string, string>): FormUnderTest {
  return {
    name,
    path: `/admin/quick-links/${type}`,
    type,
    staff: true,
    fill: (page, contact) => fillLabels(page, answers(contact)),
    expectKept: (page, contact) => expectLabels(page, answers(contact)),
    send: (page) => page.getByRole("button", { name: "Submit" }),
    success: status,
  };
}

const status = (page: Page) => page.getByRole("status").filter({ hasText: /[A-Z]{3}-[0-9A-Z]{6}|successfully/ });

const FORMS: FormUnderTest[] = [
  {
    name: "the free-estimate request",
    path: "/learnmore",
    type: "estimate",
    staff: false,
    fill: async (page, contact) => {
      await fillEstimate(page, "Commercial");
      await page.locator("#form").getByLabel("First name").fill(contact);
    },
    expectKept: async (page, contact) => {
      await expect(page.locator("#form").getByLabel("First name")).toHaveValue(contact);
      await expect(page.locator("#form").getByLabel("Comments")).toHaveValue("Panel upgrade for a two-story office.");
    },
    send: (page) => page.getByRole("button", { name: "Request a free estimate" }),
    success: (page) => page.getByRole("dialog").filter({ hasText: "success!" }),
  },
  {
    name: "the job application",
    path: "/apply",
    type: "application",
    staff: false,
    fill: async (page, contact) => {
      await fillApplication(page);
      await page.getByLabel("First name").fill(contact);
      await page.getByLabel(/Resume/).setInputFiles({
        name: "resume.pdf",
        mimeType: "application/pdf",
        buffer: smallPdf(),
      });
    },
    expectKept: async (page, contact) => {
      await expect(page.getByLabel("First name")).toHaveValue(contact);
      await expect(page.getByLabel("Address")).toHaveValue("12 Example Road, Sumter, SC 29150");
    },
    send: (page) => page.getByRole("button", { name: "Submit Application" }),
    success: status,
  },
  staffRequest("the internal estimate request", "estimate-request", estimateRequestAnswers),
  staffRequest("the job request", "job-request", jobRequestAnswers),
  {
    name: "a team message",
    path: "/admin/quick-links/team-communication",
    type: "team-message",
    staff: true,
    prepare: async (dataDir, contact) => {
      await queryAppDatabase(dataDir, "INSERT INTO staff_directory (name, email) VALUES ($1, $2)", [
        contact,
        `${contact.replace(/\W+/g, ".").toLowerCase()}@example.com`,
      ]);
    },
    fill: async (page, contact) => {
      await page.getByRole("checkbox", { name: contact }).check();
      await page.getByLabel("Subject").fill("Storm crew tonight");
      await page.getByLabel("Body").fill("Meet at the yard at 6 pm.");
    },
    expectKept: async (page, contact) => {
      await expect(page.getByRole("checkbox", { name: contact })).toBeChecked();
      await expect(page.getByLabel("Subject")).toHaveValue("Storm crew tonight");
      await expect(page.getByLabel("Body")).toHaveValue("Meet at the yard at 6 pm.");
    },
    send: (page) => page.getByRole("button", { name: "Send Message" }),
    // The shared app has no email, texts or webhooks set up: the outcome says so (docs/design.md).
    success: (page) => page.getByRole("status").filter({ hasText: "Saved, but not sent:" }),
  },
  {
    name: "the peer review",
    path: "/admin/quick-links/peer-review",
    type: "peer-review",
    staff: true,
    fill: async (page, contact) => {
      await page.getByLabel("Peer Review for").fill(contact);
      await page.getByLabel("Date").fill("2026-03-05");
      for (const index of PEER_REVIEW_STATEMENTS.keys()) await rating(page, index).check();
    },
    expectKept: async (page, contact) => {
      await expect(page.getByLabel("Peer Review for")).toHaveValue(contact);
      for (const index of PEER_REVIEW_STATEMENTS.keys()) await expect(rating(page, index)).toBeChecked();
    },
    send: (page) => page.getByRole("button", { name: "Submit" }),
    success: (page) => page.getByRole("status").filter({ hasText: "Your peer review has been submitted" }),
  },
  {
    name: "the estimate checklist",
    path: "/admin/quick-links/estimate-checklist",
    type: "estimate-checklist",
    staff: true,
    fill: (page, contact) => fillLabels(page, checklistAnswers(contact)),
    expectKept: (page, contact) => expectLabels(page, checklistAnswers(contact)),
    send: (page) => page.getByRole("button", { name: "Submit Checklist" }),
    success: (page) => page.getByRole("status").filter({ hasText: "PDF generated and saved. Not sent:" }),
  },
];

/** The phone width the staff forms were tried at. */
const PHONE = { width: 390, height: 844 };

let sequence = 0;
/** A contact name no other test uses, so what is counted is this test's alone. */
const uniqueContact = (project: string) =>
  `Kim ${project} ${Date.now().toString(36)}${(sequence++).toString(36)}${process.pid}`;

const dataDir = () => process.env.E2E_DATA_DIR ?? "";

/** The visible outcome is in the viewport, and (with JavaScript) has the focus or holds it, as a dialog does. */
async function expectInViewAndFocused(outcome: Locator) {
  await expect(outcome).toBeVisible({ timeout: 20_000 });
  await expect(outcome).toBeInViewport();
  const focused = outcome.page().locator(":focus");
  await expect(outcome.and(focused).or(outcome.filter({ has: focused }))).toHaveCount(1);
}

const waitingRegion = (page: Page) => page.getByRole("region", { name: "Waiting to be sent" });

/** The form waits on the device, its answers readable there, and the form on the screen is a new one. */
async function expectWaiting(page: Page, contact: string) {
  const waiting = waitingRegion(page);
  await waiting.getByText("Its answers").click();
  await expect(waiting.getByRole("definition").filter({ hasText: contact })).toBeVisible();
  await expect(page.getByRole("main").getByText(/^Draft saved on this device at/)).toHaveCount(0);
}

async function expectNoErrorScreen(page: Page) {
  await expect(page.getByText("Unexpected Application Error!")).toHaveCount(0);
}

/** Opens the form as its person would: staff signed in first. */
async function open(
  form: FormUnderTest,
  page: Page,
  signInAsStaff: (role: "staff", label: string) => Promise<unknown>,
  contact: string,
) {
  if (form.staff) await signInAsStaff("staff", "every-form");
  await form.prepare?.(dataDir(), contact);
  await page.goto(form.path);
}

/** Answers every post with a 503 page, as a proxy does while the app is down. */
async function proxyAnswers503(context: BrowserContext) {
  await context.route("**/*", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({ status: 503, contentType: "text/html", body: "<h1>503 Service Unavailable</h1>" })
      : route.continue(),
  );
}

// Fifteen ratings to click, a PDF to build: on a shared two-core machine a case can take half a minute.
test.describe.configure({ timeout: 60_000 });

for (const form of FORMS) {
  test.describe(form.name, () => {
    test.beforeEach(async ({ page, isMobile }) => {
      if (isMobile) await page.setViewportSize(PHONE);
    });

    test("sends, and shows its outcome in view and focus", async ({ page, signInAsStaff }, info) => {
      const contact = uniqueContact(info.project.name);
      await open(form, page, signInAsStaff, contact);
      await form.fill(page, contact);
      await form.send(page).click();
      await expectInViewAndFocused(form.success(page));
      await expect.poll(() => countSubmissionsOf(dataDir(), form.type, contactName(form, contact))).toBe(1);
      if (!form.staff) return;
      // Acknowledged by the server, the draft is gone from the device: the next visit starts afresh.
      await page.reload();
      await expect(page.getByText(/^Draft saved on this device at/)).toHaveCount(0);
    });

    test("sent offline, keeps every answer and says so in view, without the error screen", async ({
      page,
      context,
      signInAsStaff,
    }, info) => {
      const contact = uniqueContact(info.project.name);
      await open(form, page, signInAsStaff, contact);
      await form.fill(page, contact);
      await cutSignal(context);
      await form.send(page).click();
      await expectInViewAndFocused(page.getByRole("alert"));
      await expectNoErrorScreen(page);
      // A staff form is handed to the device's queue: listed with its answers, and the form starts afresh.
      if (form.staff) await expectWaiting(page, contact);
      else await form.expectKept(page, contact);
      await restoreSignal(context);
    });

    test("answered 503 by a proxy, keeps every answer and says so in view", async ({
      page,
      context,
      signInAsStaff,
    }, info) => {
      const contact = uniqueContact(info.project.name);
      await open(form, page, signInAsStaff, contact);
      await form.fill(page, contact);
      await proxyAnswers503(context);
      await form.send(page).click();
      await expectInViewAndFocused(page.getByRole("alert"));
      await expectNoErrorScreen(page);
      await form.expectKept(page, contact);
    });

    if (!form.staff) return;

    test("sent after the session ended, keeps the answers, and sends them once after signing in", async ({
      page,
      context,
      signInAsStaff,
    }, info) => {
      // Two sends and a sign-in between them; on a busy two-core machine one run took the whole minute.
      test.setTimeout(120_000);
      const contact = uniqueContact(info.project.name);
      await open(form, page, signInAsStaff, contact);
      await form.fill(page, contact);
      const session = await context.cookies();
      await context.clearCookies();
      await form.send(page).click();
      const signedOut = page.getByRole("alert").filter({ hasText: /signed out/ });
      await expectInViewAndFocused(signedOut);
      await expectWaiting(page, contact);
      await expect(waitingRegion(page)).toContainText("your session had ended; it is sent when you sign in again.");
      expect(await countSubmissionsOf(dataDir(), form.type, contactName(form, contact))).toBe(0);

      await context.addCookies(session);
      await signedOut.getByRole("link", { name: "Sign in and send" }).click();
      await expect(page).toHaveURL(new RegExp(`${form.path}$`));
      await expect(
        page.getByRole("status").filter({ hasText: /^Sent: .+, reference [A-Z]{3}-[0-9A-Z]{6}\./ }),
      ).toBeVisible({
        timeout: 20_000,
      });
      await expect.poll(() => countSubmissionsOf(dataDir(), form.type, contactName(form, contact))).toBe(1);
      await expect(waitingRegion(page)).toHaveCount(0);
    });

    test("reloaded while filled in, brings every answer back from the device", async ({
      page,
      signInAsStaff,
    }, info) => {
      const contact = uniqueContact(info.project.name);
      await open(form, page, signInAsStaff, contact);
      await form.fill(page, contact);
      await expect(page.getByText(/^Draft saved on this device at/)).toBeVisible();
      await expect.poll(() => draftHoldsTheScreen(page)).toBe(true);
      await page.reload();
      await form.expectKept(page, contact);
    });

    test.describe("filled in again before its script has run", () => {
      // The page's scripts are held on their way from the server; a service worker would answer from its cache.
      test.use({ serviceWorkers: "block" });

      test("keeps what was typed over the draft on the device", async ({ page, signInAsStaff }, info) => {
        const before = uniqueContact(info.project.name);
        await open(form, page, signInAsStaff, before);
        await form.fill(page, before);
        // Typed as the page opens: saved once its scripts have run, which on a loaded machine took over 7 s once.
        await expect.poll(() => draftHoldsTheScreen(page), { timeout: 20_000 }).toBe(true);

        const now = uniqueContact(info.project.name);
        await form.prepare?.(dataDir(), now);
        const releaseScripts = await holdScripts(page);
        await page.reload({ waitUntil: "commit" });
        await form.fill(page, now);
        releaseScripts();

        await expect(page.getByText(/^Draft saved on this device at/)).toBeVisible();
        await form.expectKept(page, now);
        await expect.poll(() => draftHoldsTheScreen(page)).toBe(true);
      });
    });
  });

  test.describe(`${form.name} without JavaScript`, () => {
    test.use({ javaScriptEnabled: false });
    test.beforeEach(async ({ page, isMobile }) => {
      if (isMobile) await page.setViewportSize(PHONE);
    });

    test("sends, and lands on its outcome", async ({ page, signInAsStaff }, info) => {
      const contact = uniqueContact(info.project.name);
      await open(form, page, signInAsStaff, contact);
      await form.fill(page, contact);
      await form.send(page).click();
      const outcome = form.success(page);
      await expect(outcome).toBeVisible();
      await expect(outcome).toBeInViewport();
      await expect.poll(() => countSubmissionsOf(dataDir(), form.type, contactName(form, contact))).toBe(1);
    });
  });
}

/** The name a submission is stored under, from the contact the test filled in. */
function contactName(form: FormUnderTest, contact: string): string {
  if (form.type === "estimate" || form.type === "application") return `${contact} Placeholder`;
  return contact;
}
