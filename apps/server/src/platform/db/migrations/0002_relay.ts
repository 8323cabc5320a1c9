import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/** API keys, channels, prices, and the extra log columns the relay writes. */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    createTableWithId(db, context, 'tokens')
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('name', 'varchar(64)', (column) => column.notNull())
      // SHA-256 of the key: what requests are looked up by. The key itself is only kept encrypted.
      .addColumn('key_hash', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('key_cipher', 'text', (column) => column.notNull())
      .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('created_time', 'bigint', (column) => column.notNull())
      .addColumn('accessed_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('expired_time', 'bigint', (column) => column.notNull().defaultTo(-1))
      .addColumn('remain_quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('unlimited_quota', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('used_quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('group', 'varchar(50)', (column) => column.notNull().defaultTo(''))
      .addColumn('backup_group', 'varchar(50)', (column) => column.notNull().defaultTo(''))
      // JSON: {heartbeat, limits: {limit_model_setting, limits_ip_setting, rpm, concurrency}}.
      .addColumn('setting', 'text', (column) => column.notNull())
      .addColumn('deleted_at', 'bigint'),
    context,
  ).execute();
  await db.schema.createIndex('idx_tokens_user_id').on('tokens').column('user_id').execute();
  await db.schema.createIndex('idx_tokens_name').on('tokens').column('name').execute();

  await finishTable(
    createTableWithId(db, context, 'channels')
      .addColumn('type', 'integer', (column) => column.notNull().defaultTo(1))
      // Encrypted at rest (AES-256-GCM); only root and admins ever see the plain key.
      .addColumn('key', 'text', (column) => column.notNull())
      .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('name', 'varchar(255)', (column) => column.notNull())
      .addColumn('weight', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('created_time', 'bigint', (column) => column.notNull())
      .addColumn('test_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('response_time', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('base_url', 'varchar(500)', (column) => column.notNull().defaultTo(''))
      .addColumn('other', 'text', (column) => column.notNull())
      .addColumn('balance', 'double precision', (column) => column.notNull().defaultTo(0))
      .addColumn('balance_updated_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('models', 'text', (column) => column.notNull())
      .addColumn('group', 'varchar(255)', (column) => column.notNull().defaultTo('default'))
      .addColumn('tag', 'varchar(64)', (column) => column.notNull().defaultTo(''))
      .addColumn('used_quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('model_mapping', 'text', (column) => column.notNull())
      .addColumn('model_headers', 'text', (column) => column.notNull())
      .addColumn('custom_parameter', 'text', (column) => column.notNull())
      .addColumn('priority', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('proxy', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('test_model', 'varchar(100)', (column) => column.notNull().defaultTo(''))
      .addColumn('only_chat', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('pre_cost', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('compatible_response', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('allow_extra_body', 'boolean', (column) => column.notNull().defaultTo(false))
      // JSON array of model names for which this channel is skipped on streamed requests.
      .addColumn('disabled_stream', 'text', (column) => column.notNull())
      // JSON object {pluginName: {param: value}}.
      .addColumn('plugin', 'text', (column) => column.notNull())
      .addColumn('deleted_at', 'bigint'),
    context,
  ).execute();
  await db.schema.createIndex('idx_channels_name').on('channels').column('name').execute();
  await db.schema.createIndex('idx_channels_tag').on('channels').column('tag').execute();

  await finishTable(
    db.schema
      .createTable('prices')
      .addColumn('model', 'varchar(100)', (column) => column.primaryKey())
      .addColumn('type', 'varchar(16)', (column) => column.notNull().defaultTo('tokens'))
      .addColumn('channel_type', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('input', 'double precision', (column) => column.notNull().defaultTo(0))
      .addColumn('output', 'double precision', (column) => column.notNull().defaultTo(0))
      .addColumn('locked', 'boolean', (column) => column.notNull().defaultTo(false))
      // JSON object {cached_tokens: ratio, …}.
      .addColumn('extra_ratios', 'text', (column) => column.notNull()),
    context,
  ).execute();

  await db.schema
    .alterTable('logs')
    .addColumn('token_id', 'integer', (column) => column.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('logs')
    .addColumn('request_id', 'varchar(64)', (column) => column.notNull().defaultTo(''))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('logs').dropColumn('request_id').execute();
  await db.schema.alterTable('logs').dropColumn('token_id').execute();
  for (const table of ['prices', 'channels', 'tokens']) await db.schema.dropTable(table).ifExists().execute();
}
