import {
  type AuditExportQuery,
  type AuditFilterQuery,
  type AuditListQuery,
  type AuditLogItem,
  isRootRole,
  type Paged,
} from '@one-hub/contracts';
import { type ExportTable, fieldColumns } from '../../http/export-stream.js';
import type { UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { toAuditLogItem } from './presenter.js';
import type { AuditFilter, AuditRepository } from './repo.js';

/** Rows an export reads per query: all it holds at a time, however many rows it writes. */
export const AUDIT_EXPORT_PAGE_SIZE = 1_000;

const AUDIT_EXPORT_COLUMNS = fieldColumns<AuditLogItem>([
  'id',
  'created_at',
  'actor_id',
  'actor_name',
  'actor_role',
  'resource',
  'action',
  'target_id',
  'target_name',
  'changes',
  'ip',
  'request_id',
]);

/** Who may read which audit rows: root every row, an administrator below root only its own actions. */
export class AuditService {
  constructor(private readonly repo: AuditRepository) {}

  /**
   * The filter a caller's query stands for. An administrator asking for another actor's rows gets a
   * 403 rather than its own rows under someone else's name: a silent narrowing would read as "that
   * administrator did nothing".
   */
  visibleFilter(caller: Pick<UserRow, 'id' | 'role'>, query: AuditFilterQuery): AuditFilter {
    const filter: AuditFilter = {
      resource: query.resource,
      action: query.action,
      actorId: query.actor_id || undefined,
      targetId: query.target_id || undefined,
      startTimestamp: query.start_timestamp,
      endTimestamp: query.end_timestamp,
    };
    if (isRootRole(caller.role)) return filter;
    if (filter.actorId !== undefined && filter.actorId !== caller.id) {
      throw AppError.forbidden('actor_id: an administrator sees only its own actions in the audit log');
    }
    return { ...filter, actorId: caller.id };
  }

  async list(caller: Pick<UserRow, 'id' | 'role'>, query: AuditListQuery): Promise<Paged<AuditLogItem>> {
    const page = await this.repo.list(this.visibleFilter(caller, query), query);
    return { ...page, data: page.data.map(toAuditLogItem) };
  }

  /** A keyset page of `filter` (from visibleFilter), newest first: what an export reads, page by page. */
  async listPageAfter(filter: AuditFilter, afterId: number, limit: number): Promise<AuditLogItem[]> {
    return (await this.repo.listPageAfter(filter, afterId, limit)).map(toAuditLogItem);
  }

  /**
   * Every row `list` would show the caller under the same filters, newest first, read a page at a
   * time. The caller's access is checked now, so a refusal is an ordinary error reply, not a cut file.
   */
  exportRows(
    caller: Pick<UserRow, 'id' | 'role'>,
    query: AuditExportQuery,
    pageSize = AUDIT_EXPORT_PAGE_SIZE,
  ): ExportTable<AuditLogItem> {
    const filter = this.visibleFilter(caller, query);
    return { pages: this.pages(filter, pageSize), columns: AUDIT_EXPORT_COLUMNS, fileStem: 'audit' };
  }

  private async *pages(filter: AuditFilter, pageSize: number): AsyncGenerator<AuditLogItem[]> {
    let afterId = 0;
    for (;;) {
      const rows = await this.listPageAfter(filter, afterId, pageSize);
      if (rows.length > 0) yield rows;
      if (rows.length < pageSize) return;
      afterId = rows[rows.length - 1]?.id ?? 0;
    }
  }

  /** Retention: one bounded batch of rows created before `before` (see AuditRepository.deleteBefore). */
  deleteExpiredBatch(before: number, limit: number): Promise<number> {
    return this.repo.deleteBefore(before, limit);
  }
}
