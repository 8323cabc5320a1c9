import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.js';
import { bookkeeping, chunked, type WriteContext } from './context.js';

/**
 * The source rows other rows point to: users (owners, inviters, log rows), channels (log rows,
 * statistics), payment gateways (orders) and keys (tasks; recorded by a merge only, as a fresh
 * import keeps key ids).
 */
export type MappedEntity = 'users' | 'channels' | 'payments' | 'tokens';

/**
 * Source id → target id of users and channels, kept in the target (import_id_map) in the same
 * transaction as the rows, so a resumed run remaps exactly as the interrupted one did.
 */
export class IdLookup {
  constructor(
    private readonly mode: WriteContext['mode'],
    private readonly known: Map<number, number>,
  ) {}

  /**
   * The target id for a source id; undefined when the row was skipped on purpose, or (merge) was
   * never imported. A fresh import keeps ids, so an id it never saw (a row the source deleted)
   * stays as it was.
   */
  resolve(sourceId: number): number | undefined {
    const target = this.known.get(sourceId);
    if (target !== undefined) return target === 0 ? undefined : target;
    return this.mode === 'fresh' ? sourceId : undefined;
  }
}

export async function lookupIds(
  executor: Kysely<Database>,
  context: WriteContext,
  entity: MappedEntity,
  sourceIds: Iterable<number>,
): Promise<IdLookup> {
  const wanted = [...new Set(sourceIds)].filter((id) => id > 0);
  const known = new Map<number, number>();
  for (const ids of chunked(wanted, 500)) {
    const rows = await bookkeeping(executor)
      .selectFrom('import_id_map')
      .select(['source_id', 'target_id'])
      .where('run_id', '=', context.runId)
      .where('entity', '=', entity)
      .where('source_id', 'in', ids)
      .execute();
    for (const row of rows) known.set(Number(row.source_id), Number(row.target_id));
  }
  return new IdLookup(context.mode, known);
}

/** Records source → target ids (target 0: skipped on purpose, so its dependants are skipped too). */
export async function recordIds(
  executor: Kysely<Database>,
  context: WriteContext,
  entity: MappedEntity,
  pairs: ReadonlyArray<readonly [number, number]>,
): Promise<void> {
  for (const chunk of chunked(pairs, 500)) {
    await bookkeeping(executor)
      .insertInto('import_id_map')
      .values(
        chunk.map(([source, target]) => ({ run_id: context.runId, entity, source_id: source, target_id: target })),
      )
      .execute();
  }
}
