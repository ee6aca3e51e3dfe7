import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Database } from "~/services/db/database.server";
import { staffDirectory } from "~/services/db/schema.server";
import { readMobileNumber } from "./mobile-number.server";
import { type Technician, technicianFrom } from "./technician-record.server";

export type DirectoryEntry = typeof staffDirectory.$inferSelect;
export type DirectoryDetails = { name: string; email: string | null; mobile: string | null };

/** Every entry, active first, by name: what the directory screen lists. */
export function listDirectoryEntries(db: Database): Promise<DirectoryEntry[]> {
  return db
    .select()
    .from(staffDirectory)
    .orderBy(sql`${staffDirectory.isActive} DESC`, asc(staffDirectory.name), asc(staffDirectory.id));
}

/** The active entries as technicians: the people Team Communication offers without ServiceTitan. */
export async function directoryTechnicians(db: Database): Promise<Technician[]> {
  const entries = await db
    .select()
    .from(staffDirectory)
    .where(eq(staffDirectory.isActive, true))
    .orderBy(asc(staffDirectory.name), asc(staffDirectory.id));
  return entries.map((entry) =>
    technicianFrom({ id: entry.id, name: entry.name, email: entry.email, phone: entry.mobile }),
  );
}

export const DUPLICATE_EMAIL = "Another person in the directory already has this email.";
export const DUPLICATE_MOBILE = "Another person in the directory already has this mobile number.";

/** An entry's email and mobile as the directory compares them: the email in lower case, the mobile as E.164. */
function comparedValues(details: Pick<DirectoryDetails, "email" | "mobile">) {
  const mobile = details.mobile === null ? undefined : readMobileNumber(details.mobile);
  return {
    emailLowerCase: details.email?.toLowerCase() ?? null,
    mobileE164: mobile !== undefined && "e164" in mobile ? mobile.e164 : null,
  };
}

/**
 * The fields of these details that another active entry already has, with what to show beside each. Every
 * active entry is compared, those stored before the unique indexes too (a directory is a few dozen people).
 */
export async function duplicateProblems(
  db: Database,
  details: Pick<DirectoryDetails, "email" | "mobile">,
  exceptId?: number,
): Promise<Record<string, string>> {
  const own = comparedValues(details);
  if (own.emailLowerCase === null && own.mobileE164 === null) return {};
  const others = await db
    .select({ email: staffDirectory.email, mobile: staffDirectory.mobile })
    .from(staffDirectory)
    .where(
      and(eq(staffDirectory.isActive, true), exceptId === undefined ? undefined : ne(staffDirectory.id, exceptId)),
    );
  const problems: Record<string, string> = {};
  for (const other of others) {
    const theirs = comparedValues(other);
    if (own.emailLowerCase !== null && theirs.emailLowerCase === own.emailLowerCase) problems.email = DUPLICATE_EMAIL;
    if (own.mobileE164 !== null && theirs.mobileE164 === own.mobileE164) problems.mobile = DUPLICATE_MOBILE;
  }
  return problems;
}

/**
 * The problem to show when a write broke one of the directory's unique indexes (another admin stored the same
 * email or mobile a moment before); undefined for any other error.
 */
export function duplicateProblemOf(error: unknown): Record<string, string> | undefined {
  // drizzle wraps the driver's error; PostgreSQL's code and constraint are on the cause.
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const { code, constraint } = (cause ?? {}) as { code?: unknown; constraint?: unknown };
  if (code !== "23505") return undefined;
  if (constraint === "staff_directory_active_email_unique") return { email: DUPLICATE_EMAIL };
  if (constraint === "staff_directory_active_mobile_unique") return { mobile: DUPLICATE_MOBILE };
  return undefined;
}

export async function addDirectoryEntry(db: Database, details: DirectoryDetails): Promise<DirectoryEntry> {
  const [entry] = await db
    .insert(staffDirectory)
    .values({ ...details, ...comparedValues(details) })
    .returning();
  if (!entry) throw new Error("the directory entry was not stored");
  return entry;
}

/** Changes an entry; false when there is no such entry. */
export async function updateDirectoryEntry(db: Database, id: number, details: DirectoryDetails): Promise<boolean> {
  const updated = await db
    .update(staffDirectory)
    .set({ ...details, ...comparedValues(details), updatedAt: sql`now()` })
    .where(eq(staffDirectory.id, id))
    .returning({ id: staffDirectory.id });
  return updated.length > 0;
}

/** One entry, or undefined when there is no such entry. */
export async function findDirectoryEntry(db: Database, id: number): Promise<DirectoryEntry | undefined> {
  const [entry] = await db.select().from(staffDirectory).where(eq(staffDirectory.id, id));
  return entry;
}

/**
 * Deactivates (no longer offered) or reactivates an entry; false when there is no such entry. A reactivated
 * entry's email and mobile are compared again from then on.
 */
export async function setDirectoryEntryActive(db: Database, id: number, isActive: boolean): Promise<boolean> {
  const entry = await findDirectoryEntry(db, id);
  if (!entry) return false;
  const updated = await db
    .update(staffDirectory)
    .set({ isActive, ...(isActive ? comparedValues(entry) : {}), updatedAt: sql`now()` })
    .where(eq(staffDirectory.id, id))
    .returning({ id: staffDirectory.id });
  return updated.length > 0;
}
