import type { SystemLogEntry } from '@one-hub/contracts';
import type { SystemLogBuffer } from '../../platform/logger.js';

/** Root's view of this node's recent server log lines (the reference's system-log viewer). */
export interface SystemLogService {
  /** The last `count` lines, oldest first; fewer when the buffer holds fewer. */
  recent(count: number): SystemLogEntry[];
}

/** A logger that keeps no buffer (one not made by `createLogger`) shows an empty log. */
export function createSystemLogService(buffer: SystemLogBuffer | undefined): SystemLogService {
  return {
    recent: (count) => (buffer ? buffer.recent(count) : []),
  };
}
