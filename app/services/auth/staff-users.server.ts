import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { type StaffRole, staffUsers } from "../db/schema.server";
import { hashPassword } from "./password.server";
import { signOutEverywhere } from "./sessions.server";

type Executor = Pick<Database, "insert" | "select" | "update">;

export const normaliseUsername = (username: string) => username.trim().toLowerCase();

export class UsernameTakenError extends Error {
  override name = "UsernameTakenError";
}

/** Without a display name given, the account shows its username until an admin sets one. */
export async function createStaffUser(
  db: Executor,
  details: { username: string; password: string; role: StaffRole; displayName?: string },
): Promise<{ id: number; username: string; displayName: string }> {
  const username = normaliseUsername(details.username);
  const displayName = details.displayName?.trim() || username;
  const [created] = await db
    .insert(staffUsers)
    .values({ username, displayName, passwordHash: await hashPassword(details.password), role: details.role })
    .onConflictDoNothing({ target: staffUsers.username })
    .returning({ id: staffUsers.id, username: staffUsers.username, displayName: staffUsers.displayName });
  if (!created) throw new UsernameTakenError(`The username ${username} is taken`);
  return created;
}

export async function findStaffUserByUsername(db: Database, username: string) {
  const [user] = await db
    .select()
    .from(staffUsers)
    .where(eq(staffUsers.username, normaliseUsername(username)));
  return user;
}

export async function findStaffUserById(db: Database, id: number) {
  const [user] = await db.select().from(staffUsers).where(eq(staffUsers.id, id));
  return user;
}

export function listStaffUsers(db: Database) {
  return db
    .select({
      id: staffUsers.id,
      username: staffUsers.username,
      displayName: staffUsers.displayName,
      role: staffUsers.role,
      isActive: staffUsers.isActive,
      hasSecondFactor: staffUsers.totpSecret,
      lastSignedInAt: staffUsers.lastSignedInAt,
      createdAt: staffUsers.createdAt,
    })
    .from(staffUsers)
    .orderBy(asc(staffUsers.username))
    .then((rows) => rows.map((row) => ({ ...row, hasSecondFactor: row.hasSecondFactor !== null })));
}

export async function setStaffDisplayName(db: Database, userId: number, displayName: string): Promise<void> {
  await db.update(staffUsers).set({ displayName: displayName.trim() }).where(eq(staffUsers.id, userId));
}

/** Sets a new password and signs the user out everywhere: whoever knew the old one is out too. */
export async function resetStaffPassword(db: Database, userId: number, password: string): Promise<void> {
  await db
    .update(staffUsers)
    .set({ passwordHash: await hashPassword(password), passwordChangedAt: new Date() })
    .where(eq(staffUsers.id, userId));
  await signOutEverywhere(db, userId);
}

/** A deactivated user cannot sign in and is signed out at once; the account and its history stay. */
export async function setStaffUserActive(db: Database, userId: number, active: boolean): Promise<void> {
  await db.update(staffUsers).set({ isActive: active }).where(eq(staffUsers.id, userId));
  if (!active) await signOutEverywhere(db, userId);
}

export async function recordSignIn(db: Database, userId: number): Promise<void> {
  await db.update(staffUsers).set({ lastSignedInAt: new Date() }).where(eq(staffUsers.id, userId));
}
