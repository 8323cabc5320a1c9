import type { Insertable, Selectable } from 'kysely';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { insertReturningId } from '../../platform/db/index.js';
import type { WebauthnCredentialsTable } from '../../platform/db/schema.js';

export type PasskeyRow = Selectable<WebauthnCredentialsTable>;
export type NewPasskeyRow = Insertable<WebauthnCredentialsTable>;

/** Queries on `webauthn_credentials`; every one that touches a user's passkeys names the user. */
export class PasskeyRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  listByUser(userId: number): Promise<PasskeyRow[]> {
    return this.handle.db
      .selectFrom('webauthn_credentials')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    return this.handle.db
      .selectFrom('webauthn_credentials')
      .selectAll()
      .where('credential_id', '=', credentialId)
      .executeTakeFirst();
  }

  insert(row: NewPasskeyRow): Promise<number> {
    return insertReturningId(this.handle, this.handle.db.insertInto('webauthn_credentials').values(row));
  }

  /** Records a use: the authenticator's new counter and whether the key is now backed up. */
  async recordUse(id: number, signCount: number, backedUp: boolean): Promise<void> {
    await this.handle.db
      .updateTable('webauthn_credentials')
      .set({ sign_count: signCount, backup_state: backedUp })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes one of the user's passkeys; false when the user has none with this id. */
  async deleteOwned(userId: number, id: number): Promise<boolean> {
    const result = await this.handle.db
      .deleteFrom('webauthn_credentials')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes the user's passkeys, all of them or those ids; ids of other users are left alone. */
  async deleteManyOwned(userId: number, ids: 'all' | readonly number[]): Promise<void> {
    if (ids !== 'all' && ids.length === 0) return;
    let query = this.handle.db.deleteFrom('webauthn_credentials').where('user_id', '=', userId);
    if (ids !== 'all') query = query.where('id', 'in', [...ids]);
    await query.execute();
  }
}
