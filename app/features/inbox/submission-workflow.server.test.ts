import { eq } from "drizzle-orm";
import type { AppLoadContext, UNSAFE_DataWithResponseInit } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertInboxSubmission, signedInRequest, storeApplication, storeEstimate } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { setStaffDisplayName, setStaffUserActive } from "~/services/auth/staff-users.server";
import { submissionEvents, submissions } from "~/services/db/schema.server";
import { formatStaffTime } from "~/services/format-staff-time.server";
import { NOTE_MAX_LENGTH } from "./note-limits";
import { loadSubmissionPage, type SubmissionActionResult, submissionPageAction } from "./submission-page.server";

let database: TestDatabase;
let context: AppLoadContext;
let staff: Awaited<ReturnType<typeof addStaffUser>>;

beforeAll(async () => {
  database = await createTestDatabase();
  context = loadContextFor(database.db);
  staff = await addStaffUser(database.db, "staff");
});
afterAll(() => database.drop());

async function post(submissionId: number, form: Record<string, string>) {
  const request = await signedInRequest(context, staff.id, `/admin/inbox/${submissionId}`, { form });
  const result = (await submissionPageAction(
    request,
    context,
    String(submissionId),
  )) as UNSAFE_DataWithResponseInit<SubmissionActionResult>;
  return { ...result.data, httpStatus: result.init?.status };
}

async function detail(submissionId: number, path = `/admin/inbox/${submissionId}`) {
  const request = await signedInRequest(context, staff.id, path);
  return loadSubmissionPage(request, context, String(submissionId));
}

const eventsOf = (submissionId: number) =>
  database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, submissionId));

describe("the status", () => {
  it("moves along its type's workflow, with an event naming who, from and to", async () => {
    const { id } = await storeEstimate(database.db);
    const before = (await detail(id)).submission;
    expect(before.status).toBe("New");

    expect(await post(id, { intent: "triage", status: "Contacted" })).toMatchObject({
      httpStatus: 200,
      message: "Status set to Contacted.",
    });
    const after = (await detail(id)).submission;
    expect(after.status).toBe("Contacted");
    const [stored] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(after.statusSince).toBe(formatStaffTime(stored?.statusChangedAt ?? null));
    expect(await eventsOf(id)).toEqual([
      expect.objectContaining({ kind: "status", actorId: staff.id, fromValue: "New", toValue: "Contacted" }),
    ]);
  });

  it("refuses a status its type does not have with a 400 and a clear message, changing nothing", async () => {
    const { id } = await storeEstimate(database.db);
    const result = await post(id, { intent: "triage", status: "Hired" });
    expect(result).toMatchObject({
      httpStatus: 400,
      message: '"Hired" is not a status of this estimate request: New, Contacted, Scheduled, Won, Lost, Archived.',
    });
    const application = await storeApplication(database.db);
    expect(await post(application.id, { intent: "triage", status: "Won" })).toMatchObject({ httpStatus: 400 });
    expect(await post(application.id, { intent: "triage", status: "Rejected" })).toMatchObject({ httpStatus: 200 });
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row?.status).toBe("New");
    expect(await eventsOf(id)).toEqual([]);
  });

  it("gives a 404 for a submission that does not exist", async () => {
    await expect(post(999_999, { intent: "triage", status: "Won" })).rejects.toMatchObject({
      init: { status: 404 },
    });
    await expect(detail(999_999)).rejects.toMatchObject({ init: { status: 404 } });
  });
});

describe("the assignee", () => {
  it("is set to a staff user and cleared, each change in the history", async () => {
    const { id } = await storeEstimate(database.db);
    const other = await addStaffUser(database.db, "staff");
    expect(await post(id, { intent: "triage", assigneeId: String(other.id) })).toMatchObject({ httpStatus: 200 });
    expect((await detail(id)).submission).toMatchObject({ assigneeId: other.id, assigneeName: other.username });
    expect(await post(id, { intent: "triage", assigneeId: "" })).toMatchObject({
      httpStatus: 200,
      message: "The assignee was cleared.",
    });
    expect((await detail(id)).submission.assigneeId).toBeNull();
    expect(await eventsOf(id)).toEqual([
      expect.objectContaining({ kind: "assignee", fromValue: null, toValue: other.username }),
      expect.objectContaining({ kind: "assignee", fromValue: other.username, toValue: null }),
    ]);
  });

  it("refuses an unknown or deactivated user, and a value that is not an id, with a 400", async () => {
    const { id } = await storeEstimate(database.db);
    const gone = await addStaffUser(database.db, "staff");
    await setStaffUserActive(database.db, gone.id, false);
    for (const assigneeId of ["987654", String(gone.id), "someone", "-1"]) {
      const result = await post(id, { intent: "triage", assigneeId });
      expect(result.httpStatus, assigneeId).toBe(400);
      expect(result.message, assigneeId).toMatch(/staff user/);
    }
    expect(await eventsOf(id)).toEqual([]);
  });
});

describe("notes", () => {
  it("are kept with their author and time, as typed, and noted in the history", async () => {
    const { id } = await storeEstimate(database.db);
    const body = "Called back <b>twice</b>;\nno answer.";
    expect(await post(id, { intent: "triage", note: body })).toMatchObject({ httpStatus: 200, message: "Note added." });
    const page = await detail(id);
    expect(page.notes).toEqual([expect.objectContaining({ body, author: staff.username })]);
    expect(page.notes[0]?.written).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);
    expect(page.events).toEqual([expect.objectContaining({ kind: "note", actor: staff.username })]);
  });

  it("refuse an empty note and one over the maximum length with a 400", async () => {
    const { id } = await storeEstimate(database.db);
    expect(await post(id, { intent: "triage", note: "   " })).toMatchObject({
      httpStatus: 400,
      message: "Nothing to save: choose another status or assignee, or write a note.",
    });
    expect(await post(id, { intent: "triage", note: "x".repeat(NOTE_MAX_LENGTH + 1) })).toMatchObject({
      httpStatus: 400,
      message: "A note has at most 5,000 characters.",
    });
    expect((await detail(id)).notes).toEqual([]);
  });
});

