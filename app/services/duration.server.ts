const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const DURATION_PATTERN = /^(\d+)(ms|s|m|h|d)?$/;

/** Milliseconds of a duration setting: `0`, `250ms`, `5s`, `30m`, `2h`, `7d`. A bare number is milliseconds. */
export function parseDuration(value: string): number {
  const match = DURATION_PATTERN.exec(value);
  if (!match) throw new Error(`not a duration: "${value}"`);
  return Number(match[1]) * UNIT_MS[(match[2] ?? "ms") as keyof typeof UNIT_MS];
}
