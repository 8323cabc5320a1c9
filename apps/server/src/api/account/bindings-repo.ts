import type { DatabaseHandle, UserRow, UserUpdate } from '../../platform/db/index.js';

/** Columns that hold a user's id at an external identity provider. */
export type TextBindingColumn = 'github_id' | 'oidc_id' | 'lark_id' | 'wechat_id';

/** The identity to look for: a text column, or GitHub's numeric id. */
export type BindingKey = { column: TextBindingColumn; value: string } | { column: 'github_id_new'; value: number };

/** Queries for signing in with, binding and unbinding external identities. */
export class AccountBindingRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  private live() {
    return this.handle.db.selectFrom('users').selectAll().where('deleted_at', 'is', null);
  }

  /** The oldest live user holding this identity; empty values never match. */
  async findByBinding(key: BindingKey, exceptUserId = 0): Promise<UserRow | undefined> {
    if (!key.value) return undefined;
    const query =
      key.column === 'github_id_new'
        ? this.live().where('github_id_new', '=', key.value)
        : this.live().where(key.column, '=', key.value);
    return query.where('id', '!=', exceptUserId).orderBy('id').executeTakeFirst();
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    if (!email) return undefined;
    return this.live().where('email', '=', email).orderBy('id').executeTakeFirst();
  }

  /** Highest user id ever issued (deleted users included), for names like `github_<n>`. */
  async maxUserId(): Promise<number> {
    const row = await this.handle.db
      .selectFrom('users')
      .select((expression) => expression.fn.max('id').as('highest'))
      .executeTakeFirst();
    return Number(row?.highest ?? 0);
  }

  async update(id: number, patch: UserUpdate): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await this.handle.db.updateTable('users').set(patch).where('id', '=', id).where('deleted_at', 'is', null).execute();
  }
}
