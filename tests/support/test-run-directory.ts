import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/*
 * One directory per test run holds the data of every app the run starts (an embedded PostgreSQL each, some
 * 40 MB), and the run's global teardown removes it: an app's data is still needed after it stops, when a test
 * starts the next app on it. The runner makes it before its workers start, which find it in the environment.
 */

/** Where an app started now keeps its data: the run's directory, or the system's temporary one outside a run. */
export const appDataParent = () => process.env.TEST_RUN_DIR ?? tmpdir();

/** Makes the run's directory, once per runner (a runner evaluating its config again finds it made). */
export function makeTestRunDirectory() {
  if (process.env.TEST_RUN_DIR !== undefined) return;
  process.env.TEST_RUN_DIR = mkdtempSync(path.join(tmpdir(), "tce-run-"));
  // Run as root, an app runs its embedded PostgreSQL as the "postgres" user, which must pass through here.
  chmodSync(process.env.TEST_RUN_DIR, 0o711);
}

export function removeTestRunDirectory() {
  if (process.env.TEST_RUN_DIR !== undefined) rmSync(process.env.TEST_RUN_DIR, { recursive: true, force: true });
}
