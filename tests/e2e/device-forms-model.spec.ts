import type { Browser, BrowserContext, Page } from "@playwright/test";
import fc from "fast-check";
import { type AppServer, startAppServer } from "../support/app-server";
import { JOB_LABELS, storedJobRequest, validJobRequest } from "../support/staff-request-fixture";
import { queryAppDatabase } from "../support/submission-lookup";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { expect, test } from "./fixtures";
import { cutSignal, restoreSignal } from "./signal";
import { addStaffAccount, signInThroughForm } from "./staff-users";

/*
 * The device's handling of staff forms as random sequences of what people and the network do (docs/design.md,
 * "Combinations"; decision 1002), on the Job Request form, with two staff accounts and up to two tabs in one
 * browser. After every step the real server's database, the device's store, the webhook receiver and the pages
 * are checked against a model of what each person typed and pressed Submit on:
 *   - each set of answers pressed Submit on is stored exactly once, or waits on the device (never silently gone);
 *   - a success names only a submission of that person's, with exactly the answers they sent;
 *   - nothing is stored or delivered twice;
 *   - no page of one person shows anything the other typed.
 * At the end the signal returns and each person with something waiting signs in: everything must then be stored.
 *
 * A run prints its seed. Replay a failure alone with the values the failure prints:
 *   DEVICE_FORMS_SEED=<seed> DEVICE_FORMS_PATH=<path> [DEVICE_FORMS_REPLAY=<replayPath>] npx playwright test \
 *     tests/e2e/device-forms-model.spec.ts --project=phone
 * and run many sequences with DEVICE_FORMS_RUNS=<n> (scripts/device-forms-model.sh); DEVICE_FORMS_COMMANDS sets
 * the longest sequence. A failure is shrunk to its shortest sequence unless DEVICE_FORMS_SHRINK=0 (or CI is set).
 */

const JOB = "/admin/quick-links/job-request";
const SIGN_IN_TO_JOB = `/admin?redirectTo=${encodeURIComponent(JOB)}`;

const RUNS = positiveInteger(process.env.DEVICE_FORMS_RUNS, 3);
const MAX_COMMANDS = positiveInteger(process.env.DEVICE_FORMS_COMMANDS, 10);
/**
 * The test suite runs the same sequences every time (this seed), so that what it finds is a change's and not the
 * draw's; `DEVICE_FORMS_SEED=random` (scripts/device-forms-model.sh) draws new ones.
 */
const SUITE_SEED = 1112311243;
const SEED =
  process.env.DEVICE_FORMS_SEED === "random"
    ? randomSeed()
    : process.env.DEVICE_FORMS_SEED
      ? Number(process.env.DEVICE_FORMS_SEED)
      : SUITE_SEED;
const PATH = process.env.DEVICE_FORMS_PATH || undefined;
const REPLAY_PATH = process.env.DEVICE_FORMS_REPLAY || undefined;
const SHRINK = process.env.DEVICE_FORMS_SHRINK ? process.env.DEVICE_FORMS_SHRINK !== "0" : !process.env.CI;
/** A sequence takes 15-40 s; shrinking replays sequences until this much of the test's time is left. */
const PER_RUN_MS = 90_000;
const SHRINK_BUDGET_MS = SHRINK ? 8 * 60_000 : 0;
/** How long a waiting form may take to go once its person's page is open with signal (page open, `online`). */
const SENT_WITHIN_MS = 25_000;

function positiveInteger(value: string | undefined, fallback: number) {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

function randomSeed() {
  return Math.floor(Math.random() * 0x7fffffff);
}

// ── The model ───────────────────────────────────────────────────────────────────────────────────────────────

const PEOPLE = ["A", "B"] as const;
type Person = (typeof PEOPLE)[number];
const otherPerson = (person: Person): Person => (person === "A" ? "B" : "A");

type TabModel = {
  /** A Job Request page (a staff page of `person`), the sign-in page, or no page of ours (the browser's error). */
  at: "form" | "sign-in" | "none";
  person?: Person;
  /** The job name the form shows; undefined while it is empty. */
  shown?: string;
  /** The form's double-submit key, as the page shows it. */
  key?: string;
  /** The form this tab had open last, per person: what a reload of the tab brings back. */
  remembered: Partial<Record<Person, string>>;
};

type Submitted = {
  person: Person;
  jobName: string;
  /** What the page answered. */
  answered: "success" | "kept for signal" | "kept for sign-in";
  reference?: string;
  /** Its person logged out, and accepted to lose it, while it waited: it may be stored, at most once. */
  dropped: boolean;
};

type Model = {
  online: boolean;
  /** Whose session the browser's cookie carries. */
  session?: Person;
  /** Who signed in last on the device. */
  lastPerson: Person;
  tabs: TabModel[];
  /** The drafts on the device, by key: what was typed and not yet handed over, stored or logged out. */
  drafts: Map<string, { person: Person; jobName: string; order: number }>;
  submitted: Submitted[];
  /** Every job name each person typed: no page of the other person may show one. */
  typed: Record<Person, Set<string>>;
  /** Orders the drafts by when they were last saved. */
  clock: number;
  jobs: number;
};

type Account = { username: string; password: string; displayName: string; userId: number };

type Real = {
  app: AppServer;
  receiver: WebhookReceiver;
  context: BrowserContext;
  /** The person's tabs, first and second. */
  pages: Page[];
  /** A page of the app's origin that runs none of the app (robots.txt): reads the device's store and caches. */
  observer: Page;
  accounts: Record<Person, Account>;
  /** Every job name of this run starts with it. */
  prefix: string;
  dialogs: string[];
  acceptDialogs: boolean;
  cspViolations: string[];
  log: string[];
};

const personOfUser = (real: Real, userId: number): Person | undefined =>
  PEOPLE.find((person) => real.accounts[person].userId === userId);

/**
 * The form a tab opens for a person (open-device-form.ts's rule, as the person sees it): the tab's own from before,
 * else the person's newest draft no other tab has open, else a new, empty form.
 */
function formToOpen(model: Model, tab: number, person: Person): { shown?: string; key?: string } {
  const held = new Set(
    model.tabs.flatMap((other, index) => (index !== tab && other.at === "form" && other.key ? [other.key] : [])),
  );
  const own = model.tabs[tab]?.remembered[person];
  const drafts = [...model.drafts.entries()]
    .filter(([, draft]) => draft.person === person)
    .sort(([, one], [, other]) => other.order - one.order);
  const ordered = [...drafts.filter(([key]) => key === own), ...drafts.filter(([key]) => key !== own)];
  const free = ordered.find(([key]) => !held.has(key));
  return free ? { shown: free[1].jobName, key: free[0] } : {};
}

// ── Reading the real system ────────────────────────────────────────────────────────────────────────────────

const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));
const submitButton = (page: Page) => page.getByRole("button", { name: "Submit", exact: true });
const waitingRegion = (page: Page) => page.getByRole("region", { name: "Waiting to be sent" });
const keyInput = (page: Page) => page.locator('input[name="submissionKey"]');

