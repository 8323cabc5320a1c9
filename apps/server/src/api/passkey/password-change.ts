import type { DatabaseHandle } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { AccountBindingRepository } from '../account/bindings-repo.js';
import { PasskeyRepository } from './repo.js';
import { type PasskeyView, toPasskeyView } from './wire.js';

/** `true`: every passkey of the user; a list: those ids. */
export type PasskeyRemoval = true | readonly number[] | undefined;

/**
 * Passkeys outlive a password change, so whoever changes or resets a password (perhaps because
 * someone else got in) is shown the account's passkeys and may remove them in the same step.
 */
export class PasskeysOnPasswordChange {
  private readonly repo: PasskeyRepository;
  private readonly bindings: AccountBindingRepository;

  constructor(database: DatabaseHandle) {
    this.repo = new PasskeyRepository(database);
    this.bindings = new AccountBindingRepository(database);
  }

  /** Refuses, before anything is written, a removal that is not part of a password change or names a foreign id. */
  async check(userId: number, removal: PasskeyRemoval, changesPassword: boolean): Promise<void> {
    if (removal === undefined) return;
    if (!changesPassword) throw AppError.badRequest('remove_passkeys: only together with a new password');
    if (removal === true) return;
    const owned = new Set((await this.repo.listByUser(userId)).map((row) => row.id));
    const foreign = removal.find((id) => !owned.has(id));
    if (foreign !== undefined) throw AppError.badRequest(`remove_passkeys: this user has no passkey ${foreign}`);
  }

  /** Removes the chosen passkeys once the password changed; the passkeys the user still has. */
  async removeAfterChange(userId: number, removal: PasskeyRemoval): Promise<PasskeyView[]> {
    if (removal !== undefined) await this.repo.deleteManyOwned(userId, removal === true ? 'all' : removal);
    return (await this.repo.listByUser(userId)).map(toPasskeyView);
  }

  /** After a reset by e-mail link: the user the reset found by this address, as the reset did. */
  async removeAfterReset(email: string, removeAll: boolean): Promise<PasskeyView[]> {
    const user = await this.bindings.findByEmail(email);
    return user ? this.removeAfterChange(user.id, removeAll ? true : undefined) : [];
  }
}
