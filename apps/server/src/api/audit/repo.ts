import type { Paged, PageQuery } from '@one-hub/contracts';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { fetchPage } from '../../platform/db/index.js';
import type { AuditRow } from './presenter.js';

/** Sorting other than newest first is allowed by time or id only: both follow the order rows were written. */
const AUDIT_SORT_FIELDS = ['id', 'created_at'] as const;

/** The filters of the audit list and its export; each is skipped when absent. */
export interface AuditFilter {
  resource?: string | undefined;
  action?: string | undefined;
  /** Set for an administrator below root to its own id: it sees only its own actions. */
  actorId?: number | undefined;
  targetId?: string | undefined;
  startTimestamp?: number | undefined;
  endTimestamp?: number | undefined;
}

export class AuditRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  /** THE filtered query: the list, the export (page by page) and nothing else read through it. */
  private filtered(filter: AuditFilter) {
    let query = this.handle.db.selectFrom('audit_logs').selectAll();
    if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
    if (filter.resource) query = query.where('resource', '=', filter.resource);
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
    if (filter.startTimestamp) query = query.where('created_at', '>=', filter.startTimestamp);
    if (filter.endTimestamp) query = query.where('created_at', '<=', filter.endTimestamp);
    return query;
  }

  /** One page, newest first unless `order` says otherwise, with the number of matching rows. */
  list(filter: AuditFilter, paging: PageQuery): Promise<Paged<AuditRow>> {
    return fetchPage(this.filtered(filter), paging, AUDIT_SORT_FIELDS);
  }

  /**
   * Up to `limit` matching rows with an id below `afterId` (0: from the newest), newest first: a keyset
   * page, so an export walks any number of rows with bounded memory and never skips or repeats one.
   */
  listPageAfter(filter: AuditFilter, afterId: number, limit: number): Promise<AuditRow[]> {
    let query = this.filtered(filter);
    if (afterId > 0) query = query.where('id', '<', afterId);
    return query.orderBy('id', 'desc').limit(limit).execute();
  }

  /** Retention: deletes at most `limit` rows created before `timestamp`, oldest first; returns how many. */
  async deleteBefore(timestamp: number, limit: number): Promise<number> {
    const rows = await this.handle.db
      .selectFrom('audit_logs')
      .select('id')
      .where('created_at', '<', timestamp)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    if (rows.length === 0) return 0;
    const ids = rows.map((row) => Number(row.id));
    const result = await this.handle.db.deleteFrom('audit_logs').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