type DeviceRecord = {
  key: string;
  userId: number;
  state: string;
  /** The job name of its draft, and of its post once handed over (what is sent). */
  jobName: string;
  postedJobName: string | null;
  formType: string;
};

/** The device's forms store (IndexedDB "device-forms", store "forms"), read as it is now. */
function deviceRecords(observer: Page): Promise<DeviceRecord[]> {
  return observer.evaluate(
    () =>
      new Promise<DeviceRecord[]>((resolve, reject) => {
        const opening = indexedDB.open("device-forms");
        // As idb-keyval makes it, should this read come first.
        opening.onupgradeneeded = () => opening.result.createObjectStore("forms");
        opening.onerror = () => reject(opening.error);
        opening.onsuccess = () => {
          const database = opening.result;
          const transaction = database.transaction("forms", "readonly");
          const store = transaction.objectStore("forms");
          const keys = store.getAllKeys();
          const values = store.getAll();
          transaction.onerror = () => reject(transaction.error);
          transaction.oncomplete = () => {
            database.close();
            const records: DeviceRecord[] = [];
            values.result.forEach((value, index) => {
              if (Array.isArray(value) || typeof value !== "object" || value === null) return;
              const form = value as {
                userId: number;
                state: string;
                formType: string;
                values?: Record<string, string[]>;
                fields?: [string, unknown][];
              };
              const posted = form.fields?.find(([name]) => name === "jobName")?.[1];
              records.push({
                key: String(keys.result[index]),
                userId: form.userId,
                state: form.state,
                formType: form.formType,
                jobName: form.values?.jobName?.[0] ?? "",
                postedJobName: typeof posted === "string" ? posted : null,
              });
            });
            resolve(records);
          };
        };
      }),
  );
}

/** Whether the staff app's worker keeps the Job Request page, and whose page it keeps (by the name it shows). */
function keptJobPage(observer: Page): Promise<string | null> {
  return observer.evaluate(async (path) => {
    for (const name of await caches.keys()) {
      if (!name.startsWith("staff-pages-")) continue;
      const kept = await (await caches.open(name)).match(path);
      if (kept) return /Signed in as <strong>([^<]*)<\/strong>/.exec(await kept.text())?.[1] ?? "";
    }
    return null;
  }, JOB);
}

type StoredRow = { reference: string; payload: Record<string, unknown>; submitted_by_id: string | null };

const storedRows = (real: Real) =>
  queryAppDatabase<StoredRow>(
    real.app.dataDir,
    "SELECT reference, payload, submitted_by_id FROM submissions WHERE type = 'job-request' AND payload->>'jobName' LIKE $1",
    [`${real.prefix}-%`],
  );

const jobNameOf = (row: StoredRow) => String(row.payload.jobName);

/** Map.groupBy, which Node 20 does not have. */
function groupBy<Item>(items: readonly Item[], keyOf: (item: Item) => string): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), item]);
  return groups;
}

/** The answers a job request typed by the model is stored with. */
const storedAnswers = (jobName: string) => ({ ...storedJobRequest, jobName });

/** Whose staff page a tab shows, by the name in its header; undefined for any other page. */
async function pagePerson(real: Real, page: Page): Promise<Person | undefined> {
  const signedInAs = page.getByRole("banner").getByText(/^Signed in as/);
  if ((await signedInAs.count()) === 0) return undefined;
  const name = (await signedInAs.locator("strong").textContent())?.trim();
  const person = PEOPLE.find((one) => real.accounts[one].displayName === name);
  if (!person) throw new Error(`a page shows a person the run does not know: ${name}`);
  return person;
}

/** Everything a page shows and holds in its fields, as text; empty for a page the test cannot read. */
const pageText = (page: Page) =>
  page
    .evaluate(() =>
      [
        document.body?.textContent ?? "",
        ...Array.from(document.querySelectorAll("input, textarea"), (input) => (input as HTMLInputElement).value),
      ].join("\n"),
    )
    .catch(() => "");

