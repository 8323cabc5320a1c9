import type { AnyDb, MigrationContext } from './helpers.js';

/**
 * Indexes for the filter pairs the Logs screen sends together, which migrations 0012 and 0014
 * served by walking one filter's index and reading each row for the other: at 10M logs, a user's
 * name with a key that user does not have read all of that user's rows (a heavy user's 600,000)
 * for an empty page, and the capped count read up to tens of thousands of rows when they matched.
 * Each is both columns, then the list's order (created_at, id), so a page and its count are a
 * walk of exactly the matching entries, and a pair that matches nothing is one seek. The pairs
 * with a key also carry `type` and `quota`, so the statistics' sums over them (the roll-up has no
 * key) read the index alone, as 0014's indexes do for a user's own key. The model and channel
 * pairs with a user need no sum: the statistics read them from the roll-up.
 *
 * Six more indexes to write on every log insert (18 on `logs` in all). Pairs left out (a channel
 * with a key or a model, a source IP with anything) still walk one filter's index and read the
 * rows for the other; a request id matches a row or two whatever comes with it.
 *
 * Building them on a large table holds writes to `logs` on SQLite and PostgreSQL for the build
 * (tens of seconds per index at 10M rows; log rows wait in the writer's batches), as 0014's did;
 * MySQL builds them online.
 */
const NEW_INDEXES: Record<string, string[]> = {
  idx_logs_username_token_time: ['username', 'token_name', 'created_at', 'id', 'type', 'quota'],
  idx_logs_username_model_time: ['username', 'model_name', 'created_at', 'id'],
  idx_logs_username_channel_time: ['username', 'channel_id', 'created_at', 'id'],
  // With user_id: a user's own logs by key and model check it in the index, not row by row.
  idx_logs_token_model_time: ['token_name', 'model_name', 'created_at', 'id', 'type', 'quota', 'user_id'],
  // A log type with a user, on the user's own screen and the administrators': the types other than
  // consume are 2% of the rows, so their page and count walked nearly all of the user's rows.
  idx_logs_user_type_time: ['user_id', 'type', 'created_at', 'id'],
  idx_logs_username_type_time: ['username', 'type', 'created_at', 'id'],
};

export async function up(db: AnyDb): Promise<void> {
  for (const [name, columns] of Object.entries(NEW_INDEXES)) {
    await db.schema.createIndex(name).on('logs').columns(columns).execute();
  }
}

export async function down(db: AnyDb, context: MigrationContext): Promise<void> {
  for (const name of Object.keys(NEW_INDEXES)) {
    // Only MySQL names the table of an index it drops.
    const drop = db.schema.dropIndex(name);
    await (context.dialect === 'mysql' ? drop.on('logs') : drop).execute();
  }
}
