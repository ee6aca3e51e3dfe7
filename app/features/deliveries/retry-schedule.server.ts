/** The delay in milliseconds of one DELIVERY_RETRY_SCHEDULE entry: `0`, `250ms`, `5s`, `30m`, `2h`. */
export function parseDelay(value: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(value);
  if (!match) throw new Error(`not a delay: "${value}"`);
  const factor = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] ?? "ms"] ?? 1;
  return Number(match[1]) * factor;
}

/**
 * When the next attempt is due after `attemptsMade` attempts, or undefined when the schedule is used up.
 * Entry n of the schedule is the wait before attempt n + 1, so the first entry (usually 0) is the first try.
 */
export function nextAttemptDelay(schedule: readonly string[], attemptsMade: number): number | undefined {
  const entry = schedule[attemptsMade];
  return entry === undefined ? undefined : parseDelay(entry);
}
