import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContextFor, TEST_DATA_ENCRYPTION_KEY } from "#tests/load-context";
import { addStaffUser, cookieFrom } from "#tests/staff";
import { createTestDatabase, type TestDatabase } from "#tests/test-database";
import { setSecondFactorRequired } from "../settings.server";
import { signedInStaff, signInStaff, TWO_FACTOR_PATH } from "./require-staff.server";
import { enableTotp } from "./second-factor.server";
import { startSession } from "./sessions.server";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function signedInRequest(path: string, userId: number) {
  const context = loadContextFor(database.db);
  const cookie = cookieFrom(await startSession(database.db, context.config, { userId, secondFactorPending: false }));
  return { request: new Request(`http://localhost${path}`, { headers: { cookie } }), context };
}

/** The staff middleware's work, then the user a loader reads: what each loader once did itself. */
async function requireStaff(
  request: Request,
  context: ReturnType<typeof loadContextFor>,
  options: Parameters<typeof signedInStaff>[1] = {},
) {
  await signInStaff(request, context);
  return signedInStaff(context, options);
}

describe("the staff middleware", () => {
  it("lets a staff user in and keeps them out of admin pages with 403", async () => {
    const staff = await addStaffUser(database.db, "staff");
    const { request, context } = await signedInRequest("/admin/staff", staff.id);
    expect((await requireStaff(request, context)).username).toBe(staff.username);
    await expect(requireStaff(request, context, { role: "admin" })).rejects.toMatchObject({ init: { status: 403 } });
  });

  it("sends a user without a second factor to set one up once an admin requires it, and nowhere else", async () => {
    const staff = await addStaffUser(database.db, "staff");
    const enrolled = await addStaffUser(database.db, "staff");
    await enableTotp(database.db, TEST_DATA_ENCRYPTION_KEY, enrolled.id, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", null);
    await setSecondFactorRequired(database.db, true);
    try {
      const { request, context } = await signedInRequest("/admin/quick-links", staff.id);
      const redirect = await requireStaff(request, context).catch((thrown: Response) => thrown);
      expect(redirect).toBeInstanceOf(Response);
      expect((redirect as Response).headers.get("location")).toBe(TWO_FACTOR_PATH);

      const enrolment = await signedInRequest(TWO_FACTOR_PATH, staff.id);
      expect((await requireStaff(enrolment.request, enrolment.context)).id).toBe(staff.id);

      const done = await signedInRequest("/admin/quick-links", enrolled.id);
      expect((await requireStaff(done.request, done.context)).id).toBe(enrolled.id);
    } finally {
      await setSecondFactorRequired(database.db, false);
    }
  });
});
