import type { Page } from "@playwright/test";
import sharp from "sharp";
import { sitemapPaths } from "../../app/content/public-pages";
import { postEstimate } from "../support/estimate-post";
import { allRated, peerReviewFields } from "../support/peer-review-fixture";
import { queryAppDatabase, submissionIdOf } from "../support/submission-lookup";
import { expect, expectNoAxeViolations, test } from "./fixtures";

/**
 * The audit of every staff page and the public pages on a phone (412 px in `phone`, 360 px in `small-phone`).
 * On each page, as it is drawn:
 * (a) every shown interactive element is at least 44 × 44 CSS pixels (Apple's and Material's guidance; WCAG 2.2's
 *     24 px is the floor). Interactive: `a[href]`, `button`, `input` (not hidden, not in the `.honeypot`),
 *     `select`, `textarea`, `summary` and `[role=button]`. A checkbox or radio is measured by its label row (the
 *     `<label>` around it, else the one `for` it): the row is what a finger taps. Excepted: an inline link inside
 *     running text, that is an `<a>` drawn `display: inline` whose nearest block ancestor has letters or digits
 *     outside it and outside any other interactive element (a link in a sentence; "·" between links is no text).
 * (b) nothing is wider than the screen: the document does not scroll sideways, and every `<table>` lies within it.
 * (c) axe finds nothing against WCAG 2.2 A and AA.
 * A failure lists each offender by its accessible name, its size and its page.
 */

const MIN_TARGET = 44;

type Findings = { smallTargets: string[]; tooWide: string[] };

/** Runs in the page: the rule above, self-contained. */
function auditPage(minimum: number): Findings {
  const INTERACTIVE = "a[href], button, input, select, textarea, summary, [role=button]";
  const size = (box: DOMRect) => `${Math.round(box.width)} × ${Math.round(box.height)} px`;
  const shown = (element: Element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
  };
  const nameOf = (element: Element): string => {
    const labelledBy = element.getAttribute("aria-labelledby");
    const labels = element instanceof HTMLInputElement || element instanceof HTMLSelectElement ? element.labels : null;
    const name =
      element.getAttribute("aria-label") ||
      (labelledBy ? document.getElementById(labelledBy)?.textContent : "") ||
      labels?.[0]?.textContent ||
      element.textContent ||
      element.getAttribute("placeholder") ||
      element.getAttribute("title") ||
      element.getAttribute("name") ||
      element.tagName.toLowerCase();
    return `"${name.replace(/\s+/g, " ").trim().slice(0, 70)}" (${element.tagName.toLowerCase()})`;
  };
  const blockOf = (element: Element): Element => {
    let parent = element.parentElement;
    while (parent && /^(inline|contents)/.test(getComputedStyle(parent).display)) parent = parent.parentElement;
    return parent ?? document.body;
  };
  const inlineInText = (link: Element) => {
    if (link.tagName !== "A" || getComputedStyle(link).display !== "inline") return false;
    const block = blockOf(link);
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const control = node.parentElement?.closest(INTERACTIVE);
      if (control && block.contains(control)) continue;
      if (/[\p{L}\p{N}]/u.test(node.textContent ?? "")) return true;
    }
    return false;
  };
  /** What a finger taps for the control: a checkbox's or radio's label row, else the control itself. */
  const targetOf = (control: Element): Element => {
    if (!(control instanceof HTMLInputElement) || !["checkbox", "radio"].includes(control.type)) return control;
    return control.closest("label") ?? control.labels?.[0] ?? control;
  };

  const measured = new Set<Element>();
  const smallTargets: string[] = [];
  for (const control of document.querySelectorAll(INTERACTIVE)) {
    if (control instanceof HTMLInputElement && control.type === "hidden") continue;
    if (control.closest(".honeypot")) continue;
    const target = targetOf(control);
    if (measured.has(target) || !shown(target) || inlineInText(target)) continue;
    measured.add(target);
    const box = target.getBoundingClientRect();
    if (Math.round(box.width) < minimum || Math.round(box.height) < minimum) {
      smallTargets.push(`${nameOf(target === control ? control : target)} ${size(box)}`);
    }
  }

  const tooWide: string[] = [];
  const screenWidth = window.innerWidth;
  for (const table of document.querySelectorAll("table")) {
    const box = table.getBoundingClientRect();
    if (shown(table) && (box.left < -0.5 || box.right > screenWidth + 0.5)) {
      tooWide.push(
        `table "${table.caption?.textContent ?? nameOf(table)}" ${size(box)} at x = ${Math.round(box.left)}`,
      );
    }
  }
  if (document.documentElement.scrollWidth > screenWidth) {
    const outside = [...document.body.querySelectorAll("*")].filter(
      (element) => shown(element) && element.getBoundingClientRect().right > screenWidth + 0.5,
    );
    const outermost = outside.filter(
      (element) => !outside.some((other) => other !== element && other.contains(element)),
    );
    tooWide.push(
      `the page scrolls sideways (${document.documentElement.scrollWidth} px wide), past the edge: ${outermost
        .slice(0, 5)
        .map((element) => `${nameOf(element)} ${size(element.getBoundingClientRect())}`)
        .join(", ")}`,
    );
  }
  return { smallTargets, tooWide };
}

