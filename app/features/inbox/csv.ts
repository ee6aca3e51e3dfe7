// RFC 4180 writing is three rules (quote a cell holding a quote, comma or line break; double its quotes; end
// rows with CRLF), written here because the formula guard has to run before quoting anyway.

/** Excel, LibreOffice and Google Sheets open a UTF-8 file as UTF-8 only when it starts with this mark. */
export const CSV_BYTE_ORDER_MARK = "\uFEFF";

/** A cell a spreadsheet would run as a formula (=, +, -, @, or a leading tab or carriage return). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: neutralised against formula injection with a leading ', then quoted when it must be. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
