import type { Page } from "@playwright/test";
import sharp from "sharp";
import { heicPhoto } from "../support/checklist-fixture";
import { savedDraft } from "../support/saved-draft";
import { countSubmissionsOf, queryAppDatabase } from "../support/submission-lookup";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { holdScripts } from "./held-scripts";
import { cutSignal, restoreSignal } from "./signal";

const PAGE = "/admin/quick-links/estimate-checklist";
const SUBMIT_URL = `**${PAGE}/submit`;
const OFFLINE_MESSAGE =
  "Error: the server could not be reached, so nothing was sent. Your answers and photos are kept on this device: submit again when you have a signal.";
const KEPT_MESSAGE = "kept on this device and will be sent by itself when the signal returns";
/** The shared app has no checklist webhook: the outcome says the PDF was saved, not sent. */
const SUCCESS_MESSAGE = "PDF generated and saved. Not sent: the checklist webhook is not set up on this server.";

async function photo(name: string, background: string) {
  const buffer = await sharp({ create: { width: 640, height: 480, channels: 3, background } })
    .jpeg()
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

/** Submit, the server getting the whole post and answering, but the answer never reaching the phone. */
async function submitLosingTheAnswer(page: Page) {
  await page.route(
    SUBMIT_URL,
    async (route) => {
      await route.fetch();
      await route.abort("connectionreset");
    },
    { times: 1 },
  );
  await page.getByRole("button", { name: "Submit Checklist" }).click();
  // The server stores it (photos, PDF) before the cut: that takes a while on a busy machine.
  await expect(page.getByRole("alert").filter({ hasText: OFFLINE_MESSAGE })).toBeVisible({ timeout: 20_000 });
}

test.beforeEach(async ({ page, signInAsStaff }) => {
  await signInAsStaff("staff", "checklist");
  await page.goto(PAGE);
  await expect(page.getByRole("heading", { level: 1, name: "Estimate Checklist" })).toBeVisible();
});

test("the Estimate Checklist card on Quick Links opens the screen", async ({ page }) => {
  await page.goto("/admin/quick-links");
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Estimate Checklist" }) });
  await card.getByRole("link", { name: "Visit Link" }).click();
  await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Estimate Checklist" })).toBeVisible();
});

test("a half-filled checklist with its photos comes back after a reload", async ({ page }) => {
  await page.getByLabel("Project Name").fill("Reload Test Plaza");
  await page.getByLabel("Panel Condition").fill("Rusty cover, breakers fine.");
  await page
    .getByLabel("Choose photos")
    .setInputFiles([await photo("panel.jpg", "#aa3333"), await photo("conduit.jpg", "#3333aa")]);
  await expect(page.getByText("2 photos added")).toBeVisible();
  await expect(page.getByText(/Draft saved on this device at/)).toBeVisible();
  await page.getByLabel("City").fill("Sumter");
  await expect
    .poll(() => savedDraft(page))
    .toEqual({
      answers: expect.objectContaining({ projectName: "Reload Test Plaza", city: "Sumter" }),
      photoNames: ["panel.jpg", "conduit.jpg"],
    });
  await page.reload();

  await expect(page.getByLabel("City")).toHaveValue("Sumter");
  await expect(page.getByLabel("Project Name")).toHaveValue("Reload Test Plaza");
  await expect(page.getByLabel("Panel Condition")).toHaveValue("Rusty cover, breakers fine.");
  await expect(page.getByText("2 photos added")).toBeVisible();
  await expect(page.getByText("panel.jpg")).toBeVisible();
  await expect(page.getByText("conduit.jpg")).toBeVisible();
  await expect(page.getByText(/Draft saved on this device at/)).toBeVisible();

  await page.getByRole("button", { name: "Discard draft" }).click();
  await expect(page.getByLabel("Project Name")).toHaveValue("");
  await expect(page.getByText("2 photos added")).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Your Name")).not.toHaveValue("");
  await expect(page.getByLabel("Project Name")).toHaveValue("");
});

/** Makes every IndexedDB open on the page answer `delay` ms late, as on a slow phone. */
function slowIndexedDb(page: Page, delay: number) {
  return page.addInitScript((ms) => {
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory["open"]>) {
      const request = open.apply(this, args);
      let handler: ((event: Event) => void) | null = null;
      request.addEventListener("success", (event) => setTimeout(() => handler?.call(request, event), ms));
      Object.defineProperty(request, "onsuccess", { set: (value) => (handler = value), get: () => handler });
      return request;
    };
  }, delay);
}

