import { csvDocument } from '@one-hub/contracts';

const pad = (value: number) => String(value).padStart(2, '0');

/** `YYYYMMDD-HHmmss` in local time: the stamp of every downloaded file's name. */
export function fileStamp(at: Date): string {
  return (
    `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-` +
    `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`
  );
}

/** Saves a blob as a file through a temporary link (works in every current browser). */
export function saveBlob(fileName: string, blob: Blob): void {
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

/** Saves text already in the page as a file. */
export function downloadFile(fileName: string, content: string, type: string): void {
  // A byte-order mark lets spreadsheet programs read non-ASCII names in the CSV as UTF-8.
  saveBlob(fileName, new Blob([type === 'text/csv' ? '\uFEFF' : '', content], { type: `${type};charset=utf-8` }));
}

/** Saves rows shown in the page (the header first) as `<stem>-YYYYMMDD-HHmmss.csv`. */
export function downloadCsv(stem: string, rows: ReadonlyArray<ReadonlyArray<string | number>>, at = new Date()): void {
  downloadFile(`${stem}-${fileStamp(at)}.csv`, csvDocument(rows), 'text/csv');
}
