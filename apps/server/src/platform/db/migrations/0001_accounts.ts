import { type AnyDb, createTableWithId, finishTable, type MigrationContext } from './helpers.js';

/** Users, options, user groups and logs; seeds the `default` user group. */
export async function up(db: AnyDb, context: MigrationContext): Promise<void> {
  await finishTable(
    createTableWithId(db, context, 'users')
      .addColumn('username', 'varchar(64)', (column) => column.notNull().unique())
      .addColumn('password', 'varchar(255)', (column) => column.notNull())
      .addColumn('display_name', 'varchar(64)', (column) => column.notNull().defaultTo(''))
      .addColumn('role', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('status', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('email', 'varchar(100)', (column) => column.notNull().defaultTo(''))
      .addColumn('avatar_url', 'varchar(500)', (column) => column.notNull().defaultTo(''))
      .addColumn('oidc_id', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('github_id', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('github_id_new', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('wechat_id', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('lark_id', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('telegram_id', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('access_token_hash', 'varchar(64)', (column) => column.unique())
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('used_quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('request_count', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('group', 'varchar(50)', (column) => column.notNull().defaultTo('default'))
      .addColumn('aff_code', 'varchar(32)', (column) => column.notNull().unique())
      .addColumn('inviter_id', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('last_login_time', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('last_login_ip', 'varchar(128)', (column) => column.notNull().defaultTo(''))
      .addColumn('created_time', 'bigint', (column) => column.notNull())
      .addColumn('deleted_at', 'bigint'),
    context,
  ).execute();
  await db.schema.createIndex('idx_users_email').on('users').column('email').execute();
  await db.schema.createIndex('idx_users_display_name').on('users').column('display_name').execute();
  await db.schema.createIndex('idx_users_deleted_at').on('users').column('deleted_at').execute();

  await finishTable(
    db.schema
      .createTable('options')
      .addColumn('key', 'varchar(100)', (column) => column.primaryKey())
      .addColumn('value', 'text', (column) => column.notNull()),
    context,
  ).execute();

  await finishTable(
    createTableWithId(db, context, 'user_groups')
      .addColumn('symbol', 'varchar(50)', (column) => column.notNull().unique())
      .addColumn('name', 'varchar(50)', (column) => column.notNull())
      .addColumn('ratio', 'double precision', (column) => column.notNull().defaultTo(1))
      .addColumn('api_rate', 'integer', (column) => column.notNull().defaultTo(600))
      .addColumn('public', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('promotion', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('min', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('max', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('enable', 'boolean', (column) => column.notNull().defaultTo(true)),
    context,
  ).execute();

  await finishTable(
    createTableWithId(db, context, 'logs', 'bigint')
      .addColumn('user_id', 'integer', (column) => column.notNull())
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('type', 'integer', (column) => column.notNull())
      .addColumn('content', 'text', (column) => column.notNull())
      .addColumn('username', 'varchar(64)', (column) => column.notNull().defaultTo(''))
      .addColumn('token_name', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('model_name', 'varchar(255)', (column) => column.notNull().defaultTo(''))
      .addColumn('quota', 'bigint', (column) => column.notNull().defaultTo(0))
      .addColumn('prompt_tokens', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('completion_tokens', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('channel_id', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('request_time', 'integer', (column) => column.notNull().defaultTo(0))
      .addColumn('is_stream', 'boolean', (column) => column.notNull().defaultTo(false))
      .addColumn('source_ip', 'varchar(128)', (column) => column.notNull().defaultTo(''))
      .addColumn('metadata', 'text', (column) => column.notNull()),
    context,
  ).execute();
  await db.schema.createIndex('idx_logs_created_at_type').on('logs').columns(['created_at', 'type']).execute();
  await db.schema.createIndex('idx_logs_user_id').on('logs').column('user_id').execute();
  await db.schema.createIndex('idx_logs_model_username').on('logs').columns(['model_name', 'username']).execute();
  await db.schema.createIndex('idx_logs_token_name').on('logs').column('token_name').execute();
  await db.schema.createIndex('idx_logs_channel_id').on('logs').column('channel_id').execute();

  const seeded = [
    { symbol: 'default', name: '默认分组', public: true },
    { symbol: 'vip', name: 'VIP', public: false },
    { symbol: 'svip', name: 'SVIP', public: false },
  ];
  await db
    .insertInto('user_groups')
    .values(
      seeded.map((group) => ({ ...group, ratio: 1, api_rate: 600, promotion: false, min: 0, max: 0, enable: true })),
    )
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['logs', 'user_groups', 'options', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
