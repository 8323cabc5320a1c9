import { LogType } from '@one-hub/contracts';
import { blankLogRow } from '../src/domain/log-rows.js';
import type { NewLogRow } from '../src/platform/db/index.js';

/** A consume log of user 1 with every column empty or zero, but for `fields`. */
export function logRow(fields: Partial<NewLogRow> = {}): NewLogRow {
  return { ...blankLogRow(LogType.consume), user_id: 1, created_at: 1_700_000_000, ...fields };
}
