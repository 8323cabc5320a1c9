import type { LogEvent, LogType } from '@one-hub/contracts';
import { fitLogColumn } from '../../domain/log-columns.js';
import { nowSeconds } from '../../platform/clock.js';
import type { Executor, NewLogRow } from '../../platform/db/index.js';

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

/** A log row of `type` with every other column empty or zero (user 0, time 0): fill in what applies. */
export function blankLogRow(type: LogType): NewLogRow {
  return {
    user_id: 0,
    username: '',
    created_at: 0,
    type,
    content: '',
    quota: 0,
    source_ip: '',
    token_name: '',
    model_name: '',
    prompt_tokens: 0,
    completion_tokens: 0,
    channel_id: 0,
    request_time: 0,
    is_stream: false,
    metadata: '{}',
    token_id: 0,
    request_id: '',
  };
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
}
