import { type InsertQueryBuilder, type InsertResult, sql } from 'kysely';
import type { DatabaseHandle } from './connect.js';

/** Runs an insert and returns the new row's id: RETURNING where the database has it, insertId on MySQL. */
export async function insertReturningId<DB, TB extends keyof DB>(
  handle: DatabaseHandle,
  query: InsertQueryBuilder<DB, TB, InsertResult>,
): Promise<number> {
  if (handle.dialect === 'mysql') {
    const result = await query.executeTakeFirstOrThrow();
    return Number(result.insertId);
  }
  // Generic over the table, so TypeScript cannot see the returned column; it is the `id` asked for.
  const row = (await query.returning(sql<number>`id`.as('id')).executeTakeFirstOrThrow()) as { id: number | string };
  return Number(row.id);
}
