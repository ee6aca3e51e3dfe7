import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { chromiumLaunchOptions } from "#tests/chromium";
import { parseCsv } from "#tests/csv-parser";
import { pdfText } from "#tests/pdf-reading";
import { savedDraft } from "#tests/saved-draft";
import { signInOverHttp } from "#tests/staff";
import { countSubmissionsOf, queryAppDatabase } from "#tests/submission-lookup";
import { waitFor } from "#tests/wait-for";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { addStaffAccount } from "../tests/e2e/staff-users";

/**
 * A new form is its folder, one route module and one line in app/routes.ts. A copy of this project gets the
 * staff warranty claim and the public warranty request of tests/fixtures/new-form and nothing else; built and
 * started, the staff form renders, is sent, stored with the PDF that its folder's work task builds in the work
 * pool, listed in the inbox, its CSV export and the Quick Links, delivered to its webhook, and its setting is
 * documented by `npm run settings`; the public form, with a required field of up to three photos, refuses a
 * request without one beside the field and delivers every photo to its webhook.
 */
const FIXTURE = path.join(projectRoot, "tests/fixtures/new-form");
const NOT_COPIED = new Set([
  "node_modules",
  "build",
  "data",
  ".git",
  "test-results",
  "playwright-report",
  ".react-router",
]);
const STAFF_CATCH_ALL = 'route("admin/*", "routes/admin/staff-not-found.tsx"),';
const ROUTE_LINE = 'route("admin/quick-links/warranty-claim", "routes/admin/warranty-claim.tsx"),';
const PUBLIC_ROUTES_END = 'route("assessment", "routes/assessment.tsx"),';
const PUBLIC_ROUTE_LINE = 'route("warranty", "routes/warranty.tsx"),';
const CLAIM = {
  customerName: "Dana Whitfield",
  customerPhone: "(803) 555-0142",
  installedOn: "2026-05-02",
  problem: "The panel breaker for the pool pump trips every evening.",
};

let copy: string;
let app: AppServer;
let hook: WebhookReceiver;
let cookie: string;

/** The files of a folder, relative to it. */
const filesUnder = (folder: string) =>
  readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), "tce-new-form-"));
  cpSync(projectRoot, copy, {
    recursive: true,
    filter: (source) => !NOT_COPIED.has(path.relative(projectRoot, source).split(path.sep)[0] ?? ""),
  });
  symlinkSync(path.join(projectRoot, "node_modules"), path.join(copy, "node_modules"));
  cpSync(path.join(FIXTURE, "app"), path.join(copy, "app"), { recursive: true });
  const routes = path.join(copy, "app/routes.ts");
  writeFileSync(
    routes,
    readFileSync(routes, "utf8")
      .replace(STAFF_CATCH_ALL, `${ROUTE_LINE}\n    ${STAFF_CATCH_ALL}`)
      .replace(PUBLIC_ROUTES_END, `${PUBLIC_ROUTES_END}\n  ${PUBLIC_ROUTE_LINE}`),
  );
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: copy, stdio: "pipe" });

  hook = await startWebhookReceiver();
  app = await startAppServer({
    root: copy,
    env: {
      WEBHOOK_WARRANTY_CLAIM_URL: `${hook.url}warranty`,
      WEBHOOK_WARRANTY_REQUEST_URL: `${hook.url}public-warranty`,
      DELIVERY_RETRY_SCHEDULE: "0",
    },
  });
  const admin = addStaffAccount("admin", "new-form", app.dataDir);
  cookie = await signInOverHttp(app.url, admin.username, admin.password);
}, 600_000);
afterAll(async () => {
  await app?.stop();
  await hook?.close();
});

const staffGet = (pathname: string) => fetch(`${app.url}${pathname}`, { headers: { cookie } });

