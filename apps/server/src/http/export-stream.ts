import type { Writable } from 'node:stream';
import { csvDocument, csvField, type ExportFormat } from '@one-hub/contracts';
import type { FastifyReply } from 'fastify';

/** One CSV column: its header (the list's field name) and how a row gives its cell. */
export interface ExportColumn<Row> {
  name: string;
  value(row: Row): unknown;
}

/**
 * What an export writes. `pages` yields the rows a page at a time and is asked for the next page
 * only once the client has taken the last one, so an export of any length holds one page.
 */
export interface ExportTable<Row> {
  pages: AsyncIterable<readonly Row[]>;
  columns: readonly ExportColumn<Row>[];
  /** The file name's start: `logs` gives `logs-20261207-101500.csv`. */
  fileStem: string;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson',
};

/** Columns that are the row's own fields, cell for cell. */
export function fieldColumns<Row>(names: readonly (keyof Row & string)[]): ExportColumn<Row>[] {
  return names.map((name) => ({ name, value: (row: Row) => row[name] }));
}

/** A CSV cell: numbers stay numbers, nothing is empty, an object is its JSON text. */
export function csvCell(value: unknown): string | number {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `<stem>-YYYYMMDD-HHMMSS.<format>` in the server's time zone, the zone its statistics days use. */
export function exportFileName(stem: string, format: ExportFormat, at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const day = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `${stem}-${day}-${time}.${format}`;
}

function pageEncoder<Row>(format: ExportFormat, columns: readonly ExportColumn<Row>[]) {
  if (format === 'jsonl') return (rows: readonly Row[]) => rows.map((row) => `${JSON.stringify(row)}\n`).join('');
  return (rows: readonly Row[]) =>
    rows.map((row) => `${columns.map((column) => csvField(csvCell(column.value(row)))).join(',')}\r\n`).join('');
}

/**
 * Resolves true once the sink can take more, false when it closed first. Both listeners go
 * either way: an export waits thousands of times on one response.
 */
function drained(sink: Writable): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = () => settle(true);
    const onClose = () => settle(false);
    const settle = (open: boolean) => {
      sink.off('drain', onDrain);
      sink.off('close', onClose);
      resolve(open);
    };
    sink.once('drain', onDrain);
    sink.once('close', onClose);
  });
}

/**
 * Writes the table to `sink` page by page: a page is read, encoded, written, and the next one is
 * read only when the sink has drained, so a slow client slows the reading instead of filling
 * memory. A sink that closes early (the client went away) stops the reading. The first page is
 * read before `onStart` runs, so the caller can still answer an error if the reading fails at once.
 */
export async function writeExport<Row>(
  sink: Writable,
  format: ExportFormat,
  table: Omit<ExportTable<Row>, 'fileStem'>,
  onStart: () => void = () => {},
): Promise<void> {
  const pages = table.pages[Symbol.asyncIterator]();
  const encode = pageEncoder(format, table.columns);
  let step = await pages.next();
  onStart();
  try {
    let chunk = format === 'csv' ? csvDocument([table.columns.map((column) => column.name)]) : '';
    while (!step.done) {
      chunk += encode(step.value);
      if (!(await writeChunk(sink, chunk))) return;
      chunk = '';
      step = await pages.next();
    }
    if (chunk && !(await writeChunk(sink, chunk))) return;
    sink.end();
  } finally {
    // Stops a generator cut short: its own clean-up runs and it reads nothing more.
    await pages.return?.();
  }
}

/** False when the sink is gone (destroyed or closed while waiting): there is no one to write to. */
async function writeChunk(sink: Writable, chunk: string): Promise<boolean> {
  if (sink.destroyed) return false;
  if (sink.write(chunk)) return true;
  return drained(sink);
}

/**
 * Answers a GET with the table as a download. Headers the app set earlier (security headers) are
 * kept; a failure before the first byte is an ordinary error answer, one after it cuts the
 * connection, so the client sees a broken transfer rather than a file that looks complete.
 */
export async function sendExport<Row>(
  reply: FastifyReply,
  format: ExportFormat,
  table: ExportTable<Row>,
  now: Date = new Date(),
): Promise<void> {
  let started = false;
  try {
    await writeExport(reply.raw, format, table, () => {
      started = true;
      reply.hijack();
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.raw.writeHead(200, {
        'content-type': CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="${exportFileName(table.fileStem, format, now)}"`,
        'cache-control': 'no-store',
      });
    });
  } catch (error) {
    if (!started) throw error;
    reply.log.error({ err: error }, 'export failed after it started; connection cut');
    reply.raw.destroy();
  }
}
