import { describe, expect, it } from "vitest";
import { estimatePayload, insertInboxSubmission } from "#tests/inbox-fixture";
import { addStaffUser } from "#tests/staff";
import { staffTestDatabaseForFile } from "#tests/staff-test-database";
import { loadLeadsWaitingOn } from "./lead-response.server";

const state = staffTestDatabaseForFile();
const HOUR = 3_600_000;
const NOW = new Date("2026-11-04T15:00:00Z");

describe("the leads waiting on a staff member, for Quick Links", () => {
  it("lists theirs first, then those assigned to no one, the longest waiting first; never another's, an answered one or spam", async () => {
    const db = state.database.db;
    const me = state.actorId;
    const other = (await addStaffUser(db)).id;
    const lead = (name: string, hoursAgo: number, more: Parameters<typeof insertInboxSubmission>[1] = {}) =>
      insertInboxSubmission(db, {
        payload: estimatePayload({ firstName: name, lastName: "Lead" }),
        createdAt: new Date(NOW.getTime() - hoursAgo * HOUR),
        ...more,
      });
    await lead("Unassigned", 30);
    await lead("Mine", 2, { assigneeId: me });
    await lead("Older mine", 5, { assigneeId: me });
    await lead("Others", 40, { assigneeId: other });
    await lead("Answered", 50, { assigneeId: me, status: "Contacted" });
    await lead("Spam", 60, { isSpam: true });
    await insertInboxSubmission(db, { type: "application", createdAt: new Date(NOW.getTime() - 70 * HOUR) });

    const waiting = await loadLeadsWaitingOn(db, me, NOW);
    expect(waiting.leads.map(({ name, assignedToYou, waited }) => ({ name, assignedToYou, waited }))).toEqual([
      { name: "Older mine Lead", assignedToYou: true, waited: "5 h" },
      { name: "Mine Lead", assignedToYou: true, waited: "2 h" },
    ]);
    expect(waiting.leads[0]?.phone).toBe("(803) 555-0199");
    expect(waiting.newLeads).toBe(4);
    expect(waiting.href).toBe("/admin/inbox?type=estimate&status=New");

    const someoneElse = await loadLeadsWaitingOn(db, (await addStaffUser(db)).id, NOW);
    expect(someoneElse.leads.map(({ name }) => name)).toEqual(["Unassigned Lead"]);
  });
});
