import { csvDocument } from '@one-hub/contracts';

/** Texts for handing out freshly created codes: the clipboard, a .txt file or a .csv file. */

export interface CreatedBatch {
  keys: string[];
  name: string;
  /** Raw quota of each code. */
  quota: number;
}

/** One code per line, nothing else: what "copy all" puts on the clipboard. */
export function codesAsLines(keys: readonly string[]): string {
  return keys.join('\n');
}

export function codesAsText(keys: readonly string[]): string {
  return `${codesAsLines(keys)}\n`;
}

/** `code,name,quota` with a header line; CRLF line ends, as spreadsheets expect. */
export function codesAsCsv(batch: CreatedBatch): string {
  const lines = [['code', 'name', 'quota'], ...batch.keys.map((key) => [key, batch.name, batch.quota])];
  return csvDocument(lines);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `redemption-codes-<name>-YYYYMMDD-HHmmss.<extension>`, keeping only file-name-safe characters of the name. */
export function exportFileName(name: string, extension: 'txt' | 'csv', at: Date): string {
  const safe = name
    .trim()
    .replace(/[^\p{L}\p{N}_-]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20);
  const stamp =
    `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-` +
    `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `redemption-codes-${safe ? `${safe}-` : ''}${stamp}.${extension}`;
}

/** Saves `content` as a file through a temporary link (works in every current browser). */
export function downloadFile(fileName: string, content: string, type: string): void {
  // A byte-order mark lets spreadsheet programs read non-ASCII names in the CSV as UTF-8.
  const blob = new Blob([type === 'text/csv' ? '\uFEFF' : '', content], { type: `${type};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers read the blob after the click returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
