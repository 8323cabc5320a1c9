import type { Budget } from '@one-hub/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { DatabaseHandle } from '../../platform/db/index.js';

type Measure = 'quota' | 'requests' | 'tokens';
const MEASURES: readonly Measure[] = ['quota', 'requests', 'tokens'];

/** How a group's members stand in one window, as the stored window use says. */
export interface GroupWindowUse {
  using: number;
  exhausted: number;
  top: { id: number; username: string } | undefined;
}

/** The measures a window limits, with their allowances. */
function limitsOf(budget: Budget): Array<[Measure, number]> {
  return MEASURES.flatMap((measure) => {
    const limit = budget[measure];
    return limit === undefined ? [] : [[measure, limit] as [Measure, number]];
  });
}

/** The larger of two numeric expressions, written so SQLite, PostgreSQL and MySQL all read it. */
const larger = (left: RawBuilder<number>, right: RawBuilder<number>) =>
  sql<number>`case when ${left} >= ${right} then ${left} else ${right} end`;

/**
 * A group's budget applies to each member on its own, counted on the member's `user:<id>` windows
 * in `budget_usage` (the same counter as the user's own window of that period). These reads
 * aggregate in SQL from the window rows of the period, so they cost the number of members with
 * use in the window, not the group's size: the rows are found through the table's primary key
 * (`user:` subjects of one period) and each member through the users' primary key.
 */
export class GroupBudgetUseRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  async windowUse(symbol: string, budget: Budget, range: { from: number; to: number }): Promise<GroupWindowUse> {
    // `user:<id>` → id; the guard keeps other subjects (`key:5` → '') from failing the cast.
    const integer = sql.raw(this.handle.dialect === 'mysql' ? 'signed' : 'integer');
    const memberId = sql<number>`cast(nullif(substr(${sql.ref('budget_usage.subject')}, 6), '') as ${integer})`;
    const rows = this.handle.db
      .selectFrom('budget_usage')
      .innerJoin('users', (join) => join.on(sql<boolean>`${sql.ref('users.id')} = ${memberId}`))
      .where('budget_usage.subject', '>=', 'user:')
      .where('budget_usage.subject', '<', 'user;')
      .where('budget_usage.period', '=', budget.period)
      .where('budget_usage.started_at', '>=', range.from)
      .where('budget_usage.started_at', '<=', range.to)
      .where('users.group', '=', symbol)
      .where('users.deleted_at', 'is', null)
      .where((where) => where.or(MEASURES.map((measure) => where(sql.ref(`budget_usage.${measure}`), '>', 0))));
    const limits = limitsOf(budget);
    const used = (measure: Measure) => sql.ref<number>(`budget_usage.${measure}`);
    const exhausted = sql.join(
      limits.map(([measure, limit]) => sql`${used(measure)} >= ${sql.lit(limit)}`),
      sql` or `,
    );
    // The share of the allowance used, of the measure nearest its limit.
    const shares = limits.map(([measure, limit]) => sql<number>`${used(measure)} * 1.0 / ${sql.lit(limit)}`);
    const share = shares.slice(1).reduce(larger, shares[0] ?? sql<number>`0`);
    const counts = await rows
      .select([
        sql<number | string>`count(*)`.as('using'),
        sql<number | string | null>`sum(case when ${exhausted} then 1 else 0 end)`.as('exhausted'),
      ])
      .executeTakeFirst();
    const top = await rows
      .select(['users.id', 'users.username'])
      .orderBy(share, 'desc')
      .orderBy('users.id')
      .limit(1)
      .executeTakeFirst();
    return {
      using: Number(counts?.using ?? 0),
      exhausted: Number(counts?.exhausted ?? 0),
      top: top && { id: Number(top.id), username: top.username },
    };
  }
}
