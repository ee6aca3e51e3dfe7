/** The nearest-rank percentile of ascending-sorted values: `fraction` 0.5 for p50, 0.99 for p99. */
export function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1))] ?? Number.NaN;
}
