import { type BindingType, UserStatus, usernameField } from '@one-hub/contracts';
import { randomString } from '../../../platform/crypto.js';
import type { UserRow, UserUpdate } from '../../../platform/db/index.js';
import { AppError } from '../../../platform/errors.js';
import type { OptionService } from '../../option/service.js';
import type { UserRepository } from '../../user/repo.js';
import type { UserService } from '../../user/service.js';
import type { AccountBindingRepository, BindingKey } from '../bindings-repo.js';
import { isEmailDomainAllowed } from '../email.js';

/** Who a provider says the caller is, in the terms of our users table. */
export interface ExternalIdentity {
  provider: BindingType;
  /** The provider's ids, stored on the user when it signs in, registers or binds. */
  binding: Pick<UserUpdate, 'github_id' | 'github_id_new' | 'oidc_id' | 'lark_id' | 'wechat_id'>;
  /** Ways to recognise a user already bound to this identity, strongest first. */
  keys: BindingKey[];
  /**
   * Username for a new user, tried before `<provider>_<n>`. Never used to find an existing user:
   * whoever registers that name first would receive the provider account's sign-ins.
   */
  preferredUsername?: string;
  displayName: string;
  email: string;
  /**
   * True only when the provider says it verified `email` (GitHub's `/user/emails`, OIDC's
   * `email_verified`). Only then may it find an existing user, and only one whose own address is verified.
   */
  emailVerified: boolean;
  avatarUrl: string;
}

export const providerLabels: Record<BindingType, string> = {
  github: 'GitHub',
  oidc: 'OIDC',
  lark: 'Lark',
  wechat: 'WeChat',
};

const unbindPatches: Record<BindingType, UserUpdate> = {
  github: { github_id: '', github_id_new: 0 },
  oidc: { oidc_id: '' },
  lark: { lark_id: '' },
  wechat: { wechat_id: '' },
};

/** The column that says whether a user is already bound to some account at this provider. */
const boundColumn: Record<BindingType, 'github_id_new' | 'oidc_id' | 'lark_id' | 'wechat_id'> = {
  github: 'github_id_new',
  oidc: 'oidc_id',
  lark: 'lark_id',
  wechat: 'wechat_id',
};

/** Signs in, registers, binds and unbinds users by an identity an external provider vouched for. */
export class ExternalAccounts {
  constructor(
    private readonly bindings: AccountBindingRepository,
    private readonly users: UserRepository,
    private readonly userService: UserService,
    private readonly options: OptionService,
  ) {}

  /** The user this identity belongs to, registering one when allowed. Refuses disabled users. */
  async signIn(identity: ExternalIdentity, context: { affCode?: string; sourceIp: string }): Promise<UserRow> {
    const existing = await this.findExisting(identity);
    if (existing) {
      if (existing.status !== UserStatus.enabled) throw AppError.forbidden('this user is disabled');
      await this.bindings.update(existing.id, this.changedBinding(existing, identity));
      return (await this.users.findById(existing.id)) ?? existing;
    }
    if (!this.options.getBoolean('RegisterEnabled')) {
      throw AppError.forbidden(
        `registration is closed on this site and no user is bound to this ${providerLabels[identity.provider]} account`,
      );
    }
    return this.register(identity, context);
  }

  /** Binds the identity to the signed-in user, unless another user holds it already. */
  async bind(user: UserRow, identity: ExternalIdentity): Promise<UserRow> {
    const [primary] = identity.keys;
    if (primary && (await this.bindings.findByBinding(primary, user.id))) {
      throw AppError.conflict(`this ${providerLabels[identity.provider]} account is already bound to another user`);
    }
    await this.bindings.update(user.id, identity.binding);
    return (await this.users.findById(user.id)) ?? user;
  }

  /** What every sign-in records: the time and the address. Refuses disabled users. */
  async recordSignIn(user: UserRow, sourceIp: string): Promise<UserRow> {
    if (user.status !== UserStatus.enabled) throw AppError.forbidden('this user is disabled');
    await this.users.recordLogin(user.id, sourceIp);
    return (await this.users.findById(user.id)) ?? user;
  }

  async unbind(user: UserRow, type: BindingType): Promise<void> {
    await this.bindings.update(user.id, unbindPatches[type]);
  }

  private async findExisting(identity: ExternalIdentity): Promise<UserRow | undefined> {
    const column = boundColumn[identity.provider];
    // A weaker match never takes over a user bound to a different account at the same provider
    // (GitHub logins, for one, are recycled).
    const unbound = (user: UserRow | undefined) =>
      user && (!user[column] || user[column] === identity.binding[column]) ? user : undefined;
    const [primary, ...weaker] = identity.keys;
    const strongest = primary ? await this.bindings.findByBinding(primary) : undefined;
    if (strongest) return strongest;
    for (const key of weaker) {
      const user = unbound(await this.bindings.findByBinding(key));
      if (user) return user;
    }
    if (identity.email && identity.emailVerified) {
      // A user who typed in an address without proving it must not receive its owner's sign-ins.
      const user = unbound(await this.bindings.findByEmail(identity.email));
      if (user && Number(user.email_verified) === 1) return user;
    }
    return undefined;
  }

  private changedBinding(user: UserRow, identity: ExternalIdentity): UserUpdate {
    const patch: UserUpdate = {};
    for (const [column, value] of Object.entries(identity.binding) as Array<[keyof UserRow, string | number]>) {
      if (value !== undefined && user[column] !== value) Object.assign(patch, { [column]: value });
    }
    return patch;
  }

  private async register(identity: ExternalIdentity, context: { affCode?: string; sourceIp: string }) {
    const username = await this.chooseUsername(identity);
    const inviter = context.affCode ? await this.users.findByAffCode(context.affCode) : undefined;
    const email =
      identity.email &&
      isEmailDomainAllowed(this.options, identity.email) &&
      !(await this.users.isEmailTaken(identity.email))
        ? identity.email
        : undefined;
    const created = await this.userService.createAccount({
      username,
      // Nobody knows this password; the user signs in through the provider or resets it by e-mail.
      password: randomString(32),
      displayName: identity.displayName.trim().slice(0, 20) || username,
      email,
      emailVerified: identity.emailVerified,
      inviterId: inviter?.id,
      sourceIp: context.sourceIp,
    });
    await this.bindings.update(created.id, { ...identity.binding, avatar_url: identity.avatarUrl.slice(0, 500) });
    return (await this.users.findById(created.id)) ?? created;
  }

  private async chooseUsername(identity: ExternalIdentity): Promise<string> {
    const preferred = identity.preferredUsername?.trim() ?? '';
    if (
      preferred &&
      !/\s/.test(preferred) &&
      usernameField.safeParse(preferred).success &&
      !(await this.users.isUsernameTaken(preferred))
    ) {
      return preferred;
    }
    const next = (await this.bindings.maxUserId()) + 1;
    for (let attempt = 0; attempt < 5; attempt++) {
      const candidate = `${identity.provider}_${next + attempt}`;
      if (!(await this.users.isUsernameTaken(candidate))) return candidate;
    }
    return `${identity.provider}_${randomString(8, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
  }
}
