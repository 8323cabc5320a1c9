export { type DatabaseHandle, type DatabaseTarget, type DialectName, dialectOf, openDatabase } from './connect.js';
export { isTransactionConflict, isUniqueViolation } from './errors.js';
export type { Executor } from './executor.js';
export { insertReturningId } from './insert.js';
export { migrateToLatest } from './migrations/index.js';
export { fetchPage, parseOrder, startsWithIgnoringCase, whereGiven } from './paging.js';
export * from './schema.js';
