import { type Paged, PLAN_SORT_FIELDS, type PlanListQuery } from '@one-hub/contracts';
import { nowSeconds } from '../../platform/clock.js';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  type NewPlanRow,
  type PlanRow,
  startsWithIgnoringCase,
} from '../../platform/db/index.js';

export type PlanFields = Omit<NewPlanRow, 'id' | 'created_at' | 'updated_at' | 'deleted_at'>;

/** Plans. A deleted plan (`deleted_at` set) is gone from every list but still names its subscriptions. */
export class PlanRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  transaction<Result>(work: (executor: Executor) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  private live(executor: Executor = this.handle.db) {
    return executor.selectFrom('plans').selectAll().where('deleted_at', 'is', null);
  }

  list(query: PlanListQuery): Promise<Paged<PlanRow>> {
    let select = this.live();
    if (query.keyword) select = select.where(startsWithIgnoringCase('name', query.keyword));
    return fetchPage(select, { ...query, order: query.order || '-sort' }, PLAN_SORT_FIELDS);
  }

  /** The enabled plans, as users are offered them. */
  enabled(): Promise<PlanRow[]> {
    return this.live().where('enable', '=', true).orderBy('sort', 'desc').orderBy('id').execute();
  }

  findLive(id: number, executor?: Executor): Promise<PlanRow | undefined> {
    return this.live(executor).where('id', '=', id).executeTakeFirst();
  }

  /** Deleted or not: a subscription outlives its plan's deletion. */
  findAny(ids: readonly number[]): Promise<PlanRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.handle.db
      .selectFrom('plans')
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  insert(fields: PlanFields, executor: Executor = this.handle.db): Promise<number> {
    const now = nowSeconds();
    return insertReturningId(
      this.handle,
      executor.insertInto('plans').values({ ...fields, created_at: now, updated_at: now, deleted_at: null }),
    );
  }

  async update(id: number, fields: PlanFields, executor: Executor = this.handle.db): Promise<boolean> {
    const result = await executor
      .updateTable('plans')
      .set({ ...fields, updated_at: nowSeconds() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async softDelete(id: number, executor: Executor = this.handle.db): Promise<boolean> {
    const now = nowSeconds();
    const result = await executor
      .updateTable('plans')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
