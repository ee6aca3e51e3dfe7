import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "~/server/db/database.server";
import { staffDirectory } from "~/server/db/schema.server";
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

export async function addDirectoryEntry(db: Database, details: DirectoryDetails): Promise<DirectoryEntry> {
  const [entry] = await db.insert(staffDirectory).values(details).returning();
  if (!entry) throw new Error("the directory entry was not stored");
  return entry;
}

/** Changes an entry; false when there is no such entry. */
export async function updateDirectoryEntry(db: Database, id: number, details: DirectoryDetails): Promise<boolean> {
  const updated = await db
    .update(staffDirectory)
    .set({ ...details, updatedAt: sql`now()` })
    .where(eq(staffDirectory.id, id))
    .returning({ id: staffDirectory.id });
  return updated.length > 0;
}

/** Deactivates (no longer offered) or reactivates an entry; false when there is no such entry. */
export async function setDirectoryEntryActive(db: Database, id: number, isActive: boolean): Promise<boolean> {
  const updated = await db
    .update(staffDirectory)
    .set({ isActive, updatedAt: sql`now()` })
    .where(eq(staffDirectory.id, id))
    .returning({ id: staffDirectory.id });
  return updated.length > 0;
}
