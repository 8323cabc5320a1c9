import { type Compilable, CompiledQuery } from 'kysely';
import type { Executor } from './executor.js';

/**
 * Multi-row INSERT statements compiled once and kept by shape, for the writes every batch of
 * relayed requests makes (the log rows and their roll-ups). Kysely builds and compiles a statement
 * each time it runs one: for a batch's seven statements that was more CPU than SQLite's own work
 * for some of them, and garbage for every request (BENCHMARKS.md).
 */
const texts = new Map<string, string>();
const KEPT = 64;

/**
 * Runs the INSERT `build(rows)` makes, with the rows' values in `columns` order bound to the text
 * kept for its shape (`shape` names the dialect, table and anything else the text depends on, and
 * `columns` must be every column the rows have). `build` makes the statement with Kysely, the first
 * time for a placeholder batch of as many rows. Kysely's own statement runs instead when a row
 * leaves a column undefined, or the compiled text binds anything but the rows' values.
 *
 * The rows go in pieces whose sizes are powers of two (200 rows: 128, 64 and 8), in order, so that
 * whatever sizes the batches come in, a shape needs at most one text per power of two. A batch the
 * timer takes before it is full has any size: each new size cost a Kysely compilation and an SQLite
 * prepare of a statement of thousands of values (BENCHMARKS.md, fourth step).
 */
export async function insertWithKeptText<Row>(
  executor: Executor,
  shape: string,
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
  build: (rows: readonly Row[]) => Compilable,
): Promise<void> {
  let start = 0;
  while (start < rows.length) {
    // The largest power of two not above what is left.
    const size = 2 ** (31 - Math.clz32(rows.length - start));
    await insertPiece(
      executor,
      shape,
      columns,
      start === 0 && size === rows.length ? rows : rows.slice(start, start + size),
      build,
    );
    start += size;
  }
}

async function insertPiece<Row>(
  executor: Executor,
  shape: string,
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
  build: (rows: readonly Row[]) => Compilable,
): Promise<void> {
  const values = new Array<unknown>(rows.length * columns.length);
  let at = 0;
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column];
      if (value === undefined) return void (await executor.executeQuery(build(rows).compile()));
      values[at++] = value;
    }
  }
  const key = `${shape}:${rows.length}`;
  let text = texts.get(key);
  if (text === undefined) {
    const placeholder = Object.fromEntries(columns.map((column) => [column, 0])) as Row;
    const compiled = build(new Array<Row>(rows.length).fill(placeholder)).compile();
    // Only a statement that binds nothing but the rows' values, in their order, can be reused.
    if (compiled.parameters.length !== values.length) return void (await executor.executeQuery(build(rows).compile()));
    text = compiled.sql;
    if (texts.size >= KEPT) texts.delete(texts.keys().next().value as string);
    texts.set(key, text);
  }
  await executor.executeQuery(CompiledQuery.raw(text, values));
}

/** The row counts of the texts kept for `shape`, smallest first. */
export function keptSizes(shape: string): number[] {
  const sizes: number[] = [];
  for (const key of texts.keys()) if (key.startsWith(`${shape}:`)) sizes.push(Number(key.slice(shape.length + 1)));
  return sizes.sort((left, right) => left - right);
}
