import { parseDuration } from "~/services/duration.server";

/**
 * When the next attempt is due after `attemptsMade` attempts, or undefined when the schedule is used up.
 * Entry n of the schedule is the wait before attempt n + 1, so the first entry (usually 0) is the first try.
 */
export function nextAttemptDelay(schedule: readonly string[], attemptsMade: number): number | undefined {
  const entry = schedule[attemptsMade];
  return entry === undefined ? undefined : parseDuration(entry);
}