/** Waits until a tab shows the Job Request form, opened for the person; answers its key and job name. */
async function openedForm(page: Page): Promise<{ key: string; jobName: string }> {
  await expect(page.getByRole("heading", { level: 1, name: "Job Request Form" })).toBeVisible({ timeout: 20_000 });
  // The key shows once the form is held for this tab, after its draft (if any) is back in the fields.
  await expect(keyInput(page)).toHaveCount(1, { timeout: 15_000 });
  await expect(submitButton(page)).toBeEnabled();
  const key = (await keyInput(page).getAttribute("value")) ?? "";
  return { key, jobName: await field(page, "Job Name").inputValue() };
}

// ── The invariants, checked after every step ─────────────────────────────────────────────────────────────────

async function checkInvariants(model: Model, real: Real, step: string) {
  const fail = (what: string): never => {
    throw new Error(`after ${step}: ${what}`);
  };
  const submittedBy = new Map(model.submitted.map((one) => [one.jobName, one]));

  // The device's store first, the database after: a form leaves the device only once the server stored it.
  const records = await deviceRecords(real.observer);
  const rows = await storedRows(real);

  // Stored: only what someone pressed Submit on, once, with exactly its answers, under its person's name.
  const rowsByName = groupBy(rows, jobNameOf);
  for (const [jobName, sameName] of rowsByName) {
    const submitted = submittedBy.get(jobName);
    if (!submitted) fail(`"${jobName}" is stored (${sameName[0]?.reference}) though no one pressed Submit on it`);
    if (sameName.length > 1) {
      fail(`"${jobName}" is stored ${sameName.length} times: ${sameName.map((row) => row.reference).join(", ")}`);
    }
    const [row] = sameName as [StoredRow];
    expect(row.payload, `the stored answers of "${jobName}" after ${step}`).toEqual(storedAnswers(jobName));
    const by = personOfUser(real, Number(row.submitted_by_id));
    if (by !== submitted?.person) {
      fail(`"${jobName}", submitted by ${submitted?.person}, is stored as sent by ${by ?? row.submitted_by_id}`);
    }
    if (submitted?.reference && submitted.reference !== row.reference) {
      fail(`"${jobName}" was answered with ${submitted.reference} but is stored as ${row.reference}`);
    }
  }

  // The device keeps forms of this form only, each under the person who typed it; a waiting one sends what was typed.
  for (const record of records) {
    const person = personOfUser(real, record.userId);
    if (record.formType !== "job-request") fail(`the device keeps a form of type ${record.formType}`);
    if (!person) fail(`the device keeps a form of an unknown user ${record.userId}`);
    if (record.jobName && !model.typed[person as Person].has(record.jobName)) {
      fail(`the device keeps "${record.jobName}" under ${person}, who did not type it`);
    }
    if (record.state !== "editing" && record.postedJobName !== record.jobName) {
      fail(`the waiting form "${record.jobName}" would send "${record.postedJobName}"`);
    }
  }

  // Never silently gone: each set of answers pressed Submit on is stored, or waits on the device for its person.
  for (const submitted of model.submitted) {
    if (submitted.dropped || rowsByName.has(submitted.jobName)) continue;
    const waiting = records.find((record) => record.state !== "editing" && record.jobName === submitted.jobName);
    if (!waiting) {
      fail(
        `"${submitted.jobName}" (${submitted.person}, answered ${submitted.answered}) is neither stored nor waiting on the device`,
      );
    }
    if (personOfUser(real, waiting?.userId ?? -1) !== submitted.person) {
      fail(`"${submitted.jobName}" of ${submitted.person} waits under user ${waiting?.userId}`);
    }
  }

  // Delivered once at most per submission, with the stored answers.
  const deliveries = real.receiver.requests.flatMap((request) => {
    const body = JSON.parse(request.body || "{}") as { jobName?: string };
    return body.jobName?.startsWith(`${real.prefix}-`)
      ? [{ reference: String(request.headers["submission-reference"]), jobName: body.jobName }]
      : [];
  });
  for (const [reference, sent] of groupBy(deliveries, (delivery) => delivery.reference)) {
    if (sent.length > 1) fail(`the webhook got ${reference} ${sent.length} times`);
    const row = rows.find((one) => one.reference === reference);
    if (!row || jobNameOf(row) !== sent[0]?.jobName) {
      fail(
        `the webhook got ${reference} as "${sent[0]?.jobName}", stored as ${row ? `"${jobNameOf(row)}"` : "nothing"}`,
      );
    }
  }

  // The device's drafts are the model's: typed, not yet handed over or stored, not logged out.
  await expect
    .poll(
      async () =>
        (await deviceRecords(real.observer))
          .filter((record) => record.state === "editing")
          .map((record) => `${record.key} ${personOfUser(real, record.userId)} ${record.jobName}`)
          .sort(),
      { message: `the drafts on the device after ${step}`, timeout: 7_000 },
    )
    .toEqual([...model.drafts].map(([key, draft]) => `${key} ${draft.person} ${draft.jobName}`).sort());

  // The pages: each shows whom the model says, the form it says, nothing of the other person, and only their queue.
  const referencesOf = (person: Person) =>
    new Set(
      rows
        .filter((row) => submittedBy.get(jobNameOf(row))?.person === person)
        .map((row) => `${row.reference} ${jobNameOf(row)}`),
    );
  for (const [index, page] of real.pages.entries()) {
    const tab = model.tabs[index] as TabModel;
    if (tab.at === "none") continue;
    if (tab.at === "sign-in") {
      await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
      const text = await pageText(page);
      const shown = [...model.typed.A, ...model.typed.B].filter((name) => text.includes(name));
      if (shown.length > 0) fail(`tab ${index + 1}, the sign-in page, shows ${shown.join(", ")}`);
      continue;
    }
    const person = tab.person as Person;
    const other = otherPerson(person);
    expect(await pagePerson(real, page), `whose page tab ${index + 1} is, after ${step}`).toBe(person);
    await expect(field(page, "Job Name"), `tab ${index + 1}'s job name after ${step}`).toHaveValue(tab.shown ?? "");
    const text = await pageText(page);
    const leaked = [...model.typed[other]].filter((name) => text.includes(name));
    if (leaked.length > 0) fail(`tab ${index + 1}, ${person}'s page, shows ${other}'s ${leaked.join(", ")}`);

    // Every reference the page names as sent or submitted is one of this person's, stored with what they sent.
    const statuses = await page.getByRole("status").allTextContents();
    const theirs = referencesOf(person);
    for (const reference of statuses.join("\n").match(/JOB-[0-9A-Z]{6}/g) ?? []) {
      const row = rows.find((one) => one.reference === reference);
      if (!row || !theirs.has(`${reference} ${jobNameOf(row)}`)) {
        fail(`tab ${index + 1}, ${person}'s page, names ${reference}, which is not a submission of theirs`);
      }
    }

    // The queue it lists is the person's waiting forms on the device, with their answers to read.
    await expect(
      async () => {
        const now = await deviceRecords(real.observer);
        const waiting = now
          .filter((record) => record.state !== "editing" && personOfUser(real, record.userId) === person)
          .map((record) => record.jobName)
          .sort();
        const region = waitingRegion(page);
        if (waiting.length === 0) {
          await expect(region).toHaveCount(0, { timeout: 0 });
          return;
        }
        await expect(region.getByRole("listitem")).toHaveCount(waiting.length, { timeout: 0 });
        // Closed disclosures hide the answers from the accessibility tree; they are there to be opened.
        const listed = (await region.getByRole("definition", { includeHidden: true }).allTextContents())
          .filter((text) => text.startsWith(`${real.prefix}-`))
          .sort();
        expect(listed).toEqual(waiting);
      },
      `the queue tab ${index + 1} lists for ${person} after ${step}`,
    ).toPass({ timeout: 8_000 });
  }

  if (real.cspViolations.length > 0) fail(`Content-Security-Policy violations: ${real.cspViolations.join("; ")}`);
}

