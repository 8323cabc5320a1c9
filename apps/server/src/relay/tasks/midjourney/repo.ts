import type { Insertable, Selectable, Updateable } from 'kysely';
import {
  type DatabaseHandle,
  type Executor,
  insertReturningId,
  type MidjourneysTable,
} from '../../../platform/db/index.js';

export type MidjourneyRow = Selectable<MidjourneysTable>;
export type NewMidjourneyRow = Insertable<MidjourneysTable>;
export type MidjourneyUpdate = Updateable<MidjourneysTable>;

/** The statuses after which the proxy changes nothing more. */
export const FINAL_STATUSES = ['SUCCESS', 'FAILURE'] as const;

/** The `midjourneys` table: tasks the relay submitted, as the poller and the proxy's callbacks update them. */
export class MidjourneyRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  insert(row: NewMidjourneyRow): Promise<number> {
    return insertReturningId(this.handle, this.handle.db.insertInto('midjourneys').values(row));
  }

  /** The caller's own task with that proxy id (the newest, should a proxy ever reuse one). */
  findOwned(userId: number, mjId: string): Promise<MidjourneyRow | undefined> {
    return this.handle.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('mj_id', '=', mjId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  findOwnedMany(userId: number, mjIds: readonly string[]): Promise<MidjourneyRow[]> {
    if (mjIds.length === 0) return Promise.resolve([]);
    return this.handle.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('mj_id', 'in', [...mjIds])
      .orderBy('id', 'asc')
      .execute();
  }

  /** Any user's task with that proxy id: the image route and the proxy's callback know only the id. */
  findByMjId(mjId: string): Promise<MidjourneyRow | undefined> {
    return this.handle.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('mj_id', '=', mjId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  /** Unfinished tasks, oldest first, at most `limit` a pass. */
  unfinished(limit: number): Promise<MidjourneyRow[]> {
    return this.handle.db
      .selectFrom('midjourneys')
      .selectAll()
      .where('status', 'not in', [...FINAL_STATUSES])
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  }

  /**
   * Writes what the proxy reported, unless the task is already final: a late or replayed report
   * cannot undo a success or a refunded failure. True when the row changed.
   */
  async updateUnfinished(id: number, update: MidjourneyUpdate, executor: Executor = this.handle.db) {
    const result = await executor
      .updateTable('midjourneys')
      .set(update)
      .where('id', '=', id)
      .where('status', 'not in', [...FINAL_STATUSES])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