test("what is typed and picked while the saved draft is still being read is kept beside the draft", async ({
  page,
}) => {
  await page.getByLabel("City").fill("Sumter");
  await page.getByLabel("Choose photos").setInputFiles([await photo("conduit.jpg", "#3333aa")]);
  await expect
    .poll(() => savedDraft(page))
    .toEqual({ answers: expect.objectContaining({ city: "Sumter" }), photoNames: ["conduit.jpg"] });

  await slowIndexedDb(page, 3000);
  await page.reload();
  await page.getByLabel("Project Name").fill("Quick Hands Plaza");
  await page.getByLabel("Choose photos").setInputFiles([await photo("panel.jpg", "#aa3333")]);

  await expect(page.getByLabel("City")).toHaveValue("Sumter");
  await expect(page.getByText("2 photos added")).toBeVisible();
  await expect(page.getByLabel("Project Name")).toHaveValue("Quick Hands Plaza");
  await expect
    .poll(() => savedDraft(page), { timeout: 15_000 })
    .toEqual({
      answers: expect.objectContaining({ projectName: "Quick Hands Plaza", city: "Sumter" }),
      photoNames: ["conduit.jpg", "panel.jpg"],
    });
});

test("a photo picked before the device's draft store answers starts a draft that keeps it", async ({ page }) => {
  await slowIndexedDb(page, 3000);
  await page.reload();
  await page.getByLabel("Choose photos").setInputFiles([await photo("panel.jpg", "#aa3333")]);

  await expect(page.getByRole("button", { name: "Discard draft" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("1 photo added")).toBeVisible();
  await expect
    .poll(() => savedDraft(page), { timeout: 15_000 })
    .toEqual({ answers: expect.objectContaining({ projectName: "" }), photoNames: ["panel.jpg"] });
});

test("a photo picked before the page's scripts run is listed once they do, and kept in the draft", async ({ page }) => {
  const releaseScripts = await holdScripts(page);
  await page.reload({ waitUntil: "commit" });
  // Before the scripts run, the picker is the plain file field a form without JavaScript sends.
  await page.getByLabel("Site Photos").setInputFiles([await photo("early.jpg", "#3366aa")]);
  releaseScripts();

  await expect(page.getByText("1 photo added")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("listitem").filter({ hasText: "early.jpg" })).toBeVisible();
  await expect
    .poll(() => savedDraft(page), { timeout: 15_000 })
    .toEqual({ answers: expect.objectContaining({ projectName: "" }), photoNames: ["early.jpg"] });
});

test("a HEIC photo, which Chromium cannot draw, shows a preview in the list", async ({ page }) => {
  const heic = { name: "IMG_0001.HEIC", mimeType: "image/heic", buffer: Buffer.from(heicPhoto()) };
  await page.getByLabel("Choose photos").setInputFiles([heic]);
  const thumbnail = page.getByRole("listitem").filter({ hasText: "IMG_0001.HEIC" }).locator("img");
  // The server decodes and cleans the HEIC first: seconds on a busy machine, as the submit's photo work is.
  await expect(thumbnail).toBeVisible({ timeout: 20_000 });
  // The preview is the photo itself: the fixture's left half is green, its right half white.
  const colours = () =>
    thumbnail.evaluate(async (image: HTMLImageElement) => {
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const drawing = canvas.getContext("2d");
      if (!drawing) throw new Error("no 2D canvas");
      drawing.drawImage(image, 0, 0);
      const at = (x: number) => [...drawing.getImageData(Math.round(x * canvas.width), canvas.height / 2, 1, 1).data];
      return { left: at(0.15), right: at(0.85) };
    });
  const { left, right } = await colours();
  const [red = 0, green = 0, blue = 0] = left;
  expect(green).toBeGreaterThan(red + 60);
  expect(green).toBeGreaterThan(blue + 60);
  expect(right.slice(0, 3).every((channel) => channel > 220)).toBe(true);
});

test("a HEIC's preview the server was too busy to make is asked for again", async ({ page }) => {
  let asked = 0;
  await page.route("**/estimate-checklist/photo-preview", (route) => {
    asked += 1;
    // The first ask finds every photo worker busy, as the server answers then.
    return asked === 1 ? route.fulfill({ status: 503, contentType: "text/plain", body: "busy" }) : route.fallback();
  });
  const heic = { name: "IMG_0001.HEIC", mimeType: "image/heic", buffer: Buffer.from(heicPhoto()) };
  await page.getByLabel("Choose photos").setInputFiles([heic]);
  const thumbnail = page.getByRole("listitem").filter({ hasText: "IMG_0001.HEIC" }).locator("img");
  await expect(thumbnail).toBeVisible({ timeout: 20_000 });
  expect(asked).toBe(2);
});

test("a photo with the same name and size as one in the list is skipped; one can be removed", async ({ page }) => {
  const panel = await photo("panel.jpg", "#aa3333");
  await page.getByLabel("Choose photos").setInputFiles([panel]);
  await expect(page.getByText("1 photo added")).toBeVisible();
  await page.getByLabel("Choose photos").setInputFiles([panel, await photo("meter.jpg", "#33aa33")]);
  await expect(page.getByText("Already in the list, so not added again: panel.jpg.")).toBeVisible();
  await expect(page.getByText("2 photos added")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "panel.jpg" })).toHaveCount(1);
  const thumbnail = page.getByRole("listitem").filter({ hasText: "panel.jpg" }).locator("img");
  await expect(thumbnail).toBeVisible();
  const previewUrl = (await thumbnail.getAttribute("src")) ?? "";
  expect(previewUrl).toMatch(/^blob:/);
  const previewLoads = () =>
    page.evaluate(
      (url) =>
        new Promise<boolean>((resolve) => {
          const image = new Image();
          image.onload = () => resolve(true);
          image.onerror = () => resolve(false);
          image.src = url;
        }),
      previewUrl,
    );
  expect(await previewLoads()).toBe(true);

  await page.getByRole("button", { name: "Remove panel.jpg" }).click();
  await expect(page.getByText("1 photo added")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "panel.jpg" })).toHaveCount(0);
  // The removed photo's preview is released: its object URL no longer loads.
  await expect.poll(previewLoads).toBe(false);
});