/** Waits until every set of answers the person pressed Submit on (and did not drop) is stored. */
async function expectAllSentOf(model: Model, real: Real, person: Person, why: string, timeout = SENT_WITHIN_MS) {
  const expected = model.submitted
    .filter((one) => one.person === person && !one.dropped)
    .map((one) => one.jobName)
    .sort();
  if (expected.length === 0) return;
  await expect
    .poll(
      async () =>
        (await storedRows(real))
          .map(jobNameOf)
          .filter((name) => expected.includes(name))
          .sort(),
      { message: `${person}'s forms are all stored ${why}`, timeout },
    )
    .toEqual(expected);
}

// ── The commands ─────────────────────────────────────────────────────────────────────────────────────────────

type DeviceCommand = fc.AsyncCommand<Model, Real>;

abstract class Step implements DeviceCommand {
  abstract check(model: Readonly<Model>): boolean;
  protected abstract act(model: Model, real: Real): Promise<void>;
  abstract toString(): string;
  async run(model: Model, real: Real) {
    real.log.push(this.toString());
    console.log(`[device-forms-model]   ${this.toString()}`);
    await this.act(model, real);
    await checkInvariants(model, real, real.log.join(" → "));
  }
}

/** Fills every field of a tab's form, under a job name of its own. */
class TypeJob extends Step {
  constructor(readonly tab: number) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.tabs[this.tab]?.at === "form";
  }
  toString() {
    return `type(tab ${this.tab + 1})`;
  }
  async act(model: Model, real: Real) {
    const page = real.pages[this.tab] as Page;
    const tab = model.tabs[this.tab] as TabModel;
    const person = tab.person as Person;
    model.jobs += 1;
    const jobName = `${real.prefix}-${String(model.jobs).padStart(2, "0")}`;
    model.typed[person].add(jobName);
    for (const [name, label] of Object.entries(JOB_LABELS)) {
      await field(page, label).fill(name === "jobName" ? jobName : validJobRequest[name as keyof typeof JOB_LABELS]);
    }
    const key = tab.key as string;
    // Saved on the device as it is typed, under the form's own key.
    await expect
      .poll(async () => (await deviceRecords(real.observer)).find((record) => record.key === key), {
        message: `the draft of ${jobName}`,
      })
      .toMatchObject({ state: "editing", jobName, userId: real.accounts[person].userId });
    tab.shown = jobName;
    model.clock += 1;
    model.drafts.set(key, { person, jobName, order: model.clock });
  }
}

