import type { AnyDb, MigrationContext } from './helpers.js';

/**
 * Indexes for the filters a user applies to their own logs, which migration 0012 served only by
 * walking all of the user's rows: the list by model or by token (user_id, column, then the list's
 * order), and the statistics by token, which the daily roll-up cannot answer and which sum the
 * logs. `type` and `quota` ride at the end so those sums read the index alone (an InnoDB lookup
 * of each row cost 0.7 s for one typical user at 10M rows). The administrators' token index
 * gains the same two columns for the same sum and replaces 0012's, a prefix of it.
 *
 * What building them on a large table does: MySQL (InnoDB) adds secondary indexes online, with
 * writes going on meanwhile. SQLite holds its one write lock for the build; readers go on (WAL).
 * PostgreSQL runs every pending migration in one transaction, where CREATE INDEX CONCURRENTLY is
 * refused, so inserts into `logs` wait until the migration commits (reads go on, except for the
 * moment between dropping the replaced index and the commit). At 10M rows that is tens of
 * seconds per index; log rows queue in the writer's batches meanwhile.
 */
const NEW_INDEXES: Record<string, string[]> = {
  idx_logs_user_model_time: ['user_id', 'model_name', 'created_at', 'id', 'type', 'quota'],
  idx_logs_user_token_time: ['user_id', 'token_name', 'created_at', 'id', 'type', 'quota'],
  idx_logs_token_time_quota: ['token_name', 'created_at', 'id', 'type', 'quota'],
};

/** Migration 0012's token index: a prefix of idx_logs_token_time_quota, so it only cost writes. */
const REPLACED: Record<string, string[]> = {
  idx_logs_token_time: ['token_name', 'created_at', 'id'],
};

async function createIndexes(db: AnyDb, indexes: Record<string, string[]>): Promise<void> {
  for (const [name, columns] of Object.entries(indexes)) {
    await db.schema.createIndex(name).on('logs').columns(columns).execute();
  }
}

async function dropIndexes(db: AnyDb, context: MigrationContext, names: string[]): Promise<void> {
  for (const name of names) {
    // Only MySQL names the table of an index it drops.
    const drop = db.schema.dropIndex(name);
    await (context.dialect === 'mysql' ? drop.on('logs') : drop).execute();
  }
}

export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  // The new ones first, so the token filter always has an index; the drop last, so PostgreSQL's
  // exclusive lock for it lasts only until the commit right after.
  await createIndexes(db, NEW_INDEXES);
  await dropIndexes(db, context, Object.keys(REPLACED));
}

export async function down(db: AnyDb, context: MigrationContext): Promise<void> {
  await createIndexes(db, REPLACED);
  await dropIndexes(db, context, Object.keys(NEW_INDEXES));
}
