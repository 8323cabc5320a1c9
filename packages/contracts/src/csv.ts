/**
 * The one CSV encoder of the server's exports and the console's downloads (RFC 4180, as spreadsheet
 * programs read it): comma-separated fields, CRLF line ends, a line end after the last line.
 */

/**
 * One CSV field: quoted when it holds a comma, a quote or a line break (a quote doubled inside).
 * A text starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` first, so a
 * spreadsheet does not run a name someone typed as a formula; a number is never changed.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole CSV document: one line per row (the header is the first row), each field encoded by csvField. */
export function csvDocument(rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  return rows.map((cells) => `${cells.map(csvField).join(',')}\r\n`).join('');
}
