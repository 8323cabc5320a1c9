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
 */
export async function insertWithKeptText<Row>(
  executor: Executor,
  shape: string,
  columns: readonly (keyof Row & string)[],
  rows: readonly Row[],
  build: (rows: readonly Row[]) => Compilable,
): Promise<void> {
  if (rows.length === 0) return;
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
