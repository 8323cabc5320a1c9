import type { DatabaseHandle } from '../../platform/db/index.js';

export interface UserName {
  id: number;
  username: string;
  display_name: string;
}

/** Users by id, deleted ones included, so older rows (tokens, statistics) still name who they were. */
export async function userNamesById(handle: DatabaseHandle, ids: readonly number[]): Promise<Map<number, UserName>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await handle.db
    .selectFrom('users')
    .select(['id', 'username', 'display_name'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(
    rows.map((row) => [Number(row.id), { id: Number(row.id), username: row.username, display_name: row.display_name }]),
  );
}