/** Presses Submit on a typed form; the page answers stored, kept for the signal, or kept for a sign-in. */
class Submit extends Step {
  constructor(readonly tab: number) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.tabs[this.tab]?.at === "form" && model.tabs[this.tab]?.shown !== undefined;
  }
  toString() {
    return `submit(tab ${this.tab + 1})`;
  }
  async act(model: Model, real: Real) {
    const page = real.pages[this.tab] as Page;
    const tab = model.tabs[this.tab] as TabModel;
    const person = tab.person as Person;
    const jobName = tab.shown as string;
    const key = tab.key as string;
    const expected: Submitted["answered"] = !model.online
      ? "kept for signal"
      : model.session === person
        ? "success"
        : "kept for sign-in";
    await submitButton(page).click();

    // The page answers once its loaders have run again after the post (the outcome shows only then); stored or
    // handed to the queue, the form has started afresh under a new key by then, anything else keeps it.
    const outcome = page
      .locator("#form-outcome")
      .getByRole("status")
      .or(page.locator("#form-outcome").getByRole("alert"));
    const error = page.getByRole("alert").filter({ hasNotText: /No signal|signed out/ });
    let said = "";
    await expect
      .poll(
        async () => {
          const answered = (await error.count()) > 0 || (await keyInput(page).getAttribute("value")) !== key;
          said = answered ? (await outcome.allTextContents()).join(" | ") : "";
          return said !== "";
        },
        { message: `the form of ${jobName} answered (expected: ${expected})`, timeout: 25_000 },
      )
      .toBe(true)
      .catch(async (error: Error) => {
        const now = await keyInput(page)
          .getAttribute("value", { timeout: 1_000 })
          .catch(() => "gone");
        const device = (await deviceRecords(real.observer)).map((record) => `${record.state} ${record.jobName}`);
        throw new Error(
          `${error.message.split("\n")[0]}: the page shows "${[
            ...(await page.getByRole("status").allTextContents()),
            ...(await page.getByRole("alert").allTextContents()),
          ].join(" | ")}"; the Submit button reads "${await page
            .locator('button[type="submit"]')
            .last()
            .textContent()}"; its key was ${key}, is now ${now}; the device keeps ${JSON.stringify(device)}`,
        );
      });
    const reference = /submitted successfully! Reference (JOB-[0-9A-Z]{6})\./.exec(said)?.[1];
    const answered: Submitted["answered"] | "error" = reference
      ? "success"
      : said.includes("No signal: your request is kept on this device")
        ? "kept for signal"
        : said.includes("signed out")
          ? "kept for sign-in"
          : "error";
    model.submitted.push({
      person,
      jobName,
      answered: answered === "error" ? expected : answered,
      reference,
      dropped: false,
    });
    if (answered !== expected) {
      const stored = (await storedRows(real)).filter((row) => jobNameOf(row) === jobName);
      throw new Error(
        `Submit of "${jobName}" (${person}, tab ${this.tab + 1}) answered ${answered}, expected ${expected}. ` +
          `The page said: "${said}". Its key was ${key}, is now ${await keyInput(page)
            .getAttribute("value", { timeout: 1_000 })
            .catch(() => "gone")}; ` +
          `its job name field holds "${await field(page, "Job Name")
            .inputValue({ timeout: 1_000 })
            .catch(() => "?")}". ` +
          `Stored under that name: ${JSON.stringify(stored.map((row) => row.reference))}.`,
      );
    }
    if (reference) {
      await expect(
        page
          .getByRole("status")
          .filter({ hasText: `Your job request has been submitted successfully! Reference ${reference}.` }),
      ).toBeVisible();
    }

    const fresh = await openedForm(page);
    expect(fresh.jobName, "the form after Submit").toBe("");
    if (answered !== "success") {
      // Kept: listed as waiting, with its answers to read.
      const item = waitingRegion(page).getByRole("listitem").filter({ hasText: jobName });
      await expect(item).toContainText(
        answered === "kept for signal"
          ? "Job request, kept at"
          : "your session had ended; it is sent when you sign in again.",
      );
      await item.getByText("Its answers").click();
      await expect(item.getByRole("definition").filter({ hasText: jobName })).toBeVisible();
    }
    model.drafts.delete(key);
    tab.shown = undefined;
    tab.key = fresh.key;
    tab.remembered[person] = fresh.key;
  }
}

/** Types a whole form and presses Submit on it, one after the other, as a person mostly does. */
class TypeAndSubmit extends Step {
  constructor(readonly tab: number) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.tabs[this.tab]?.at === "form";
  }
  toString() {
    return `type and submit(tab ${this.tab + 1})`;
  }
  async act(model: Model, real: Real) {
    await new TypeJob(this.tab).act(model, real);
    await new Submit(this.tab).act(model, real);
  }
}

class LoseSignal extends Step {
  check(model: Readonly<Model>) {
    return model.online;
  }
  toString() {
    return "lose signal";
  }
  async act(model: Model, real: Real) {
    await cutSignal(real.context);
    model.online = false;
  }
}

class RestoreSignal extends Step {
  check(model: Readonly<Model>) {
    return !model.online;
  }
  toString() {
    return "signal back";
  }
  async act(model: Model, real: Real) {
    await restoreSignal(real.context);
    model.online = true;
    // A page of the signed-in person is open: what they sent without signal goes now, by itself.
    const session = model.session;
    if (session && model.tabs.some((tab) => tab.at === "form" && tab.person === session)) {
      await expectAllSentOf(model, real, session, "once the signal returned to their open page");
    }
  }
}

/** The session ends on the server's side as far as the browser knows: its cookie is gone. */
class SessionEnds extends Step {
  check(model: Readonly<Model>) {
    return model.session !== undefined;
  }
  toString() {
    return "session ends";
  }
  async act(model: Model, real: Real) {
    await real.context.clearCookies();
    model.session = undefined;
  }
}