test("offline, the checklist and its photos are kept to be sent, and sent by themselves once when the signal returns", async ({
  page,
  context,
}) => {
  const name = `Offline Tester ${Date.now()}`;
  await page.getByLabel("Your Name").fill(name);
  await page.getByLabel("Your Email").fill("pm@example.com");
  await page.getByLabel("Project Name").fill("Weak Signal Depot");
  await page.getByLabel("Choose photos").setInputFiles([await photo("site.jpg", "#777777")]);
  await expect(page.getByText(/Draft saved on this device at/)).toBeVisible();
  // Up on the server already: what waits on the device must still hold the photo itself.
  await expect(page.getByRole("listitem").filter({ hasText: "site.jpg" }).getByText("Uploaded")).toBeVisible();

  await cutSignal(context);
  await page.getByRole("button", { name: "Submit Checklist" }).click();
  await expect(page.getByRole("alert").filter({ hasText: KEPT_MESSAGE })).toBeInViewport();
  // Handed to the queue: listed with its answers and its photo, and the form starts a new checklist.
  const waiting = page.getByRole("region", { name: "Waiting to be sent" });
  await expect(waiting).toContainText("Estimate checklist");
  await waiting.getByText("Its answers").click();
  await expect(waiting.getByRole("definition").filter({ hasText: "Weak Signal Depot" })).toBeVisible();
  await expect(waiting.getByRole("definition").filter({ hasText: "site.jpg" })).toBeVisible();
  await expect(page.getByLabel("Project Name")).toHaveValue("");
  await expect(page.locator("#checklist").getByText("site.jpg")).toHaveCount(0);

  await restoreSignal(context);
  await expect(
    page.getByRole("status").filter({ hasText: /Sent: Estimate checklist, reference CHK-[0-9A-Z]{6}\./ }),
  ).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => countSubmissionsOf(process.env.E2E_DATA_DIR ?? "", "estimate-checklist", name)).toBe(1);
  // The photo went with it.
  const sentAs = await queryAppDatabase<{ sent_as: string }>(
    process.env.E2E_DATA_DIR ?? "",
    "SELECT f.sent_as FROM submission_files f JOIN submissions s ON s.id = f.submission_id WHERE s.contact_name = $1 AND f.field_name = 'photos'",
    [name],
  );
  expect(sentAs.map((file) => file.sent_as)).toEqual(["site.jpg"]);

  await page.reload();
  await expect(page.getByLabel("Project Name")).toHaveValue("");
});

