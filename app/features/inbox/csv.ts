// RFC 4180 writing is three rules (quote a cell holding a quote, comma or line break; double its quotes; end
// rows with CRLF), written here because the formula guard has to run before quoting anyway.

/** Excel, LibreOffice and Google Sheets open a UTF-8 file as UTF-8 only when it starts with this mark. */
export const CSV_BYTE_ORDER_MARK = "\uFEFF";

/**
 * A cell a spreadsheet would run as a formula: one that starts, after any blank space, with =, +, -, @ (or
 * their full-width forms, which some spreadsheets fold), or with a tab or carriage return.
 */
const FORMULA_START = /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/**
 * One cell: neutralised against formula injection with a leading ', then quoted when it must be. A `;` is
 * quoted too: Excel set to a semicolon locale splits unquoted cells there, and the piece after one could be a
 * formula of its own.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvRow(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}