/** Signs in through the sign-in form in a tab, as the last person (`same`) or the other one, back at the form. */
class SignIn extends Step {
  constructor(
    readonly tab: number,
    readonly who: "same" | "other",
  ) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.online && model.session === undefined && model.tabs[this.tab] !== undefined;
  }
  toString() {
    return `sign in as ${this.who === "same" ? "the same person" : "the other person"} (tab ${this.tab + 1})`;
  }
  async act(model: Model, real: Real) {
    const page = real.pages[this.tab] as Page;
    const tab = model.tabs[this.tab] as TabModel;
    const person = this.who === "same" ? model.lastPerson : otherPerson(model.lastPerson);
    const account = real.accounts[person];
    await page.goto(`${real.app.url}${SIGN_IN_TO_JOB}`);
    Object.assign(tab, { at: "sign-in", person: undefined, shown: undefined, key: undefined });
    await signInThroughForm(page, account.username, account.password);
    model.session = person;
    model.lastPerson = person;
    await expect(page.getByRole("heading", { level: 1, name: "Job Request Form" })).toBeVisible({ timeout: 20_000 });
    expect(await pagePerson(real, page), "whose page opened after signing in").toBe(person);
    await expectFormOpened(model, real, this.tab, person, this.toString());
    await expectAllSentOf(model, real, person, "once they signed in again");
  }
}

/**
 * What a tab opens at the Job Request's address: online, the signed-in person's form or the sign-in page;
 * without signal, the page the staff app's worker kept, which must be of the person the device is signed in as
 * (or was last, when the session ended), or nothing once a logout cleared the kept pages.
 */
async function openJobRequest(model: Model, real: Real, index: number, navigate: () => Promise<unknown>, what: string) {
  const page = real.pages[index] as Page;
  const tab = model.tabs[index] as TabModel;
  Object.assign(tab, { at: "none", person: undefined, shown: undefined, key: undefined });
  // Without signal the page comes from the staff app's worker, if it keeps one: whose, it says in its header.
  const kept = model.online ? null : await keptJobPage(real.observer);
  let navigationError = "";
  const navigated = await navigate().then(
    () => true,
    (error: unknown) => {
      navigationError = String(error).split("\n")[0] ?? "";
      return false;
    },
  );
  if (model.online && !model.session) {
    await expect(page.getByRole("button", { name: "Login" }), `${what}: the sign-in page`).toBeVisible();
    tab.at = "sign-in";
    return;
  }
  const heading = page.getByRole("heading", { level: 1, name: "Job Request Form" });
  if (!model.online) {
    const shown =
      navigated &&
      (await heading.waitFor({ state: "visible", timeout: 10_000 }).then(
        () => true,
        () => false,
      ));
    if (!shown) {
      // Nothing kept (a logout cleared it): the browser's offline page, or one that says the device logged out.
      const showing = `${page.url()} ${navigationError} ${(await pageText(page)).replace(/\s+/g, " ").slice(0, 300)}`;
      expect(
        kept,
        `${what}: without signal, the kept Job Request page (of "${kept}") did not open; the tab shows: ${showing}`,
      ).toBeNull();
      expect(await pagePerson(real, page).catch(() => undefined), `${what}: no one's page`).toBeUndefined();
      return;
    }
  }
  const expectedPerson = (model.session ?? model.lastPerson) as Person;
  await expect(heading).toBeVisible({ timeout: 20_000 });
  const person = await pagePerson(real, page);
  if (person !== expectedPerson) {
    throw new Error(
      `${what}: the Job Request opened as ${person ? `${real.accounts[person].displayName}'s` : "no one's"} page, ` +
        `but the device is signed in as ${real.accounts[expectedPerson].displayName}` +
        `${model.session ? "" : " (whose session ended)"}${model.online ? "" : `; without signal, the worker keeps the page of "${kept}"`}`,
    );
  }
  await expectFormOpened(model, real, index, person, what);
}

/** The form a tab opened for a person: the tab's own draft, else the newest free one, else a new form. */
async function expectFormOpened(model: Model, real: Real, index: number, person: Person, what: string) {
  const tab = model.tabs[index] as TabModel;
  Object.assign(tab, { at: "none", person: undefined, shown: undefined, key: undefined });
  const expected = formToOpen(model, index, person);
  const opened = await openedForm(real.pages[index] as Page);
  Object.assign(tab, { at: "form", person, shown: opened.jobName || undefined, key: opened.key });
  expect(opened.jobName, `${what}: the form opened for ${person}`).toBe(expected.shown ?? "");
  if (expected.key) {
    expect(opened.key, `${what}: the draft's key`).toBe(expected.key);
    // Its answers are put back into the fields, which saves the draft again: it is the newest now.
    model.clock += 1;
    const draft = model.drafts.get(expected.key);
    if (draft) draft.order = model.clock;
  } else {
    const taken = new Set([
      ...model.drafts.keys(),
      ...model.tabs.flatMap((other) => (other === tab ? [] : [other.key])),
    ]);
    expect(taken.has(opened.key), `${what}: a new form has a key of its own`).toBe(false);
  }
  tab.remembered[person] = opened.key;
}

class Reload extends Step {
  constructor(readonly tab: number) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.tabs[this.tab]?.at === "form";
  }
  toString() {
    return `reload(tab ${this.tab + 1})`;
  }
  async act(model: Model, real: Real) {
    const page = real.pages[this.tab] as Page;
    await openJobRequest(model, real, this.tab, () => page.reload(), this.toString());
  }
}

