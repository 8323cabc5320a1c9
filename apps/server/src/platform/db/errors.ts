/** True when a driver error is a unique-constraint violation, on any of the three databases. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505' ||
    code === 'ER_DUP_ENTRY' ||
    errno === 1062
  );
}

/**
 * True when a transaction lost a race another one won and running it again may succeed: a unique
 * violation (the row it meant to insert now exists) or a deadlock or serialization failure.
 */
export function isTransactionConflict(error: unknown): boolean {
  if (isUniqueViolation(error)) return true;
  if (!error || typeof error !== 'object') return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return code === '40P01' || code === '40001' || code === 'ER_LOCK_DEADLOCK' || errno === 1213;
}

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  // PostgreSQL: a read-only transaction (a replica, or a primary demoted by a failover).
  '25006',
  // Batches from several nodes add to the same statistics rows: a deadlock or lock timeout is retried.
  '40P01',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  // MySQL: read-only server, full table or disk, out of memory, too many connections, shutting down.
  'ER_OPTION_PREVENTS_STATEMENT',
  'ER_RECORD_FILE_FULL',
  'ER_DISK_FULL',
  'ER_OUT_OF_RESOURCES',
  'ER_OUTOFMEMORY',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
]);

/**
 * SQLite result codes (and their extended forms, such as SQLITE_IOERR_WRITE) that concern the
 * database file as a whole: busy or locked, full, read-only, failing I/O.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|NOMEM)(_|$)/;

/**
 * PostgreSQL SQLSTATE classes of the same kind: 08 connection exception, 53 insufficient
 * resources (disk full, out of memory, too many connections), 57P operator intervention (shutting
 * down, starting up).
 */
const POSTGRES_UNAVAILABLE = /^(08|53|57P)/;

/**
 * True when the database could not take any write for now (unreachable, busy, full, read-only):
 * such a batch is kept and retried. Every other failure means a row itself was refused; taking
 * the former for the latter would report every row of every batch lost while it lasts.
 */
export function isConnectionError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, fatal, message } = error as { code?: unknown; fatal?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code) || SQLITE_UNAVAILABLE.test(code) || POSTGRES_UNAVAILABLE.test(code)) {
      return true;
    }
  }
  // mysql2 marks errors that broke the connection as fatal; pg's pool reports a dead socket only in words.
  if (fatal === true) return true;
  return typeof message === 'string' && /connection terminated|timeout exceeded when trying to connect/i.test(message);
}