test("a send cut off after the server stored it is sent again and stored once", async ({ page }) => {
  const name = `Cut Off Tester ${Date.now()}`;
  await page.getByLabel("Your Name").fill(name);
  await page.getByLabel("Your Email").fill("pm@example.com");
  await page.getByLabel("Choose photos").setInputFiles([await photo("site.jpg", "#555555")]);
  await submitLosingTheAnswer(page);
  await expect(page.getByText("site.jpg")).toBeVisible();

  await page.getByRole("button", { name: "Submit Checklist" }).click();
  await expect(page.getByRole("status").filter({ hasText: SUCCESS_MESSAGE })).toBeVisible({ timeout: 20_000 });
  expect(await countSubmissionsOf(process.env.E2E_DATA_DIR ?? "", "estimate-checklist", name)).toBe(1);
});

test("a checklist sent before its photo's upload started, and sent again once it is up, is stored once", async ({
  page,
}) => {
  const name = `Early Submit Tester ${Date.now()}`;
  await page.getByLabel("Your Name").fill(name);
  await page.getByLabel("Your Email").fill("pm@example.com");
  // The uploader's script comes late, as on a slow phone: the first send carries the photo itself.
  const releaseScripts = await holdScripts(page);
  await page.getByLabel("Choose photos").setInputFiles([await photo("early-site.jpg", "#446688")]);
  await submitLosingTheAnswer(page);
  releaseScripts();
  await expect(page.getByRole("listitem").filter({ hasText: "early-site.jpg" }).getByText("Uploaded")).toBeVisible({
    timeout: 20_000,
  });

  await page.getByRole("button", { name: "Submit Checklist" }).click();
  await expect(page.getByRole("status").filter({ hasText: SUCCESS_MESSAGE })).toBeVisible({ timeout: 20_000 });
  expect(await countSubmissionsOf(process.env.E2E_DATA_DIR ?? "", "estimate-checklist", name)).toBe(1);
});

test("Submit Checklist reads Processing... and cannot be pressed while it sends", async ({ page }) => {
  await page.getByLabel("Your Email").fill("pm@example.com");
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(SUBMIT_URL, async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole("button", { name: "Submit Checklist" }).click();
  const busy = page.getByRole("button", { name: "Processing..." });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  release();
  await expect(page.getByRole("button", { name: "Submit Checklist" })).toBeEnabled({ timeout: 20_000 });
});

test("a blank name or email is asked for before anything is sent, with the focus on the first to fill in", async ({
  page,
}) => {
  await page.getByLabel("Your Name").fill("   ");
  await page.getByLabel("Project Name").fill("Focus Test Plaza");
  await page.getByRole("button", { name: "Submit Checklist" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please fill in your name and email." })).toBeVisible();
  await expect(page.getByLabel("Your Name")).toBeFocused();
  await expect(page.getByLabel("Your Name")).toBeInViewport();
});

test("the whole form, with photos listed, passes axe", async ({ page }) => {
  await page.getByLabel("Choose photos").setInputFiles([await photo("panel.jpg", "#aa3333")]);
  await expect(page.getByText("1 photo added")).toBeVisible();
  await expectNoAxeViolations(page, "estimate checklist");
});