class OpenSecondTab extends Step {
  check(model: Readonly<Model>) {
    return model.tabs.length === 1;
  }
  toString() {
    return "open a second tab on the form";
  }
  async act(model: Model, real: Real) {
    const page = await newTab(real);
    model.tabs.push({ at: "none", remembered: {} });
    await openJobRequest(model, real, 1, () => page.goto(`${real.app.url}${JOB}`), this.toString());
  }
}

/** Logs out from a tab's page; when something of the page's person waits, the page asks, and is answered. */
class LogOut extends Step {
  constructor(
    readonly tab: number,
    readonly accept: boolean,
  ) {
    super();
  }
  check(model: Readonly<Model>) {
    return model.online && model.tabs[this.tab]?.at === "form";
  }
  toString() {
    return `log out (tab ${this.tab + 1}; ${this.accept ? "accept" : "dismiss"} losing what waits)`;
  }
  async act(model: Model, real: Real) {
    const page = real.pages[this.tab] as Page;
    const tab = model.tabs[this.tab] as TabModel;
    const person = tab.person as Person;
    real.dialogs.length = 0;
    real.acceptDialogs = this.accept;
    await page.getByRole("button", { name: "Log out" }).click();
    const login = page.getByRole("button", { name: "Login" });
    await expect
      .poll(async () => real.dialogs.length > 0 || (await login.isVisible()), { message: "logged out, or asked" })
      .toBe(true);
    const asked = real.dialogs.length > 0;
    if (asked) {
      expect(real.dialogs[0]).toMatch(/form\(s\) you sent without signal are not sent yet and would be lost/);
    }
    if (asked && !this.accept) {
      // Stayed: nothing changes.
      await expect(page.getByRole("heading", { level: 1, name: "Job Request Form" })).toBeVisible();
      await expect(login).toHaveCount(0);
      return;
    }
    await expect(login).toBeVisible({ timeout: 15_000 });
    const rows = (await storedRows(real)).map(jobNameOf);
    for (const submitted of model.submitted) {
      if (submitted.person !== person || submitted.dropped || rows.includes(submitted.jobName)) continue;
      if (!asked) throw new Error(`logging out dropped "${submitted.jobName}" of ${person} without asking`);
      submitted.dropped = true;
    }
    for (const [key, draft] of model.drafts) if (draft.person === person) model.drafts.delete(key);
    Object.assign(tab, { at: "sign-in", person: undefined, shown: undefined, key: undefined });
    model.session = undefined;
  }
}

async function newTab(real: Real) {
  const page = await real.context.newPage();
  page.on("dialog", (dialog) => {
    real.dialogs.push(dialog.message());
    void (real.acceptDialogs ? dialog.accept() : dialog.dismiss());
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) real.cspViolations.push(message.text());
  });
  real.pages.push(page);
  return page;
}

/** The first tab more often than the second, which is there only once opened. */
const tabIndex = fc.constantFrom(0, 0, 1);
/** Typing and pressing Submit come up more often than the rest: they are what people do most. */
const COMMANDS: fc.Arbitrary<DeviceCommand>[] = [
  tabIndex.map((tab) => new TypeJob(tab)),
  tabIndex.map((tab) => new TypeJob(tab)),
  tabIndex.map((tab) => new Submit(tab)),
  tabIndex.map((tab) => new Submit(tab)),
  tabIndex.map((tab) => new TypeAndSubmit(tab)),
  tabIndex.map((tab) => new TypeAndSubmit(tab)),
  fc.constant(new LoseSignal()),
  fc.constant(new RestoreSignal()),
  fc.constant(new SessionEnds()),
  fc.tuple(tabIndex, fc.constantFrom("same" as const, "other" as const)).map(([tab, who]) => new SignIn(tab, who)),
  tabIndex.map((tab) => new Reload(tab)),
  fc.constant(new OpenSecondTab()),
  fc.tuple(tabIndex, fc.boolean()).map(([tab, accept]) => new LogOut(tab, accept)),
];

// ── A run: a fresh device, one sequence, then everything settles ─────────────────────────────────────────────

type Shared = { app: AppServer; receiver: WebhookReceiver; accounts: Record<Person, Account> };

async function startRun(browser: Browser, shared: Shared, prefix: string) {
  const context = await browser.newContext();
  const real: Real = {
    ...shared,
    context,
    pages: [],
    observer: await context.newPage(),
    prefix,
    dialogs: [],
    acceptDialogs: true,
    cspViolations: [],
    log: [],
  };
  await real.observer.goto(`${shared.app.url}/robots.txt`);
  await newTab(real);
  const model: Model = {
    online: true,
    session: undefined,
    lastPerson: "A",
    tabs: [{ at: "none", remembered: {} }],
    drafts: new Map(),
    submitted: [],
    typed: { A: new Set(), B: new Set() },
    clock: 0,
    jobs: 0,
  };
  // A signs in at the form, and the staff app keeps its pages, as after a first visit.
  await new SignIn(0, "same").act(model, real);
  // Its worker active (it answers the pages' navigations only from then on), with the Job Request page kept.
  await expect
    .poll(
      async () =>
        (await real.observer.evaluate(
          async () => (await navigator.serviceWorker.getRegistration("/admin/"))?.active?.state === "activated",
        )) && (await keptJobPage(real.observer)) !== null,
      { message: "the staff app's worker active, keeping the Job Request page", timeout: 30_000 },
    )
    .toBe(true);
  return { model, real };
}

