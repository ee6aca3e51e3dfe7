import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, projectRoot, startAppServer } from "#tests/app-server";
import { parseCsv } from "#tests/csv-parser";
import { pdfText } from "#tests/pdf-reading";
import { signInOverHttp } from "#tests/staff";
import { countSubmissionsOf, queryAppDatabase } from "#tests/submission-lookup";
import { startWebhookReceiver, type WebhookReceiver } from "#tests/webhook-receiver";
import { addStaffAccount } from "../tests/e2e/staff-users";

/**
 * A new form is its folder, one route module and one line in app/routes.ts. A copy of this project gets the
 * warranty claim of tests/fixtures/new-form and nothing else; built and started, the form renders, is sent,
 * stored with the PDF that its folder's work task builds in the work pool, listed in the inbox, its CSV export
 * and the Quick Links, delivered to its webhook, and its setting is documented by `npm run settings`.
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
  writeFileSync(routes, readFileSync(routes, "utf8").replace(STAFF_CATCH_ALL, `${ROUTE_LINE}\n    ${STAFF_CATCH_ALL}`));
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: copy, stdio: "pipe" });

  hook = await startWebhookReceiver();
  app = await startAppServer({
    root: copy,
    env: { WEBHOOK_WARRANTY_CLAIM_URL: `${hook.url}warranty`, DELIVERY_RETRY_SCHEDULE: "0" },
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
      "app/routes/admin/warranty-claim.tsx",
    ]);
    expect(readFileSync(path.join(copy, "app/routes.ts"), "utf8")).toContain(ROUTE_LINE);
  });

  it("is held to the forms' contract by its own test and the checks over every form", () => {
    const run = spawnSync(
      process.execPath,
      [
        "node_modules/vitest/vitest.mjs",
        "run",
        "--reporter=verbose",
        "app/features/warranty-claim",
        "app/submission-types.server.test.ts",
      ],
      // Not this run's Vitest variables: the copy's run is a Vitest of its own.
      { cwd: copy, encoding: "utf8", env: { PATH: process.env.PATH, HOME: process.env.HOME } },
    );
    expect(run.stdout + run.stderr).toMatch(/the warranty-claim contract/);
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  it("documents the form's webhook setting with the others", () => {
    const settings = execFileSync(process.execPath, ["--import", "tsx", "server/settings-cli.ts"], {
      cwd: copy,
      encoding: "utf8",
    });
    expect(settings).toContain("# warranty claims\nWEBHOOK_WARRANTY_CLAIM_URL=\n");
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
    expect(JSON.parse(delivered?.body ?? "{}")).toEqual({ ...CLAIM, reference: expect.stringMatching(/^WAR-/) });
  });
});