/** Opens the page (or audits the one open when `path` is null) and collects what the audit finds on it. */
async function audit(page: Page, where: string, findings: string[], path: string | null = where) {
  if (path !== null) {
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  }
  const { smallTargets, tooWide } = await page.evaluate(auditPage, MIN_TARGET);
  findings.push(...smallTargets.map((offender) => `${where}: under 44 × 44: ${offender}`));
  findings.push(...tooWide.map((offender) => `${where}: wider than the screen: ${offender}`));
  await expectNoAxeViolations(page, where);
}

test("the public pages and the sign-in page: touch targets, width and axe", async ({ page }) => {
  test.setTimeout(120_000);
  const findings: string[] = [];
  for (const path of [...sitemapPaths, "/admin"]) await audit(page, path, findings);
  await page.goto("/learnmore");
  await page.getByRole("button", { name: "Menu", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Main menu" })).toBeVisible();
  await audit(page, "the public mobile menu", findings, null);
  expect(findings).toEqual([]);
});

test("the staff tools as an admin: touch targets, width and axe", async ({ page, signInAsStaff, baseURL }) => {
  test.setTimeout(180_000);
  const origin = baseURL ?? "";
  const lead = await postEstimate(`${origin}/learnmore`);
  const leadId = await submissionIdOf(process.env.E2E_DATA_DIR ?? "", lead.reference ?? "");
  // Three reviews by three people: the report shows its table of averages from three.
  const person = `Audit ${test.info().project.name} ${Date.now().toString(36)}`;
  for (const reviewer of ["one", "two", "three"]) {
    await signInAsStaff("staff", `audit-reviewer-${reviewer}`);
    const cookie = (await page.context().cookies(origin)).map(({ name, value }) => `${name}=${value}`).join("; ");
    const response = await fetch(`${origin}/admin/quick-links/peer-review`, {
      method: "POST",
      headers: { cookie, origin },
      body: new URLSearchParams(peerReviewFields(person, allRated("4"))),
    });
    expect(response.status).toBe(200);
  }
  const colleague = await signInAsStaff("staff", "audit-colleague");
  await signInAsStaff("admin", "audit");

  const findings: string[] = [];
  for (const path of [
    "/admin/quick-links",
    "/admin/inbox",
    `/admin/inbox/${leadId}`,
    "/admin/staff",
    `/admin/staff/${colleague.id}`,
    "/admin/account",
    "/admin/account/two-factor",
    "/admin/peer-review-report",
    "/admin/site",
    "/admin/site/home",
    "/admin/site/company",
    "/admin/site/history",
    "/admin/no-such-page",
  ]) {
    await audit(page, path, findings);
  }
  await page.goto("/admin/quick-links");
  await page.getByRole("navigation", { name: "Staff" }).getByRole("button", { name: "Menu" }).click();
  await audit(page, "the staff menu, open", findings, null);
  expect(findings).toEqual([]);
});

test("every staff form as an admin: touch targets, width and axe", async ({ page, signInAsStaff }) => {
  test.setTimeout(180_000);
  // A technician to choose on Team Communication (its checkbox rows), and a message to them in the history.
  const technician = `Audit Technician ${test.info().project.name} ${Date.now().toString(36)}`;
  await queryAppDatabase(process.env.E2E_DATA_DIR ?? "", "INSERT INTO staff_directory (name, email) VALUES ($1, $2)", [
    technician,
    `${technician.replace(/\W+/g, ".").toLowerCase()}@example.com`,
  ]);
  await signInAsStaff("admin", "audit-forms");
  const findings: string[] = [];
  for (const path of [
    "/admin/quick-links/peer-review",
    "/admin/quick-links/estimate-request",
    "/admin/quick-links/job-request",
    "/admin/staff-directory",
    "/admin/quick-links/team-communication",
  ]) {
    await audit(page, path, findings);
  }
  await page.getByRole("checkbox", { name: new RegExp(`^${technician}`) }).check();
  await page.getByLabel("Subject").fill(`Audit ${technician}`);
  await page.getByLabel("Body").fill("The audit's message.");
  await page.getByRole("button", { name: "Send Message" }).click();
  // Whatever it says (sent, or saved and not sent on a server without email), the message is stored.
  const outcome = page.locator("#form-outcome");
  await expect(outcome.getByRole("status").or(outcome.getByRole("alert"))).toBeVisible();
  await audit(page, "/admin/quick-links/team-communication/history", findings);

  // The checklist with a photo in its list: its Remove and Discard draft buttons show.
  await page.goto("/admin/quick-links/estimate-checklist", { waitUntil: "networkidle" });
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#aa3333" } })
    .jpeg()
    .toBuffer();
  await page.getByLabel("Choose photos").setInputFiles([{ name: "panel.jpg", mimeType: "image/jpeg", buffer: photo }]);
  await expect(page.getByRole("button", { name: "Remove panel.jpg" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Discard draft" })).toBeVisible();
  await audit(page, "/admin/quick-links/estimate-checklist with a photo", findings, null);
  expect(findings).toEqual([]);
});
