import {
  type AdminTokenSearchQuery,
  type AdminTokenView,
  type AdminUpdateTokenBody,
  type CreateTokenBody,
  defaultTokenSetting,
  isReliableRole,
  isRootRole,
  maskKey,
  NEVER_EXPIRES,
  outranks,
  type Paged,
  PLAYGROUND_TOKEN_NAME,
  type TokenListQuery,
  type TokenSetting,
  TokenStatus,
  type TokenStatusBody,
  type TokenView,
  type UpdateTokenBody,
} from '@one-hub/contracts';
import { generateTokenKey, hashTokenKey } from '../../domain/token-keys.js';
import type { ChangeBus } from '../../platform/changes.js';
import { nowSeconds } from '../../platform/clock.js';
import { isUniqueViolation, type TokenRow, toBoolean, type UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { UserGroupService } from '../user-group/service.js';
import { recordTokenChange } from './audit.js';
import { toAdminTokenView, toTokenView } from './presenter.js';
import type { TokenRepository, TokenUpdate } from './repo.js';
import { assertStatusChange, type TokenLimits } from './rules.js';
import { readTokenSetting, withBillingTag, writeTokenSetting } from './setting.js';

type NewToken = Omit<CreateTokenBody, 'setting'> & { setting: TokenSetting };

export class TokenService {
  constructor(
    readonly repo: TokenRepository,
    readonly groups: UserGroupService,
    readonly secrets: SecretBox,
    /** Told the id of every token written here, so the relay drops its cached copy. */
    private readonly changes: ChangeBus,
  ) {}

  /** The stored `setting` JSON as a complete setting; never throws, for the relay's hot path. */
  parseSetting(json: string): TokenSetting {
    return readTokenSetting(json);
  }

  async listOwn(caller: UserRow, query: TokenListQuery): Promise<Paged<TokenView>> {
    const page = await this.repo.list({ userId: caller.id, keyword: query.keyword }, query);
    const showTag = isReliableRole(caller.role);
    return { ...page, data: page.data.map((row) => toTokenView(row, this.fullKey(row), showTag)) };
  }

  /** One of the caller's tokens with its full key. */
  async getOwn(caller: UserRow, id: number): Promise<TokenView> {
    const row = await this.requireOwned(caller, id);
    return toTokenView(row, this.fullKey(row), isReliableRole(caller.role));
  }

  /** The key of the caller's playground token, created (unlimited, never expiring) on first use. */
  async playgroundKey(caller: UserRow): Promise<string> {
    const existing = await this.repo.findByName(caller.id, PLAYGROUND_TOKEN_NAME);
    if (existing) return this.fullKey(existing);
    const { key } = await this.insert(caller.id, {
      name: PLAYGROUND_TOKEN_NAME,
      expired_time: NEVER_EXPIRES,
      remain_quota: 0,
      unlimited_quota: true,
      group: '',
      backup_group: '',
      setting: defaultTokenSetting(),
    });
    return key;
  }

  /** Creates a token for the caller and returns it with its full key, the one time it is handed out unasked. */
  async create(caller: UserRow, body: CreateTokenBody): Promise<TokenView> {
    if (body.expired_time !== NEVER_EXPIRES && body.expired_time <= nowSeconds()) {
      throw AppError.badRequest('must be in the future, or -1 for never', 'expired_time');
    }
    await this.checkGroups(caller.group, body.group, body.backup_group);
    const mayTag = isReliableRole(caller.role);
    const setting = withBillingTag(body.setting ?? defaultTokenSetting(), mayTag, undefined);
    const { row, key } = await this.insert(caller.id, { ...body, setting });
    return toTokenView(row, key, mayTag);
  }

  async updateOwn(caller: UserRow, body: UpdateTokenBody): Promise<TokenView> {
    const token = await this.requireOwned(caller, body.id);
    const mayTag = isReliableRole(caller.role);
    const changes = { ...body, setting: body.setting && tagged(body.setting, token, mayTag) };
    return toTokenView(await this.applyUpdate(token, caller.group, changes), this.fullKey(token), mayTag);
  }

  async setOwnStatus(caller: UserRow, body: TokenStatusBody): Promise<TokenView> {
    const token = await this.requireOwned(caller, body.id);
    const updated = await this.applyUpdate(token, caller.group, { status: body.status });
    return toTokenView(updated, this.fullKey(token), isReliableRole(caller.role));
  }

  async deleteOwn(caller: UserRow, id: number): Promise<void> {
    const token = await this.requireOwned(caller, id);
    await this.repo.softDelete(token.id);
    this.notify(token.id);
  }

  /** Everyone's tokens for root; for an administrator only those of users of a lower role. */
  async adminSearch(caller: UserRow, query: AdminTokenSearchQuery): Promise<Paged<AdminTokenView>> {
    const ownerRoleBelow = isRootRole(caller.role) ? undefined : caller.role;
    const page = await this.repo.list(
      { userId: query.user_id, tokenId: query.token_id, keyword: query.keyword, ownerRoleBelow },
      query,
    );
    const owners = await this.repo.ownerNames(page.data.map((row) => row.user_id));
    return {
      ...page,
      data: page.data.map((row) => toAdminTokenView(row, this.maskedKey(row), owners.get(row.user_id) ?? '')),
    };
  }

  /**
   * A token of a user the caller outranks; `user_id` moves it to another existing user the caller
   * also outranks, whose group rules then apply. The key stays masked: only its owner sees it whole.
   */
  async adminUpdate(caller: UserRow, body: AdminUpdateTokenBody): Promise<AdminTokenView> {
    const token = await this.requireManaged(caller, body.id);
    const owner = await this.repo.findOwner(body.user_id ?? token.user_id);
    if (body.user_id !== undefined && !owner)
      throw AppError.badRequest(`user ${body.user_id} does not exist`, 'user_id');
    if (body.user_id !== undefined && owner && !outranks(caller.role, owner.role)) {
      throw AppError.forbidden(
        'permission denied: you cannot give a key to a user whose role is equal to or higher than yours',
        'user_id',
      );
    }
    // A token whose owner was deleted can still be edited; only public groups are then allowed.
    const changes = { ...body, setting: body.setting && tagged(body.setting, token, true) };
    const ownerId = owner?.id ?? token.user_id;
    return this.toAdminView(await this.applyUpdate(token, owner?.group ?? '', changes, { ownerId, audited: true }));
  }

  async adminSetStatus(caller: UserRow, body: TokenStatusBody): Promise<AdminTokenView> {
    const token = await this.requireManaged(caller, body.id);
    return this.toAdminView(await this.applyUpdate(token, '', { status: body.status }, { audited: true }));
  }

  private async toAdminView(row: TokenRow): Promise<AdminTokenView> {
    const owners = await this.repo.ownerNames([row.user_id]);
    return toAdminTokenView(row, this.maskedKey(row), owners.get(row.user_id) ?? '');
  }

  private async requireOwned(caller: UserRow, id: number): Promise<TokenRow> {
    const token = await this.repo.findOwned(caller.id, id);
    if (!token) throw AppError.notFound(`token ${id} not found`);
    return token;
  }

  /** A token whose owner (deleted or not) the caller outranks; a 403 for anyone else's. */
  private async requireManaged(caller: UserRow, id: number): Promise<TokenRow> {
    const token = await this.requireAny(id);
    const ownerRole = (await this.repo.ownerRole(token.user_id)) ?? 0;
    if (!outranks(caller.role, ownerRole)) {
      throw AppError.forbidden(
        'permission denied: you cannot manage the key of a user whose role is equal to or higher than yours',
      );
    }
    return token;
  }

  private async requireAny(id: number): Promise<TokenRow> {
    const token = await this.repo.findById(id);
    if (!token) throw AppError.notFound(`token ${id} not found`);
    return token;
  }

  /**
   * Validates and writes the fields given (others stay as they are). Group rules are checked
   * against `ownerGroup` only when a group or the owner changes, so a group that stopped being
   * public does not block renaming an old token. An administrator's edit is `audited`: its audit
   * rows are written in the change's transaction.
   */
  private async applyUpdate(
    token: TokenRow,
    ownerGroup: string,
    changes: Partial<Omit<AdminUpdateTokenBody, 'id'>>,
    how: { ownerId?: number; audited?: boolean } = {},
  ): Promise<TokenRow> {
    const ownerId = how.ownerId ?? token.user_id;
    const group = changes.group ?? token.group;
    const backupGroup = changes.backup_group ?? token.backup_group;
    const groupsChanged = group !== token.group || backupGroup !== token.backup_group;
    if (groupsChanged || ownerId !== token.user_id) await this.checkGroups(ownerGroup, group, backupGroup);
    const limits: TokenLimits = {
      expiredTime: changes.expired_time ?? Number(token.expired_time),
      remainQuota: changes.remain_quota ?? Number(token.remain_quota),
      unlimitedQuota: changes.unlimited_quota ?? toBoolean(token.unlimited_quota),
    };
    if (changes.status !== undefined) assertStatusChange(token.status, changes.status, limits, nowSeconds());
    const patch: TokenUpdate = {};
    if (ownerId !== token.user_id) patch.user_id = ownerId;
    if (changes.name !== undefined) patch.name = changes.name;
    if (changes.status !== undefined && changes.status !== token.status) patch.status = changes.status;
    if (changes.expired_time !== undefined) patch.expired_time = changes.expired_time;
    if (changes.remain_quota !== undefined) patch.remain_quota = changes.remain_quota;
    if (changes.unlimited_quota !== undefined) patch.unlimited_quota = changes.unlimited_quota;
    if (groupsChanged) Object.assign(patch, { group, backup_group: backupGroup });
    if (changes.setting) patch.setting = writeTokenSetting(changes.setting);
    await this.repo.transaction(async (executor) => {
      const before = how.audited ? await this.repo.findById(token.id, executor) : undefined;
      await this.repo.update(token.id, patch, executor);
      const after = before && (await this.repo.findById(token.id, executor));
      if (before && after) await recordTokenChange(executor, before, after);
    });
    this.notify(token.id);
    return (await this.repo.findById(token.id)) ?? token;
  }

  /** A chosen group must be enabled and either public or the owner's own; the backup must differ. */
  private async checkGroups(ownerGroup: string, group: string, backupGroup: string): Promise<void> {
    if (group && group === backupGroup) {
      throw AppError.badRequest('must differ from group', 'backup_group');
    }
    for (const [field, symbol] of [
      ['group', group],
      ['backup_group', backupGroup],
    ] as const) {
      if (!symbol) continue;
      const found = await this.groups.requireUsable(symbol, field);
      if (!found.public && found.symbol !== ownerGroup) {
        throw AppError.badRequest(`${field}: user group '${symbol}' is not public and is not the owner's own group`);
      }
    }
  }

  private async insert(userId: number, token: NewToken): Promise<{ row: TokenRow; key: string }> {
    // A collision of 48 random characters will not happen; the retry only keeps the unique index honest.
    for (let attempt = 0; ; attempt++) {
      const body = generateTokenKey();
      try {
        const id = await this.repo.insert({
          user_id: userId,
          name: token.name,
          key_hash: hashTokenKey(body),
          key_cipher: this.secrets.seal(body),
          status: TokenStatus.enabled,
          created_time: nowSeconds(),
          accessed_time: 0,
          expired_time: token.expired_time,
          remain_quota: token.remain_quota,
          unlimited_quota: token.unlimited_quota,
          used_quota: 0,
          group: token.group,
          backup_group: token.backup_group,
          setting: writeTokenSetting(token.setting),
          deleted_at: null,
        });
        this.notify(id);
        return { row: await this.requireAny(id), key: body };
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 2) throw error;
      }
    }
  }

  /** The full key without `sk-`; empty when it was sealed under another server secret and cannot be read. */
  private fullKey(row: TokenRow): string {
    try {
      return this.secrets.open(row.key_cipher);
    } catch {
      return '';
    }
  }

  private maskedKey(row: TokenRow): string {
    const key = this.fullKey(row);
    return key ? maskKey(key) : '';
  }

  /** This node's copies change at once (the bus applies local listeners before it returns). */
  private notify(tokenId: number): void {
    void this.changes.publish('tokens', { id: tokenId });
  }
}

/** A new setting for `token` with its billing tag settled (setting.ts). */
function tagged(setting: TokenSetting, token: TokenRow, mayTag: boolean): TokenSetting {
  return withBillingTag(setting, mayTag, readTokenSetting(token.setting).billing_tag);
}
