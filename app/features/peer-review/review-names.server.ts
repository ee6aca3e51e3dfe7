import { eq } from "drizzle-orm";
import type { Database } from "~/services/db/database.server";
import { staffDirectory, staffUsers } from "~/services/db/schema.server";

/**
 * The people a review may be for, as suggestions for "Peer Review for": the display names of the active staff
 * accounts and of the active staff directory (the technicians), once each, in alphabetical order. Only a
 * suggestion: any other name may still be typed (docs/spec.md §3).
 */
export async function reviewNameSuggestions(db: Database): Promise<string[]> {
  const [accounts, directory] = await Promise.all([
    db.select({ name: staffUsers.displayName }).from(staffUsers).where(eq(staffUsers.isActive, true)),
    db.select({ name: staffDirectory.name }).from(staffDirectory).where(eq(staffDirectory.isActive, true)),
  ]);
  const names = new Set([...accounts, ...directory].map(({ name }) => name.trim()).filter((name) => name !== ""));
  return [...names].sort((first, second) => first.localeCompare(second));
}
