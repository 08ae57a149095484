/**
 * CSV for the browser's downloads (RFC 4180: CRLF, fields with a comma, quote or line break
 * quoted). A text cell that a spreadsheet would read as a formula (=, +, -, @, tab, CR first)
 * gets a leading apostrophe: campaign names are the merchant's text, not formulas.
 */
export type Cell = string | number;

function field(cell: Cell): string {
  let text = typeof cell === 'number' ? String(cell) : cell;
  if (typeof cell === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV text of a header row and data rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
