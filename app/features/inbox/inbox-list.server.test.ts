import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseCsv } from "#tests/csv-parser";
import { estimatePayload, insertInboxSubmission } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { asStaffRoute } from "#tests/staff-request";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { startSession } from "~/services/auth/sessions.server";
import { downloadInboxCsv } from "./export-csv.server";
import { loadInboxAlerts } from "./inbox-alerts.server";
import { INBOX_PAGE_SIZE } from "./inbox-filters";
import { inboxConditions } from "./inbox-query.server";
import { NEW_COUNT_CAP } from "./list-submissions.server";
import { loadInbox } from "./load-inbox.server";
import { countHeldSpam } from "./spam-count.server";

let database: TestDatabase;
let context: AppLoadContext;
let cookie: string;

async function signedIn(role: "staff" | "admin") {
  const user = await addStaffUser(database.db, role);
  const session = await startSession(database.db, context.config, { userId: user.id, secondFactorPending: false });
  return { user, cookie: cookieFrom(session) };
}

beforeAll(async () => {
  database = await createTestDatabase();
  context = loadContextFor(database.db);
  cookie = (await signedIn("staff")).cookie;
});
afterAll(() => database.drop());
beforeEach(async () => {
  await database.db.execute(sql`TRUNCATE submissions CASCADE`);
});

const staffRequest = (path: string) => new Request(`http://localhost${path}`, { headers: { cookie } });

async function inbox(query = "") {
  const result = await asStaffRoute(staffRequest(`/admin/inbox${query}`), context, loadInbox);
  return { httpStatus: result.init?.status ?? 200, ...result.data };
}

