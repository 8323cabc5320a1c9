import type { AnyDb } from './helpers.js';

/** Sign-in with GitHub, OIDC, Lark or WeChat looks users up by these columns; index them. */
const bindingColumns = ['github_id_new', 'github_id', 'oidc_id', 'lark_id', 'wechat_id'] as const;

export async function up(db: AnyDb): Promise<void> {
  for (const column of bindingColumns) {
    await db.schema.createIndex(`idx_users_${column}`).on('users').column(column).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of bindingColumns) {
    await db.schema.dropIndex(`idx_users_${column}`).on('users').execute();
  }
}
