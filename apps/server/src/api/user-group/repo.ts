import {
  BALANCING_STRATEGIES,
  type BalancingStrategy,
  type Paged,
  type PageQuery,
  parseStoredBudgets,
  parseStoredFallbacks,
  USER_GROUP_SORT_FIELDS,
  type UserGroupView,
} from '@one-hub/contracts';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  startsWithIgnoringCase,
  toBoolean,
  type UserGroupRow,
} from '../../platform/db/index.js';

export function toUserGroupView(row: UserGroupRow): UserGroupView {
  return {
    id: row.id,
    symbol: row.symbol,
    name: row.name,
    ratio: Number(row.ratio),
    api_rate: row.api_rate,
    tpm: Number(row.tpm),
    budgets: parseStoredBudgets(row.budgets),
    fallbacks: parseStoredFallbacks(row.fallbacks),
    cache_affinity: toBoolean(row.cache_affinity),
    public: toBoolean(row.public),
    promotion: toBoolean(row.promotion),
    min: row.min,
    max: row.max,
    enable: toBoolean(row.enable),
    routing_strategy: strategyOf(row.routing_strategy),
  };
}

/** A value written by a newer version or by hand reads as the default. */
function strategyOf(stored: string): BalancingStrategy {
  return (BALANCING_STRATEGIES as readonly string[]).includes(stored) ? (stored as BalancingStrategy) : 'weighted';
}

export interface UserGroupFilter {
  name?: string | undefined;
  enable?: boolean | undefined;
}

/** An update may leave the strategy out (a console that does not know it): the stored one stays. */
type GroupFields = Omit<UserGroupView, 'id' | 'symbol' | 'enable' | 'routing_strategy'> & {
  routing_strategy?: BalancingStrategy | undefined;
};

/** The budgets and fallbacks are stored as JSON text. */
function storedFields({ budgets, fallbacks, routing_strategy, ...fields }: GroupFields) {
  return {
    ...fields,
    budgets: JSON.stringify(budgets),
    fallbacks: JSON.stringify(fallbacks),
    ...(routing_strategy ? { routing_strategy } : {}),
  };
}

export class UserGroupRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  async list(paging: PageQuery, filter: UserGroupFilter): Promise<Paged<UserGroupView>> {
    let query = this.handle.db.selectFrom('user_groups').selectAll();
    if (filter.name) query = query.where(startsWithIgnoringCase('name', filter.name));
    if (filter.enable !== undefined) query = query.where('enable', '=', filter.enable);
    const page = await fetchPage(query, paging, USER_GROUP_SORT_FIELDS);
    return { ...page, data: page.data.map(toUserGroupView) };
  }

  async all(): Promise<UserGroupView[]> {
    const rows = await this.handle.db.selectFrom('user_groups').selectAll().orderBy('id').execute();
    return rows.map(toUserGroupView);
  }

  transaction<Result>(work: (executor: Executor) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  async findById(id: number, executor: Executor = this.handle.db): Promise<UserGroupView | undefined> {
    const row = await executor.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUserGroupView(row);
  }

  async findBySymbol(symbol: string): Promise<UserGroupView | undefined> {
    const row = await this.handle.db
      .selectFrom('user_groups')
      .selectAll()
      .where('symbol', '=', symbol)
      .executeTakeFirst();
    return row && toUserGroupView(row);
  }

  async insert(symbol: string, fields: GroupFields, executor: Executor = this.handle.db): Promise<number> {
    return insertReturningId(
      this.handle,
      executor.insertInto('user_groups').values({ symbol, ...storedFields(fields), enable: true }),
    );
  }

  async update(id: number, fields: GroupFields, executor: Executor = this.handle.db): Promise<void> {
    await executor.updateTable('user_groups').set(storedFields(fields)).where('id', '=', id).execute();
  }

  async setEnabled(id: number, enable: boolean, executor: Executor = this.handle.db): Promise<void> {
    await executor.updateTable('user_groups').set({ enable }).where('id', '=', id).execute();
  }

  async delete(id: number, executor: Executor = this.handle.db): Promise<void> {
    await executor.deleteFrom('user_groups').where('id', '=', id).execute();
  }

  async countMembers(symbol: string): Promise<number> {
    const row = await this.handle.db
      .selectFrom('users')
      .select((expression) => expression.fn.countAll().as('total'))
      .where('group', '=', symbol)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }
}
