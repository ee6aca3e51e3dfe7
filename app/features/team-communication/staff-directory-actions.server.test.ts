import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInRequest } from "#tests/inbox-fixture";
import { loadContextFor } from "#tests/load-context";
import { addStaffUser } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { loadTechnicianOptions } from "./load-technicians.server";
import { addDirectoryEntry, duplicateProblemOf } from "./staff-directory.server";
import { loadStaffDirectory, staffDirectoryAction } from "./staff-directory-actions.server";

let database: TestDatabase;
let adminId: number;
let staffId: number;
beforeAll(async () => {
  database = await createTestDatabase();
  adminId = (await addStaffUser(database.db, "admin")).id;
  staffId = (await addStaffUser(database.db, "staff")).id;
});
afterAll(() => database.drop());

const PATH = "/admin/staff-directory";
let sharedContext: ReturnType<typeof loadContextFor> | undefined;
/** One context, as one server's: each signed-in request puts its user in it before the handler reads it. */
const context = () => {
  sharedContext ??= loadContextFor(database.db);
  return sharedContext;
};
const act = async (userId: number, form: Record<string, string>) =>
  staffDirectoryAction(await signedInRequest(context(), userId, PATH, { form }), context());

describe("the staff directory", () => {
  it("lets an admin add, edit, deactivate and reactivate people, and the message screen offers the active ones", async () => {
    const added = await act(adminId, {
      intent: "add",
      name: "Ana Ruiz",
      email: "ana@example.com",
      mobile: "(803) 555-0151",
    });
    expect(added.data).toMatchObject({ status: "success", message: "Ana Ruiz was added." });
    await act(adminId, { intent: "add", name: "Ben Okafor", mobile: "803-555-0152" });
    const { entries } = await signedInRequest(context(), adminId, PATH).then(() => loadStaffDirectory(context()));
    const ana = entries.find((entry) => entry.name === "Ana Ruiz");
    const ben = entries.find((entry) => entry.name === "Ben Okafor");
    expect(ben).toMatchObject({ email: "", mobile: "803-555-0152", isActive: true, mobileUnreadable: false });

    const saved = await act(adminId, {
      intent: "save",
      entryId: String(ana?.id),
      name: "Ana Ruiz-Diaz",
      email: "ana@example.com",
      mobile: "",
    });
    expect(saved.data).toMatchObject({ status: "success", entryId: ana?.id });
    await act(adminId, { intent: "deactivate", entryId: String(ben?.id) });

    const options = await loadTechnicianOptions(context());
    expect(options.technicians).toEqual([{ id: ana?.id, name: "Ana Ruiz-Diaz", canEmail: true, canText: false }]);

    await act(adminId, { intent: "reactivate", entryId: String(ben?.id) });
    const again = await loadTechnicianOptions(context());
    expect(again.technicians.map((technician) => technician.name)).toEqual(["Ana Ruiz-Diaz", "Ben Okafor"]);
  });

  it("refuses a mobile number it cannot text, a bad email and a missing name with 400 and what to fix", async () => {
    const answer = await act(adminId, { intent: "add", name: "", email: "not-an-email", mobile: "call the office" });
    expect(answer.init?.status).toBe(400);
    expect(answer.data).toMatchObject({
      status: "error",
      problems: { name: "Enter a name.", email: "Enter an email address such as name@example.com." },
    });
    const mobile = await act(adminId, { intent: "add", name: "Cy", mobile: "call the office" });
    expect(mobile.data).toMatchObject({
      problems: { mobile: expect.stringContaining("Enter a mobile number we can text") },
    });
    const unknown = await act(adminId, { intent: "save", entryId: "999999", name: "Nobody" });
    expect(unknown.init?.status).toBe(404);
  });

  it("refuses a second active person with the same email or mobile, beside the field, keeping what was typed", async () => {
    const dee = await act(adminId, {
      intent: "add",
      name: "Dee Park",
      email: "Dee@Example.com",
      mobile: "(803) 555-0160",
    });
    expect(dee.data).toMatchObject({ status: "success" });

    const typed = { intent: "add", name: "Dee Two", email: "dee@example.COM", mobile: "+1 803-555-0160" };
    const both = await act(adminId, typed);
    expect(both.init?.status).toBe(400);
    expect(both.data).toMatchObject({
      status: "error",
      problems: {
        email: "Another person in the directory already has this email.",
        mobile: "Another person in the directory already has this mobile number.",
      },
      values: { name: "Dee Two", email: "dee@example.COM", mobile: "+1 803-555-0160" },
    });
    const other = await act(adminId, { intent: "add", name: "Eli Moss", email: "eli@example.com" });
    expect(other.data).toMatchObject({ status: "success" });
    const { entries } = await signedInRequest(context(), adminId, PATH).then(() => loadStaffDirectory(context()));
    const deeId = entries.find((entry) => entry.name === "Dee Park")?.id;
    const eliId = entries.find((entry) => entry.name === "Eli Moss")?.id;
    const edited = await act(adminId, {
      intent: "save",
      entryId: String(eliId),
      name: "Eli Moss",
      email: "eli@example.com",
      mobile: "803.555.0160",
    });
    expect(edited.data).toMatchObject({ problems: { mobile: expect.stringContaining("this mobile number") } });
    // Saving Dee as she is clashes with nobody: she is not compared with herself.
    const same = await act(adminId, { ...typed, intent: "save", entryId: String(deeId), name: "Dee Park" });
    expect(same.data).toMatchObject({ status: "success" });

    // A deactivated person's address is free for someone else; she comes back only once it is free again.
    await act(adminId, { intent: "deactivate", entryId: String(deeId) });
    expect((await act(adminId, typed)).data).toMatchObject({ status: "success" });
    const back = await act(adminId, { intent: "reactivate", entryId: String(deeId) });
    expect(back.init?.status).toBe(409);
    expect(back.data).toMatchObject({ status: "error", message: expect.stringContaining("already has this email") });
  });

  it("holds the rule in the database too, over the email in any case and the mobile as E.164", async () => {
    await addDirectoryEntry(database.db, { name: "Flo", email: "flo@example.com", mobile: "803-555-0170" });
    const emailClash = await addDirectoryEntry(database.db, {
      name: "F2",
      email: "FLO@example.com",
      mobile: null,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(duplicateProblemOf(emailClash)).toEqual({
      email: "Another person in the directory already has this email.",
    });
    const mobileClash = await addDirectoryEntry(database.db, { name: "F3", email: null, mobile: "(803) 5550170" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(duplicateProblemOf(mobileClash)).toEqual({
      mobile: "Another person in the directory already has this mobile number.",
    });
  });

  it("is for admins: a staff user gets 403", async () => {
    await expect(act(staffId, { intent: "add", name: "Mallory" })).rejects.toMatchObject({ init: { status: 403 } });
    await expect(
      signedInRequest(context(), staffId, PATH).then(() => loadStaffDirectory(context())),
    ).rejects.toMatchObject({
      init: { status: 403 },
    });
  });
});
