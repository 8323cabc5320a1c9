import type { InvoiceGenerated, InvoiceModelRow, InvoiceMonth, Paged, PageQuery } from '@one-hub/contracts';
import { AppError } from '../../platform/errors.js';
import type { OptionService } from '../option/service.js';
import { formatLocalDate } from '../statistics/dates.js';
import type { InvoiceRepository } from './repo.js';

/** The month (YYYY-MM-01) a day (YYYY-MM-DD) falls in. */
export const monthOf = (day: string): string => `${day.slice(0, 7)}-01`;

/** The month before the one `now` is in, in the server's time zone (the statistics' days are local). */
export function lastMonthOf(now: Date): string {
  const current = monthOf(formatLocalDate(now));
  const [year, month] = current.split('-').map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12-01` : `${year}-${String(month - 1).padStart(2, '0')}-01`;
}

/**
 * Monthly invoices (UserInvoiceMonth): users read their months and each month's lines per model;
 * a month is built once it is over — by the master node's daily job, or by the root user on demand.
 * With the setting off no month is built, and the reads answer what is stored (nothing, on a site
 * that never turned it on), as One Hub does: its console opens the page by URL and expects a list.
 */
export class InvoiceService {
  constructor(
    private readonly repo: InvoiceRepository,
    private readonly options: Pick<OptionService, 'getBoolean'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  months(userId: number, paging: PageQuery): Promise<Paged<InvoiceMonth>> {
    return this.repo.months(userId, paging);
  }

  detail(userId: number, month: string): Promise<InvoiceModelRow[]> {
    return this.repo.detail(userId, month);
  }

  /** Builds the month `day` falls in; it must be over. `replace` rebuilds a built month. */
  async build(day: string, replace: boolean): Promise<InvoiceGenerated> {
    const month = monthOf(day);
    if (month > lastMonthOf(this.now())) {
      throw AppError.badRequest(`time: ${month.slice(0, 7)} is not over yet; only past months can be invoiced`);
    }
    return { date: month, count: await this.repo.build(month, replace) };
  }

  /** The daily job: last month's invoices, once, while the setting is on. */
  async buildLastMonth(): Promise<InvoiceGenerated | undefined> {
    if (!this.options.getBoolean('UserInvoiceMonth')) return undefined;
    const month = lastMonthOf(this.now());
    if (await this.repo.isBuilt(month)) return undefined;
    return { date: month, count: await this.repo.build(month, false) };
  }
}
