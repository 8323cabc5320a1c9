import type { LogEvent, LogType } from '@one-hub/contracts';
import { blankLogRow, fitLogColumn } from '../../domain/log-rows.js';
import { nowSeconds } from '../../platform/clock.js';
import type { Executor, NewLogRow } from '../../platform/db/index.js';
import { insertLogRows } from './writer.js';

export interface LogEntry {
  userId: number;
  username: string;
  type: LogType;
  content: string;
  quota?: number;
  sourceIp?: string;
  requestId?: string;
  /**
   * The same fact as `content`, in structured form for the console to word in the reader's
   * language; `content` keeps One Hub's text for the consoles and scripts that read it.
   */
  event?: LogEvent;
}

export class LogRepository {
  /** Writes one log row inside the caller's transaction, so the log and the change it records land together. */
  async insert(executor: Executor, entry: LogEntry): Promise<void> {
    const row: NewLogRow = {
      ...blankLogRow(entry.type),
      user_id: entry.userId,
      username: fitLogColumn('username', entry.username),
      created_at: nowSeconds(),
      content: entry.content,
      quota: entry.quota ?? 0,
      source_ip: fitLogColumn('source_ip', entry.sourceIp ?? ''),
      request_id: fitLogColumn('request_id', entry.requestId ?? ''),
      metadata: entry.event ? JSON.stringify(entry.event) : '{}',
    };
    await executor.insertInto('logs').values(row).execute();
  }

  /**
   * Writes rows already built (the relay's consume and error logs) with their consume totals in
   * the statistics, in the caller's transaction; a field, so the crash journal's replay can be
   * handed it alone.
   */
  readonly insertRows = insertLogRows;
}