/** The signal returns and each person with something not yet stored signs in: everything must then be stored. */
async function settle(model: Model, real: Real) {
  real.log.push("settle");
  if (!model.online) {
    await restoreSignal(real.context);
    model.online = true;
  }
  const rows = (await storedRows(real)).map(jobNameOf);
  const unsent = (person: Person) =>
    model.submitted.some((one) => one.person === person && !one.dropped && !rows.includes(one.jobName));
  for (const person of PEOPLE.filter(unsent)) {
    if (model.session !== person) {
      // The other person's session ends (no logout: that would drop what waits for them).
      await real.context.clearCookies();
      model.session = undefined;
      const page = real.pages[0] as Page;
      await page.goto(`${real.app.url}${SIGN_IN_TO_JOB}`);
      await signInThroughForm(page, real.accounts[person].username, real.accounts[person].password);
      await expect(page.getByRole("heading", { level: 1, name: "Job Request Form" })).toBeVisible({
        timeout: 20_000,
      });
      model.session = person;
    } else {
      // Their page opens again: what waits is sent when a staff page opens.
      await (real.pages[0] as Page).goto(`${real.app.url}/admin/quick-links`);
    }
    await expectAllSentOf(model, real, person, "after the signal returned and they signed in", 45_000);
  }

  const stored = await storedRows(real);
  for (const submitted of model.submitted) {
    const sameName = stored.filter((row) => jobNameOf(row) === submitted.jobName);
    if (submitted.dropped) expect(sameName.length, `dropped "${submitted.jobName}" stored`).toBeLessThanOrEqual(1);
    else expect(sameName.length, `"${submitted.jobName}" of ${submitted.person} stored once`).toBe(1);
  }
  // Each stored submission reaches the webhook once.
  const deliveredOnce = async () => {
    const references = real.receiver.requests
      .filter((request) => String(JSON.parse(request.body || "{}").jobName ?? "").startsWith(`${real.prefix}-`))
      .map((request) => String(request.headers["submission-reference"]));
    return references.sort();
  };
  await expect
    .poll(deliveredOnce, { message: "one delivery per stored submission", timeout: 30_000 })
    .toEqual(stored.map((row) => row.reference).sort());
}

test("random sequences of typing, sending, signal, sessions, tabs and people never lose, repeat or mix up a form", async ({
  browser,
}, testInfo) => {
  test.setTimeout(60_000 + RUNS * PER_RUN_MS + SHRINK_BUDGET_MS);
  const receiver = await startWebhookReceiver();
  const app = await startAppServer({ env: { WEBHOOK_JOB_REQUEST_URL: receiver.url } });
  try {
    const accounts = {} as Record<Person, Account>;
    for (const [person, displayName] of [
      ["A", "Alma Model"],
      ["B", "Boris Model"],
    ] as const) {
      const { username, password } = addStaffAccount("staff", `model-${person}`, app.dataDir, displayName);
      const [user] = await queryAppDatabase<{ id: string }>(
        app.dataDir,
        "SELECT id FROM staff_users WHERE username = $1",
        [username],
      );
      accounts[person] = { username, password, displayName, userId: Number(user?.id) };
    }
    const shared: Shared = { app, receiver, accounts };

    let run = 0;
    let failedOnce = false;
    const started = Date.now();
    const property = fc.asyncProperty(
      fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS, replayPath: REPLAY_PATH }),
      async (commands) => {
        const what = failedOnce ? "shrinking, try" : "run";
        console.log(
          `[device-forms-model] ${testInfo.project.name} ${what} ${run}: DEVICE_FORMS_SEED=${SEED}` +
            (failedOnce ? "" : ` DEVICE_FORMS_PATH=${PATH ?? run}`),
        );
        run += 1;
        const runStarted = Date.now();
        const { model, real } = await startRun(browser, shared, `Job ${SEED}-${run}`);
        try {
          await fc.asyncModelRun(() => ({ model, real }), commands);
          await settle(model, real);
          console.log(`[device-forms-model]   passed in ${((Date.now() - runStarted) / 1000).toFixed(1)} s`);
        } catch (error) {
          failedOnce = true;
          console.log(`[device-forms-model]   FAILED: ${real.log.join(" → ")}\n${String(error)}`);
          throw error;
        } finally {
          await real.context.close();
        }
      },
    );
    const outcome = await fc.check(property, {
      // A path replays one run (and its shrinks).
      numRuns: PATH ? 1 : RUNS,
      seed: SEED,
      path: PATH,
      endOnFailure: !SHRINK,
      // Sequences of every length up to the longest from the first run on: a few runs are all CI has.
      plugins: [fc.unbiased(), fc.interruptAfterTimeLimit(RUNS * PER_RUN_MS + SHRINK_BUDGET_MS)],
    });
    console.log(
      `[device-forms-model] ${testInfo.project.name}: ${outcome.numRuns} run(s), ${outcome.numShrinks} shrink(s) in ` +
        `${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    if (outcome.failed) {
      const report = fc.defaultReportMessage(outcome) ?? "";
      const replay = /replayPath="([^"]*)"/.exec(report)?.[1];
      throw new Error(
        `Replay: DEVICE_FORMS_SEED=${outcome.seed} DEVICE_FORMS_PATH=${outcome.counterexamplePath}` +
          `${replay ? ` DEVICE_FORMS_REPLAY='${replay}'` : ""}\n${report}\n${String(outcome.errorInstance)}`,
      );
    }
  } finally {
    await app.stop();
    await receiver.close();
  }
});
