/** One line of the bench's table: our figure beside the reference's from the same run. */
export type BenchRow = {
  measure: string;
  ours: string;
  reference: string;
  /** Ours over the reference, for throughput; undefined where a measure has no reference. */
  ratio?: number;
  goal: string;
  /** Undefined when the measure could not be taken (say nginx is not installed). */
  met: boolean | undefined;
};

export function printBenchTable(rows: BenchRow[]) {
  const header = ["measure", "ours", "reference", "ratio", "goal", "met"];
  const cells = rows.map((row) => [
    row.measure,
    row.ours,
    row.reference,
    row.ratio === undefined ? "" : row.ratio.toFixed(2),
    row.goal,
    row.met === undefined ? "not measured" : row.met ? "yes" : "NO",
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ");
  console.log(`\n${line(header)}\n${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of cells) console.log(line(row));
  const missed = rows.filter((row) => row.met === false).map((row) => row.measure);
  console.log(missed.length === 0 ? "\nEvery measured goal is met." : `\nGoals missed: ${missed.join("; ")}`);
}

export const perSecond = (value: number) => `${value.toFixed(0)}/s`;
export const ms = (value: number) => `${value.toFixed(1)} ms`;
