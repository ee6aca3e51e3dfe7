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

/**
 * A plain-text table with a rule under its header: the first `textColumns` columns left-aligned, the others
 * (figures) right-aligned.
 */
export function textTable(header: string[], rows: string[][], textColumns = 1): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column < textColumns ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

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
  console.log(`\n${textTable(header, cells, header.length)}`);
  const missed = rows.filter((row) => row.met === false).map((row) => row.measure);
  console.log(missed.length === 0 ? "\nEvery measured goal is met." : `\nGoals missed: ${missed.join("; ")}`);
}

export const perSecond = (value: number) => `${value.toFixed(0)}/s`;
export const ms = (value: number) => `${value.toFixed(1)} ms`;
