import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.js';

/** Either the database or an open transaction: repositories accept both so services compose writes. */
export type Executor = Kysely<Database> | Transaction<Database>;
