/**
 * Reads an RFC 4180 document back into rows of fields, for tests of the CSV exports: quoted fields
 * may hold commas, doubled quotes and line breaks; every line ends in CRLF.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (quoted) {
      if (character === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      row.push(field);
      field = '';
    } else if (character === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += character;
  }
  if (quoted || field !== '' || row.length > 0) throw new Error('CSV ends inside a line: every line must end in CRLF');
  return rows;
}

/** The CSV's lines as objects keyed by the header line's names. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...lines] = parseCsv(text);
  if (!header) throw new Error('CSV has no header line');
  return lines.map((cells) => {
    if (cells.length !== header.length)
      throw new Error(`a line has ${cells.length} fields, the header ${header.length}`);
    return Object.fromEntries(header.map((name, column) => [name, cells[column] ?? '']));
  });
}
