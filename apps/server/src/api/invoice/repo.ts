import {
  INVOICE_SORT_FIELDS,
  type InvoiceModelRow,
  type InvoiceMonth,
  type Paged,
  type PageQuery,
} from '@one-hub/contracts';
import { sql } from 'kysely';
import { nowSeconds } from '../../platform/clock.js';
import { type DatabaseHandle, parseOrder } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';

const COUNTERS = ['request_count', 'quota', 'prompt_tokens', 'completion_tokens', 'request_time'] as const;

/** The first day of the month after `month` (YYYY-MM-01). */
export function nextMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return number === 12 ? `${year + 1}-01-01` : `${year}-${String(number + 1).padStart(2, '0')}-01`;
}

const sums = () => COUNTERS.map((counter) => sql<number | string>`sum(${sql.ref(counter)})`.as(counter));

function toMonth(row: Record<string, unknown>): InvoiceMonth {
  return {
    date: String(row.date),
    request_count: Number(row.request_count ?? 0),
    quota: Number(row.quota ?? 0),
    prompt_tokens: Number(row.prompt_tokens ?? 0),
    completion_tokens: Number(row.completion_tokens ?? 0),
    request_time: Number(row.request_time ?? 0),
  };
}

/** Queries on `statistics_months` and its history; every one works on SQLite, PostgreSQL and MySQL. */
export class InvoiceRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  async isBuilt(month: string): Promise<boolean> {
    const row = await this.handle.db
      .selectFrom('statistics_month_generated_histories')
      .select('id')
      .where('date', '=', month)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Builds (or, with `replace`, rebuilds) a month's invoices from the daily statistics, in one
   * transaction with its history row; refused with 409 when built already and not replacing.
   */
  async build(month: string, replace: boolean): Promise<number> {
    return this.handle.db.transaction().execute(async (transaction) => {
      const built = await transaction
        .selectFrom('statistics_month_generated_histories')
        .select('id')
        .where('date', '=', month)
        .executeTakeFirst();
      if (built && !replace) throw AppError.conflict(`the invoices of ${month.slice(0, 7)} are built already`);
      await transaction.deleteFrom('statistics_months').where('date', '=', month).execute();
      await transaction
        .insertInto('statistics_months')
        .columns(['date', 'user_id', 'model_name', ...COUNTERS])
        .expression(
          transaction
            .selectFrom('statistics')
            .select([sql<string>`${month}`.as('date'), 'user_id', 'model_name', ...sums()])
            .where('date', '>=', month)
            .where('date', '<', nextMonth(month))
            .groupBy(['user_id', 'model_name']),
        )
        .execute();
      const counted = await transaction
        .selectFrom('statistics_months')
        .select(sql<number | string>`count(*)`.as('count'))
        .where('date', '=', month)
        .executeTakeFirst();
      const count = Number(counted?.count ?? 0);
      await transaction.deleteFrom('statistics_month_generated_histories').where('date', '=', month).execute();
      await transaction
        .insertInto('statistics_month_generated_histories')
        .values({ date: month, count, created_at: nowSeconds() })
        .execute();
      return count;
    });
  }

  /** A user's months, newest first unless `order` says otherwise. */
  async months(userId: number, paging: PageQuery): Promise<Paged<InvoiceMonth>> {
    // Months have no id: the date (newest first) ends the order.
    const keys = parseOrder(paging.order, INVOICE_SORT_FIELDS, { column: 'date', direction: 'desc' });
    const base = this.handle.db.selectFrom('statistics_months').where('user_id', '=', userId);
    const counted = await base
      .select(sql<number | string>`count(distinct ${sql.ref('date')})`.as('total'))
      .executeTakeFirst();
    let query = base.select(['date', ...sums()]).groupBy('date');
    for (const key of keys) query = query.orderBy(sql.ref(key.column), key.direction);
    const rows = await query
      .limit(paging.size)
      .offset((paging.page - 1) * paging.size)
      .execute();
    return {
      data: rows.map((row) => toMonth(row)),
      page: paging.page,
      size: paging.size,
      total_count: Number(counted?.total ?? 0),
    };
  }

  /** A user's lines of one month, one a model, the most expensive first. */
  async detail(userId: number, month: string): Promise<InvoiceModelRow[]> {
    const rows = await this.handle.db
      .selectFrom('statistics_months')
      .select(['date', 'model_name', ...COUNTERS])
      .where('user_id', '=', userId)
      .where('date', '=', month)
      .orderBy('quota', 'desc')
      .orderBy('model_name')
      .execute();
    return rows.map((row) => ({ ...toMonth(row), model_name: row.model_name }));
  }
}