describe("the triage form", () => {
  it("saves status, assignee and a note in one press, naming people by their display names", async () => {
    const { id } = await storeEstimate(database.db);
    const other = await addStaffUser(database.db, "staff");
    await setStaffDisplayName(database.db, other.id, "Dana Reyes");
    await setStaffDisplayName(database.db, staff.id, "Sam Carter");
    const form = { intent: "triage", status: "Contacted", assigneeId: String(other.id), note: "Site visit Tuesday." };
    expect(await post(id, form)).toMatchObject({
      httpStatus: 200,
      message: "Status set to Contacted. Assigned to Dana Reyes. Note added.",
    });
    const page = await detail(id);
    expect(page.submission).toMatchObject({ status: "Contacted", assigneeName: "Dana Reyes" });
    expect(page.notes).toEqual([expect.objectContaining({ body: "Site visit Tuesday.", author: "Sam Carter" })]);
    expect(page.events.map(({ actor, says }) => `${actor} ${says}`)).toEqual([
      "Sam Carter changed the status from New to Contacted",
      "Sam Carter changed the assignee from no one to Dana Reyes",
      "Sam Carter added a note",
    ]);
    expect(page.assignableStaff).toContainEqual({ id: other.id, name: "Dana Reyes" });
    // The same choices again with no note: nothing to save, and nothing recorded.
    expect(await post(id, { ...form, note: "" })).toMatchObject({ httpStatus: 400 });
    expect(await eventsOf(id)).toHaveLength(3);
    await setStaffDisplayName(database.db, staff.id, staff.username);
  });

  it("changes nothing at all when one part is refused", async () => {
    const { id } = await storeEstimate(database.db);
    const other = await addStaffUser(database.db, "staff");
    const result = await post(id, { intent: "triage", status: "Hired", assigneeId: String(other.id), note: "x" });
    expect(result.httpStatus).toBe(400);
    const page = await detail(id);
    expect(page.submission).toMatchObject({ status: "New", assigneeId: null });
    expect(page.notes).toEqual([]);
    expect(await eventsOf(id)).toEqual([]);
  });
});

describe("Back to the inbox", () => {
  it("returns to the inbox's search, filters and page, and nowhere else", async () => {
    const { id } = await storeEstimate(database.db);
    const backTo = async (query: string) => (await detail(id, `/admin/inbox/${id}${query}`)).backTo;
    expect(await backTo("?q=Reyes&type=estimate&page=2")).toBe("/admin/inbox?type=estimate&q=Reyes&page=2#results");
    expect(await backTo("")).toBe("/admin/inbox");
    expect(await backTo("?page=0")).toBe("/admin/inbox");
    expect(await backTo("?redirectTo=https://evil.example/&q=//evil.example")).toBe(
      "/admin/inbox?q=%2F%2Fevil.example#results",
    );
  });
});

describe("the deliveries", () => {
  it("read in plain words for staff, with the setting, id and attempts for admins only", async () => {
    const admin = await addStaffUser(database.db, "admin");
    const { id } = await insertInboxSubmission(database.db, { deliveryStatuses: ["failed"] });
    const forStaff = await detail(id);
    expect(forStaff.deliveries).toEqual([
      expect.objectContaining({
        inWords: "Failed: it was not sent to the target 0 webhook, and will not be tried again by itself.",
        details: null,
      }),
    ]);
    expect(JSON.stringify(forStaff)).not.toMatch(/WEBHOOK_|webhookId|attemptCount/);
    const request = await signedInRequest(context, admin.id, `/admin/inbox/${id}`);
    const forAdmin = await loadSubmissionPage(request, context, String(id));
    expect(forAdmin.deliveries[0]?.details).toMatchObject({ target: "WEBHOOK_TARGET_0" });
  });

  it("say which webhook is not set up when nothing was sent", async () => {
    const { id } = await storeEstimate(database.db, { deliveries: [] });
    expect((await detail(id)).notSentTo).toContain(
      "Not sent: the estimate webhook is not set up. An admin can set it up.",
    );
  });
});

describe("the detail", () => {
  it("shows every field with the form's label, and an unknown type's raw keys", async () => {
    const { id } = await storeEstimate(database.db);
    const page = await detail(id);
    expect(page.submission.typeLabel).toBe("Estimate request");
    expect(page.fields).toContainEqual({ label: "Best time to reach you", value: "Morning" });
    const [legacy] = await database.db
      .insert(submissions)
      .values({
        reference: "OLD-000001",
        type: "retired-form",
        submissionKey: "k",
        payload: { colour: "green", n: 3 },
        status: "New",
      })
      .returning();
    if (!legacy) throw new Error("not stored");
    expect((await detail(legacy.id)).fields).toEqual(
      expect.arrayContaining([
        { label: "colour", value: "green" },
        { label: "n", value: "3" },
      ]),
    );
  });

  it("answers an unknown action with a 400", async () => {
    const { id } = await storeEstimate(database.db);
    expect(await post(id, { intent: "delete-everything" })).toMatchObject({
      httpStatus: 400,
      message: "Unknown action.",
    });
  });
});
