import { eq } from "drizzle-orm";
import type { AppLoadContext, UNSAFE_DataWithResponseInit } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInRequest, storeApplication, storeEstimate } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { setStaffUserActive } from "~/server/auth/staff-users.server";
import { submissionEvents, submissions } from "~/server/db/schema.server";
import { formatStaffTime } from "~/server/format-staff-time.server";
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

async function detail(submissionId: number) {
  await signedInRequest(context, staff.id, `/admin/inbox/${submissionId}`);
  return loadSubmissionPage(context, String(submissionId));
}

const eventsOf = (submissionId: number) =>
  database.db.select().from(submissionEvents).where(eq(submissionEvents.submissionId, submissionId));

describe("the status", () => {
  it("moves along its type's workflow, with an event naming who, from and to", async () => {
    const { id } = await storeEstimate(database.db);
    const before = (await detail(id)).submission;
    expect(before.status).toBe("New");

    expect(await post(id, { intent: "status", status: "Contacted" })).toMatchObject({
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
    const result = await post(id, { intent: "status", status: "Hired" });
    expect(result).toMatchObject({
      httpStatus: 400,
      message: '"Hired" is not a status of this estimate request: New, Contacted, Scheduled, Won, Lost, Archived.',
    });
    const application = await storeApplication(database.db);
    expect(await post(application.id, { intent: "status", status: "Won" })).toMatchObject({ httpStatus: 400 });
    expect(await post(application.id, { intent: "status", status: "Rejected" })).toMatchObject({ httpStatus: 200 });
    const [row] = await database.db.select().from(submissions).where(eq(submissions.id, id));
    expect(row?.status).toBe("New");
    expect(await eventsOf(id)).toEqual([]);
  });

  it("gives a 404 for a submission that does not exist", async () => {
    await expect(post(999_999, { intent: "status", status: "Won" })).rejects.toMatchObject({
      init: { status: 404 },
    });
    await expect(detail(999_999)).rejects.toMatchObject({ init: { status: 404 } });
  });
});

describe("the assignee", () => {
  it("is set to a staff user and cleared, each change in the history", async () => {
    const { id } = await storeEstimate(database.db);
    const other = await addStaffUser(database.db, "staff");
    expect(await post(id, { intent: "assignee", assigneeId: String(other.id) })).toMatchObject({ httpStatus: 200 });
    expect((await detail(id)).submission).toMatchObject({ assigneeId: other.id, assigneeUsername: other.username });
    expect(await post(id, { intent: "assignee", assigneeId: "" })).toMatchObject({
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
      const result = await post(id, { intent: "assignee", assigneeId });
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
    expect(await post(id, { intent: "note", body })).toMatchObject({ httpStatus: 200, message: "Note added." });
    const page = await detail(id);
    expect(page.notes).toEqual([expect.objectContaining({ body, author: staff.username })]);
    expect(page.notes[0]?.written).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);
    expect(page.events).toEqual([expect.objectContaining({ kind: "note", actor: staff.username })]);
  });

  it("refuse an empty note and one over the maximum length with a 400", async () => {
    const { id } = await storeEstimate(database.db);
    expect(await post(id, { intent: "note", body: "   " })).toMatchObject({ httpStatus: 400 });
    expect(await post(id, { intent: "note", body: "x".repeat(NOTE_MAX_LENGTH + 1) })).toMatchObject({
      httpStatus: 400,
      message: "A note has at most 5,000 characters.",
    });
    expect((await detail(id)).notes).toEqual([]);
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
