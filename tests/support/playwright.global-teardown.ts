import { removeTestRunDirectory } from "./test-run-directory";

/** Removes the data of every app the e2e run started (playwright.config.ts made the directory). */
export default function teardown() {
  removeTestRunDirectory();
}
