import { eq } from "drizzle-orm";
import type { Database } from "./db/database.server";
import { appSettings } from "./db/schema.server";

const REQUIRE_SECOND_FACTOR = "requireSecondFactor";

/** Whether every staff user must enrol a second factor before using the staff tools. Off until an admin turns it on. */
export async function isSecondFactorRequired(db: Database): Promise<boolean> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, REQUIRE_SECOND_FACTOR));
  return row?.value === true;
}

export async function setSecondFactorRequired(db: Database, required: boolean): Promise<void> {
  await db
    .insert(appSettings)
    .values({ key: REQUIRE_SECOND_FACTOR, value: required })
    .onConflictDoUpdate({ target: appSettings.key, set: { value: required, updatedAt: new Date() } });
}