/** The references listed for a query, in the order shown. */
async function listed(query = "") {
  const result = await inbox(query);
  if (result.httpStatus !== 200 || !("rows" in result)) throw new Error(`not a list: ${JSON.stringify(result)}`);
  return result.rows.map((row) => row.reference);
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe("the inbox list", () => {
  it("pages 51 submissions as 50 and 1, newest first, ties in a stable order", async () => {
    const sameTime = minutesAgo(5);
    const stored = [];
    for (let index = 0; index < 51; index++) {
      // Ten share one timestamp, so the order rests on the id as well.
      const createdAt = index < 10 ? sameTime : minutesAgo(100 - index);
      stored.push(await insertInboxSubmission(database.db, { createdAt }));
    }
    const expected = [...stored]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map((row) => row.reference);

    const first = await inbox();
    const second = await inbox("?page=2");
    if (!("rows" in first) || !("rows" in second)) throw new Error("expected lists");
    expect(first.rows).toHaveLength(50);
    expect(first.hasNextPage).toBe(true);
    expect(second.rows).toHaveLength(1);
    expect(second.hasNextPage).toBe(false);
    expect([...first.rows, ...second.rows].map((row) => row.reference)).toEqual(expected);
    expect(await listed()).toEqual(expected.slice(0, 50));
  });

  it("narrows by type, status, spam, delivery state and dates in the company's time zone", async () => {
    const estimate = await insertInboxSubmission(database.db, { deliveryStatuses: ["delivered"] });
    const contacted = await insertInboxSubmission(database.db, { status: "Contacted", deliveryStatuses: ["failed"] });
    const spam = await insertInboxSubmission(database.db, { isSpam: true, deliveryStatuses: ["held"] });
    const application = await insertInboxSubmission(database.db, {
      type: "application",
      // 23:30 on 9 March 2025 in New York (EDT), already 10 March in UTC.
      createdAt: new Date("2025-03-10T03:30:00Z"),
    });
    const assessment = await insertInboxSubmission(database.db, {
      type: "assessment",
      payload: { answers: { "1": "Sam Tester", "2": "sam@example.com", "3": "803-555-0123" } },
      deliveryStatuses: ["pending"],
    });

    const sorted = (references: string[]) => [...references].sort();
    const refs = (...rows: { reference: string }[]) => sorted(rows.map((row) => row.reference));
    expect(sorted(await listed())).toEqual(refs(estimate, contacted, application, assessment));
    expect(sorted(await listed("?type=estimate"))).toEqual(refs(estimate, contacted));
    expect(await listed("?type=estimate&status=Contacted")).toEqual([contacted.reference]);
    expect(await listed("?status=Received")).toEqual([application.reference]);
    expect(await listed("?spam=yes")).toEqual([spam.reference]);
    expect(sorted(await listed("?spam=all"))).toEqual(refs(estimate, contacted, spam, application, assessment));
    expect(await listed("?delivery=failed")).toEqual([contacted.reference]);
    expect(await listed("?delivery=retrying")).toEqual([assessment.reference]);
    expect(await listed("?delivery=delivered")).toEqual([estimate.reference]);
    expect(await listed("?delivery=none")).toEqual([application.reference]);
    expect(await listed("?delivery=held&spam=all")).toEqual([spam.reference]);
    expect(await listed("?from=2025-03-09&to=2025-03-09")).toEqual([application.reference]);
    expect(await listed("?from=2025-03-10&to=2025-03-10")).toEqual([]);
    expect(await listed("?to=2025-03-31")).toEqual([application.reference]);
    expect(sorted(await listed("?from=2025-04-01"))).toEqual(refs(estimate, contacted, assessment));
  });

  it("searches names, emails, phones (typed with or without punctuation) and references", async () => {
    const avery = await insertInboxSubmission(database.db);
    const jordan = await insertInboxSubmission(database.db, {
      payload: estimatePayload({
        firstName: "Jordan",
        lastName: "O'Neil",
        email: "jordan.oneil@example.org",
        phone: "843.555.0142",
      }),
    });
    const percent = await insertInboxSubmission(database.db, {
      payload: estimatePayload({ firstName: "Fifty", lastName: "100% Sure", email: "x@example.net", phone: "" }),
    });

    expect(await listed("?q=VERY")).toEqual([avery.reference]);
    expect(await listed("?q=o'neil")).toEqual([jordan.reference]);
    expect(await listed("?q=jordan.oneil%40example")).toEqual([jordan.reference]);
    expect(await listed("?q=8035550199")).toEqual([avery.reference]);
    expect(await listed(`?q=${encodeURIComponent("(803) 555-0199")}`)).toEqual([avery.reference]);
    expect(await listed(`?q=${encodeURIComponent("843-555-0142")}`)).toEqual([jordan.reference]);
    expect(await listed("?q=5550142")).toEqual([jordan.reference]);
    expect(await listed(`?q=${avery.reference.toLowerCase()}`)).toEqual([avery.reference]);
    // A % typed in the search is a percent sign, not "anything".
    expect(await listed(`?q=${encodeURIComponent("0% s")}`)).toEqual([percent.reference]);
    expect(await listed(`?q=${encodeURIComponent("y%p")}`)).toEqual([]);
  });

  it("searches names without regard to accents or case, either way round", async () => {
    const named = (firstName: string, lastName: string, email: string) =>
      insertInboxSubmission(database.db, { payload: estimatePayload({ firstName, lastName, email }) });
    const nguyen = await named("Văn An", "Nguyễn", "an@example.com");
    const jose = await named("José", "Álvarez", "ja@example.com");
    const plain = await named("Jose", "Nguyen", "jn@example.com");
    const lukasz = await named("Łukasz", "Strauß", "ls@example.com");

    const sorted = (references: string[]) => [...references].sort();
    const refs = (...rows: { reference: string }[]) => sorted(rows.map((row) => row.reference));
    expect(sorted(await listed("?q=nguyen"))).toEqual(refs(nguyen, plain));
    expect(sorted(await listed(`?q=${encodeURIComponent("NGUYỄN")}`))).toEqual(refs(nguyen, plain));
    expect(sorted(await listed("?q=JOSE"))).toEqual(refs(jose, plain));
    expect(sorted(await listed(`?q=${encodeURIComponent("josé")}`))).toEqual(refs(jose, plain));
    expect(await listed("?q=alvarez")).toEqual([jose.reference]);
    expect(await listed("?q=lukasz strauss")).toEqual([lukasz.reference]);
  });

  it("searches through the trigram index, never by reading every row", async () => {
    await insertInboxSubmission(database.db);
    // A table this small would be read whole whatever the indexes; with sequential scans priced out, the plan shows
    // whether the search's expression is one the index can answer at all.
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const { rows } = await tx.execute<{ "QUERY PLAN": string }>(
        sql`EXPLAIN SELECT id FROM submissions WHERE ${inboxConditions({ spam: "all", q: "nguyen" })}`,
      );
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toContain("submissions_search_idx");
  });

  it("shows each row's delivery state from all its deliveries", async () => {
    const cases = {
      delivered: ["delivered", "delivered"],
      retrying: ["delivered", "pending"],
      failed: ["failed", "pending", "delivered"],
      held: ["held", "held"],
      none: [],
    } as const;
    const byReference = new Map<string, string>();
    for (const [state, statuses] of Object.entries(cases)) {
      const row = await insertInboxSubmission(database.db, { deliveryStatuses: [...statuses] });
      byReference.set(row.reference, state);
    }
    const sending = await insertInboxSubmission(database.db, { deliveryStatuses: ["delivered", "sending"] });
    byReference.set(sending.reference, "retrying");

    const result = await inbox("?spam=all");
    if (!("rows" in result)) throw new Error("expected a list");
    expect(new Map(result.rows.map((row) => [row.reference, row.deliveryState]))).toEqual(byReference);
  });

  it("counts the new submissions of each type, not spam, not handled", async () => {
    await insertInboxSubmission(database.db);
    await insertInboxSubmission(database.db);
    await insertInboxSubmission(database.db, { status: "Contacted" });
    await insertInboxSubmission(database.db, { isSpam: true });
    await insertInboxSubmission(database.db, { type: "application" });
    await insertInboxSubmission(database.db, { type: "application", status: "Reviewing" });
    await insertInboxSubmission(database.db, { type: "job-request", status: "Requested" });
    await insertInboxSubmission(database.db, { type: "job-request", status: "Scheduled" });

    const { newCounts } = await inbox();
    expect(newCounts.map(({ type, status, count }) => ({ type, status, count }))).toEqual([
      { type: "estimate", status: "New", count: 2 },
      { type: "application", status: "Received", count: 1 },
      { type: "assessment", status: "New", count: 0 },
      { type: "estimate-checklist", status: "Received", count: 0 },
      { type: "estimate-request", status: "Requested", count: 0 },
      { type: "job-request", status: "Requested", count: 1 },
    ]);
  });

  it("counts new submissions up to its cap, then says there are more, and pages past a thousand rows", async () => {
    await database.db.execute(sql`
      INSERT INTO submissions (reference, type, submission_key, payload, status, created_at, contact_name)
      SELECT 'EST-' || lpad(n::text, 6, '0'), 'estimate', 'cap-' || n, '{}'::jsonb, 'New',
        now() - n * interval '1 minute', 'Visitor ' || n
      FROM generate_series(1, ${NEW_COUNT_CAP + 1}) AS n`);
    await insertInboxSubmission(database.db, { type: "application" });

    const { newCounts } = await inbox();
    expect(newCounts.find((entry) => entry.type === "estimate")).toMatchObject({ count: NEW_COUNT_CAP, atLeast: true });
    expect(newCounts.find((entry) => entry.type === "application")).toMatchObject({ count: 1, atLeast: false });

    const lastPage = await inbox(`?page=${Math.ceil((NEW_COUNT_CAP + 2) / INBOX_PAGE_SIZE)}`);
    if (!("rows" in lastPage)) throw new Error("expected a list");
    expect(lastPage.rows.at(-1)?.contactName).toBe(`Visitor ${NEW_COUNT_CAP + 1}`);
    expect(lastPage.hasNextPage).toBe(false);
  });

  it.each([
    ["?type=invoice", "Choose a type from the list"],
    ["?type=estimate&status=Hired", "Choose a status of the chosen type"],
    ["?status=Pending", "Choose a status of the chosen type"],
    ["?spam=maybe", "Choose spam, not spam or both"],
    ["?delivery=lost", "Choose a delivery state from the list"],
    ["?from=2025-02-30", "The from date is not a day of the calendar"],
    ["?to=yesterday", "The to date must be a date such as 2025-03-31"],
    ["?from=2025-03-02&to=2025-03-01", "The from date must not be after the to date"],
    ["?q=ab", "Search for at least 3 characters"],
    [`?q=${"x".repeat(101)}`, "A search has at most 100 characters"],
    ["?page=0", "The page must be 1 or more"],
    ["?page=two", "The page must be a number"],
    ["?page=1.5", "The page must be a whole number"],
  ])("answers %s with 400 and the message %j", async (query, message) => {
    const result = await inbox(query);
    expect(result).toMatchObject({ httpStatus: 400, messages: expect.arrayContaining([message]) });
  });
});

describe("the CSV export", () => {
  async function download(query = "", as = cookie) {
    const response = await asStaffRoute(
      new Request(`http://localhost/admin/inbox/export.csv${query}`, { headers: { cookie: as } }),
      context,
      downloadInboxCsv,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { response, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
  }

  it("has a BOM, one column per field of the type, every matching row, and neutralised formulas", async () => {
    const hostile = await insertInboxSubmission(database.db, {
      payload: estimatePayload({
        firstName: '=HYPERLINK("http://evil.example","click")',
        lastName: "<script>alert(1)</script>",
        email: "@SUM(A1:A2)",
        phone: "+1",
        city: "-2",
        comments: 'line one\r\nline "two", with a comma',
        bestTime: "\tTab",
      }),
    });
    for (let index = 0; index < 4; index++)
      await insertInboxSubmission(database.db, { createdAt: minutesAgo(index + 1) });
    await insertInboxSubmission(database.db, { type: "application" });

    const { response, bytes, text } = await download("?type=estimate");
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="inbox-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const [header, ...rows] = parseCsv(text.slice(1));
    expect(header).toEqual([
      "Reference",
      "Type",
      "Created at",
      "Status",
      "Assignee",
      "Spam",
      "Delivery state",
      "First name",
      "Last name",
      "Email",
      "Phone",
      "City",
      "Project type",
      "Preferred form of contact",
      "Best time to reach you",
      "Comments",
    ]);
    expect(rows).toHaveLength(5);
    const row = rows.find((cells) => cells[0] === hostile.reference);
    if (!row || !header) throw new Error("the hostile row is missing");
    const cell = (label: string) => row[header.indexOf(label)];
    expect(cell("First name")).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(cell("Email")).toBe("'@SUM(A1:A2)");
    expect(cell("Phone")).toBe("'+1");
    expect(cell("City")).toBe("'-2");
    expect(cell("Best time to reach you")).toBe("'\tTab");
    expect(cell("Last name")).toBe("<script>alert(1)</script>");
    expect(cell("Comments")).toBe('line one\r\nline "two", with a comma');
    expect(cell("Type")).toBe("Estimate request");
    expect(cell("Status")).toBe("New");
    expect(cell("Spam")).toBe("No");
    expect(cell("Delivery state")).toBe("Not sent");
    expect(cell("Created at")).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("exports every page, in batches, and every type's fields when no type is chosen", async () => {
    await database.db.execute(sql`
      INSERT INTO submissions (reference, type, submission_key, payload, status, contact_name, created_at)
      SELECT 'EST-BULK' || n, 'estimate', 'bulk-' || n, jsonb_build_object('firstName', 'Bulk ' || n), 'New',
             'Bulk ' || n, now() - n * interval '1 second'
      FROM generate_series(1, 2345) AS n`);
    await insertInboxSubmission(database.db, {
      type: "assessment",
      payload: { answers: { "1": "Sam Tester", "2": "sam@example.com", "3": "803-555-0123" } },
    });

    const { text } = await download("", (await signedIn("admin")).cookie);
    const [header, ...rows] = parseCsv(text.slice(1));
    expect(rows).toHaveLength(2346);
    expect(new Set(rows.map((row) => row[0])).size).toBe(2346);
    expect(header).toEqual(expect.arrayContaining(["First name", "Comments", "Desired role", "Score"]));
    expect(new Set(header).size).toBe(header?.length);
    expect(rows.every((row) => row.length === header?.length)).toBe(true);
  });

  it("quotes a cell holding a semicolon and neutralises formulas behind blank space or in full-width form", async () => {
    const hostile = await insertInboxSubmission(database.db, {
      payload: estimatePayload({
        firstName: 'Sam;=HYPERLINK("http://evil.example")',
        lastName: "  =1+1",
        email: "\uFF1DSUM(A1)",
        comments: "\n@cmd",
      }),
    });
    const { text } = await download("?type=estimate");
    const line = text.split("\r\n").find((row) => row.startsWith(hostile.reference));
    // As a semicolon-locale Excel reads it: split at semicolons outside quotes, no piece may start a formula.
    expect(line).toContain('"Sam;=HYPERLINK(""http://evil.example"")"');
    const [header, ...rows] = parseCsv(text.slice(1));
    const row = rows.find((cells) => cells[0] === hostile.reference);
    if (!row || !header) throw new Error("the hostile row is missing");
    const cell = (label: string) => row[header.indexOf(label)];
    expect(cell("Last name")).toBe("'  =1+1");
    expect(cell("Email")).toBe("'\uFF1DSUM(A1)");
    expect(cell("Comments")).toBe("'\n@cmd");
  });

  it("leaves applicant data out of a staff user's export, says so, and records every export with its user", async () => {
    await insertInboxSubmission(database.db, { type: "estimate" });
    await insertInboxSubmission(database.db, { type: "application" });
    await insertInboxSubmission(database.db, { type: "assessment", payload: { answers: {} } });
    const types = async (csv: string) =>
      parseCsv(csv.slice(1))
        .slice(1)
        .map((row) => row[1]);

    expect(await types((await download()).text)).toEqual(["Estimate request"]);
    const staffView = await inbox();
    expect(staffView).toMatchObject({ notExported: ["Job application", "Skills assessment"] });

    const { user: admin, cookie: adminCookie } = await signedIn("admin");
    expect((await types((await download("?delivery=none", adminCookie)).text)).sort()).toEqual([
      "Estimate request",
      "Job application",
      "Skills assessment",
    ]);

    const records = await database.db.query.inboxExports.findMany({ orderBy: (t, { desc }) => desc(t.id), limit: 2 });
    expect(records).toEqual([
      expect.objectContaining({
        staffUserId: admin.id,
        username: admin.username,
        query: "?delivery",
        leftOutTypes: [],
        rowCount: 3,
      }),
      expect.objectContaining({
        query: "",
        leftOutTypes: expect.arrayContaining(["application", "assessment"]),
        rowCount: 1,
      }),
    ]);
  });

  it("refuses a bad filter with 400 and a message", async () => {
    const { response, text } = await download("?type=invoice");
    expect(response.status).toBe(400);
    expect(text).toContain("Choose a type from the list");
  });
});

describe("the dashboard alerts", () => {
  it("warn of failed deliveries and of new estimate requests left longer than INBOX_ALERT_AFTER", async () => {
    const config = { INBOX_ALERT_AFTER: 2 * 3_600_000 };
    expect(await loadInboxAlerts(database.db, config)).toEqual([]);

    await insertInboxSubmission(database.db, { createdAt: minutesAgo(60) });
    await insertInboxSubmission(database.db, { createdAt: minutesAgo(180), status: "Contacted" });
    await insertInboxSubmission(database.db, { createdAt: minutesAgo(180), isSpam: true });
    await insertInboxSubmission(database.db, { type: "application", createdAt: minutesAgo(600) });
    expect(await loadInboxAlerts(database.db, config)).toEqual([]);

    await insertInboxSubmission(database.db, { createdAt: minutesAgo(180) });
    await insertInboxSubmission(database.db, { deliveryStatuses: ["failed", "failed", "delivered"] });
    expect(await loadInboxAlerts(database.db, config)).toEqual([
      {
        message: "Failed deliveries: 2 webhooks.",
        linkText: "See the submissions with a failed delivery",
        href: "/admin/inbox?delivery=failed",
        acknowledge: expect.any(String),
      },
      {
        message: "1 new estimate request has waited more than 2 hours.",
        linkText: "See the new estimate requests",
        href: "/admin/inbox?type=estimate&status=New",
      },
    ]);
  });

  it("count what is held as spam, for the dashboard's link to it", async () => {
    const before = await countHeldSpam(database.db);
    await insertInboxSubmission(database.db, { isSpam: true });
    await insertInboxSubmission(database.db, { isSpam: false });
    expect(await countHeldSpam(database.db)).toBe(before + 1);
  });
});
