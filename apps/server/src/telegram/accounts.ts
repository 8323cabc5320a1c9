import { UserStatus } from '@one-hub/contracts';
import type { UserRepository } from '../api/user/repo.js';
import type { UserService } from '../api/user/service.js';
import { sha256Hex } from '../platform/crypto.js';
import type { DatabaseHandle, UserRow } from '../platform/db/index.js';

export type BindOutcome = 'bound' | 'invalid-token' | 'user-taken' | 'telegram-taken';

/** Links between One Hub accounts and Telegram accounts (`users.telegram_id`, 0 = none). */
export class TelegramAccounts {
  constructor(
    private readonly handle: DatabaseHandle,
    private readonly userRepository: UserRepository,
    private readonly users: UserService,
  ) {}

  /** The enabled account bound to this Telegram user, if any. */
  async findBound(telegramId: number): Promise<UserRow | undefined> {
    const user = await this.findAnyBound(telegramId);
    return user?.status === UserStatus.enabled ? user : undefined;
  }

  findAnyBound(telegramId: number): Promise<UserRow | undefined> {
    return this.handle.db
      .selectFrom('users')
      .selectAll()
      .where('telegram_id', '=', telegramId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Binds the account whose management access token this is; each side may be bound once. */
  async bind(telegramId: number, accessToken: string): Promise<{ outcome: BindOutcome; user?: UserRow }> {
    const user = await this.userRepository.findByAccessTokenHash(sha256Hex(accessToken.trim()));
    if (!user || user.status !== UserStatus.enabled || user.deleted_at !== null) return { outcome: 'invalid-token' };
    if (Number(user.telegram_id) !== 0) return { outcome: 'user-taken', user };
    if (await this.findAnyBound(telegramId)) return { outcome: 'telegram-taken', user };
    // Conditional, so two binds racing for the same account cannot both win.
    const result = await this.handle.db
      .updateTable('users')
      .set({ telegram_id: telegramId })
      .where('id', '=', user.id)
      .where('telegram_id', '=', 0)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return { outcome: 'user-taken', user };
    this.users.userChanged(user.id);
    return { outcome: 'bound', user };
  }

  /** False when this Telegram user had no account bound. */
  async unbind(telegramId: number): Promise<boolean> {
    const user = await this.findAnyBound(telegramId);
    if (!user) return false;
    await this.handle.db.updateTable('users').set({ telegram_id: 0 }).where('id', '=', user.id).execute();
    this.users.userChanged(user.id);
    return true;
  }

  /** The user's invite code, created on first use as at sign-up. */
  async affCode(user: UserRow): Promise<string> {
    if (user.aff_code) return user.aff_code;
    const code = await this.userRepository.unusedAffCode();
    await this.handle.db
      .updateTable('users')
      .set({ aff_code: code })
      .where('id', '=', user.id)
      .where('aff_code', '=', '')
      .execute();
    const fresh = await this.userRepository.findById(user.id);
    return fresh?.aff_code ?? code;
  }
}