describe("a new form's folder, one route module and one route line", () => {
  it("are all the fixture holds: nothing else of the project is edited", () => {
    expect(filesUnder(FIXTURE)).toEqual([
      "app/features/warranty-claim/claim-pdf.server.ts",
      "app/features/warranty-claim/contract.test.ts",
      "app/features/warranty-claim/definition.ts",
      "app/features/warranty-claim/feature.ts",
      "app/features/warranty-claim/submit-warranty-claim.server.ts",
      "app/features/warranty-claim/work-tasks.server.ts",
      "app/features/warranty-request/contract.test.ts",
      "app/features/warranty-request/definition.ts",
      "app/features/warranty-request/feature.ts",
      "app/features/warranty-request/warranty-request-form.tsx",
      "app/routes/admin/warranty-claim.tsx",
      "app/routes/warranty.tsx",
    ]);
    const routes = readFileSync(path.join(copy, "app/routes.ts"), "utf8");
    expect(routes).toContain(ROUTE_LINE);
    expect(routes).toContain(PUBLIC_ROUTE_LINE);
  });

  it("is held to the forms' contract by its own test and the checks over every form", () => {
    const run = spawnSync(
      process.execPath,
      [
        "node_modules/vitest/vitest.mjs",
        "run",
        "--reporter=verbose",
        "app/features/warranty-claim",
        "app/features/warranty-request",
        "app/submission-types.server.test.ts",
      ],
      // Not this run's Vitest variables: the copy's run is a Vitest of its own.
      { cwd: copy, encoding: "utf8", env: { PATH: process.env.PATH, HOME: process.env.HOME } },
    );
    expect(run.stdout + run.stderr).toMatch(/the warranty-claim contract/);
    expect(run.stdout + run.stderr).toMatch(/the warranty-request contract/);
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it("documents the form's webhook setting with the others", () => {
    const settings = execFileSync(process.execPath, ["--import", "tsx", "server/settings-cli.ts"], {
      cwd: copy,
      encoding: "utf8",
    });
    expect(settings).toContain("# warranty claims\nWEBHOOK_WARRANTY_CLAIM_URL=\n");
    expect(settings).toContain("# warranty requests\nWEBHOOK_WARRANTY_REQUEST_URL=\n");
    expect(settings).toContain("WEBHOOK_ESTIMATE_URL=");
  });

  it("puts its card on the Quick Links and renders the form behind it", async () => {
    const quickLinks = await (await staffGet("/admin/quick-links")).text();
    expect(quickLinks).toContain("Warranty Claim");
    expect(quickLinks).toContain('href="/admin/quick-links/warranty-claim"');
    const form = await staffGet("/admin/quick-links/warranty-claim");
    expect(form.status).toBe(200);
    const page = await form.text();
    for (const label of ["Customer Name", "Customer Phone", "Installed On", "What is wrong"])
      expect(page).toContain(label);
  });

  it("stores what is sent with its PDF, lists it in the inbox and its export, and delivers it to its webhook", async () => {
    const sent = await fetch(`${app.url}/admin/quick-links/warranty-claim`, {
      method: "POST",
      headers: { cookie, origin: app.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(CLAIM),
    });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Your warranty claim has been submitted successfully!");
    expect(await countSubmissionsOf(app.dataDir, "warranty-claim", CLAIM.customerName)).toBe(1);
    const [pdf] = await queryAppDatabase<{ content: Buffer }>(
      app.dataDir,
      `SELECT f.content FROM submission_files f JOIN submissions s ON s.id = f.submission_id
        WHERE s.type = 'warranty-claim' AND f.field_name = 'pdf'`,
      [],
    );
    if (!pdf) throw new Error("the claim was stored without its PDF");
    expect(await pdfText(pdf.content)).toContain(CLAIM.problem);

    const inbox = await (await staffGet("/admin/inbox?type=warranty-claim")).text();
    expect(inbox).toContain(CLAIM.customerName);
    expect(inbox).toContain("Warranty claim");

    const csv = parseCsv((await (await staffGet("/admin/inbox/export.csv?type=warranty-claim")).text()).slice(1));
    const [header = [], row = []] = csv;
    expect(row[header.indexOf("What is wrong")]).toBe(CLAIM.problem);

    const [delivered] = await hook.waitForRequests(1, 30_000);
    expect(delivered?.path).toContain("/warranty");
    expect(JSON.parse(delivered?.body ?? "{}")).toEqual({
      ...CLAIM,
      photo: null,
      reference: expect.stringMatching(/^WAR-/),
    });
  });
});

describe("a new form's optional photo", () => {
  const deliveryOf = (customerName: string) =>
    waitFor(`the webhook of ${customerName}'s claim`, () =>
      hook.requests.find((request) => request.body.includes(customerName)),
    );
  const postClaim = (customerName: string, photo: { name: string; bytes: Uint8Array<ArrayBuffer> }) => {
    const body = new FormData();
    for (const [name, value] of Object.entries({ ...CLAIM, customerName })) body.append(name, value);
    body.append("photo", new File([photo.bytes], photo.name, { type: "image/jpeg" }));
    return fetch(`${app.url}/admin/quick-links/warranty-claim`, {
      method: "POST",
      headers: { cookie, origin: app.url },
      body,
    });
  };

  it("is rendered as a photo picker, and a form with it posts its files", async () => {
    const page = await (await staffGet("/admin/quick-links/warranty-claim")).text();
    expect(page).toContain("Photo of the problem");
    const input = page.match(/<input[^>]*name="photo"[^>]*>/)?.[0];
    expect(input).toContain('type="file"');
    expect(input).toContain('accept="image/*,.heic,.heif"');
    const form = page.match(/<form[^>]*action="\/admin\/quick-links\/warranty-claim[^>]*>/)?.[0];
    expect(form).toMatch(/enctype="multipart\/form-data"/i);
  });

  it("is cleaned, stored and delivered as base64 in the webhook's body", async () => {
    const jpeg = new Uint8Array(
      await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c00" } })
        .jpeg()
        .withMetadata({ exif: { IFD0: { Copyright: "site at 33.92 N" } } })
        .toBuffer(),
    );
    const sent = await postClaim("Photo With Claim", { name: "breaker.jpg", bytes: jpeg });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Your warranty claim has been submitted successfully!");
    const delivered = await deliveryOf("Photo With Claim");
    const photo = Buffer.from(JSON.parse(delivered.body).photo, "base64");
    expect(photo.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    // Cleaned: its metadata is gone.
    expect(photo.toString("latin1")).not.toContain("site at 33.92 N");
  });

  it("that cannot be cleaned is answered by its name and why, and the claim is stored without it", async () => {
    const damaged = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new TextEncoder().encode("not the rest of a photo")]);
    const sent = await postClaim("Damaged Photo Claim", { name: "IMG_2041.jpg", bytes: damaged });
    expect(sent.status).toBe(200);
    const page = await sent.text();
    expect(page).toContain("Your warranty claim has been submitted successfully!");
    expect(page).toContain("It was stored without 1 file that could not be used:");
    expect(page).toContain("IMG_2041.jpg: the file is damaged or not a readable image.");
    expect(await countSubmissionsOf(app.dataDir, "warranty-claim", "Damaged Photo Claim")).toBe(1);
    const delivered = await deliveryOf("Damaged Photo Claim");
    expect(JSON.parse(delivered.body).photo).toBeNull();
  });

  it("is kept in the device's draft with the answers, and is back in its input after a reload", async () => {
    const browser = await chromium.launch(chromiumLaunchOptions());
    try {
      const context = await browser.newContext();
      const [name = "", value = ""] = cookie.split(";")[0]?.split(/=(.*)/s) ?? [];
      // Secure and host-only, as the app sets its `__Host-` cookie; Chromium treats 127.0.0.1 as secure.
      await context.addCookies([{ name, value, domain: new URL(app.url).hostname, path: "/", secure: true }]);
      const page = await context.newPage();
      await page.goto(`${app.url}/admin/quick-links/warranty-claim`);
      const customer = page.getByLabel("Customer Name");
      // Typed until the draft holds it: then the page's scripts keep what is done on it. Up to 30 s: beside the
      // other test files on two cores, this page's scripts once took over 15 s to run (CI).
      await expect
        .poll(
          async () => {
            await customer.fill("Kept Photo Claim");
            return (await savedDraft(page)).answers?.customerName;
          },
          { timeout: 30_000 },
        )
        .toBe("Kept Photo Claim");
      await page.getByLabel("Photo of the problem").setInputFiles({
        name: "breaker.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      });
      await expect.poll(async () => (await savedDraft(page)).photoNames).toEqual(["breaker.jpg"]);

      await page.reload();
      await expect.poll(() => customer.inputValue()).toBe("Kept Photo Claim");
      await expect
        .poll(() =>
          page
            .getByLabel("Photo of the problem")
            .evaluate((input: HTMLInputElement) => [...(input.files ?? [])].map((file) => file.name)),
        )
        .toEqual(["breaker.jpg"]);
    } finally {
      await browser.close();
    }
  });
});

describe("a new public form with a required field of several photos", () => {
  const REQUEST = {
    name: "Robin Alvarez",
    email: "robin@example.com",
    phone: "(803) 555-0177",
    description: "The porch light we put in flickers.",
  };
  const jpegOf = (background: string) =>
    sharp({ create: { width: 32, height: 24, channels: 3, background } })
      .jpeg()
      .toBuffer();
  const postRequest = (name: string, photos: Buffer[]) => {
    const body = new FormData();
    for (const [field, value] of Object.entries({ ...REQUEST, name })) body.append(field, value);
    for (const [index, bytes] of photos.entries())
      body.append("photos", new File([new Uint8Array(bytes)], `porch-${index}.jpg`, { type: "image/jpeg" }));
    // A file input with no file chosen goes as an empty part with no name.
    if (photos.length === 0) body.append("photos", new File([], "", { type: "application/octet-stream" }));
    return fetch(`${app.url}/warranty`, { method: "POST", headers: { origin: app.url }, body });
  };

  it("is rendered as a picker of several photos in a multipart form", async () => {
    const page = await (await fetch(`${app.url}/warranty`)).text();
    const input = page.match(/<input[^>]*name="photos"[^>]*>/)?.[0];
    expect(input).toContain('type="file"');
    expect(input).toContain("multiple");
    expect(page.match(/<form[^>]*action="\/warranty[^>]*>/)?.[0]).toMatch(/enctype="multipart\/form-data"/i);
  });

  it("without a photo, is refused with the required message beside the field and stores nothing", async () => {
    const sent = await postRequest("No Photo Request", []);
    const page = await sent.text();
    expect(page).toContain("Please fill in all required fields.");
    expect(page.match(/<input[^>]*name="photos"[^>]*>/)?.[0]).toContain('aria-invalid="true"');
    expect(page).toContain("This field is required.");
    expect(await countSubmissionsOf(app.dataDir, "warranty-request", "No Photo Request")).toBe(0);
  });

  it("delivers every photo, cleaned, to its webhook as a list of base64", async () => {
    const sent = await postRequest("Three Photo Request", await Promise.all(["#c00", "#0c0", "#00c"].map(jpegOf)));
    expect(await sent.text()).toContain("Your warranty request has been received.");
    const delivered = await waitFor("the public warranty webhook", () =>
      hook.requests.find((request) => request.body.includes("Three Photo Request")),
    );
    expect(delivered.path).toContain("/public-warranty");
    const body = JSON.parse(delivered.body);
    expect(body).toMatchObject({ ...REQUEST, name: "Three Photo Request", reference: expect.stringMatching(/^WRQ-/) });
    expect(body.photos).toHaveLength(3);
    for (const photo of body.photos)
      expect(Buffer.from(photo, "base64").subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it("in Chromium, sent without a photo, shows the banner and the mark beside the field, in view", async () => {
    const browser = await chromium.launch(chromiumLaunchOptions());
    try {
      const page = await browser.newPage();
      await page.goto(`${app.url}/warranty`);
      await page.getByLabel("Name").fill(REQUEST.name);
      await page.getByLabel("Email").fill(REQUEST.email);
      await page.getByLabel("Phone").fill(REQUEST.phone);
      await page.getByLabel("What is wrong").fill(REQUEST.description);
      // Pressed until the page's scripts check it: before they run, the browser posts it to the page itself.
      await expect
        .poll(async () => {
          await page.getByRole("button", { name: "Send Request" }).click();
          return page.getByRole("alert").filter({ hasText: "Please fill in all required fields." }).count();
        })
        .toBe(1);
      const inView = (element: Element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      };
      const banner = page.getByRole("alert").filter({ hasText: "Please fill in all required fields." });
      await expect.poll(() => banner.evaluate(inView)).toBe(true);
      const photos = page.getByLabel("Photos of the problem");
      expect(await photos.getAttribute("aria-invalid")).toBe("true");
      const saidBeside = await photos.evaluate((input) =>
        (input.getAttribute("aria-describedby") ?? "")
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent ?? "")
          .join(" "),
      );
      expect(saidBeside).toContain("This field is required.");
    } finally {
      await browser.close();
    }
  });
});
