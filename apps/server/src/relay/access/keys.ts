import { BlockList, isIP } from 'node:net';
import type { TokenSetting } from '@one-hub/contracts';
import { isAdminRole, UserStatus } from '@one-hub/contracts';
import type { TokenRepository } from '../../api/token/repo.js';
import type { TokenService } from '../../api/token/service.js';
import type { UserRepository } from '../../api/user/repo.js';
import { hashTokenKey } from '../../domain/token-keys.js';
import { nowSeconds } from '../../platform/clock.js';
import { type TokenRow, toBoolean, type UserRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';

/** Who is calling the relay, resolved from the API key. */
export interface RelayCaller {
  user: UserRow;
  token: TokenRow;
  setting: TokenSetting;
  unlimited: boolean;
  /** Admin directives: `sk-…#12` forces channel 12, `sk-…#!12` skips it. */
  forcedChannelId: number | undefined;
  skippedChannelIds: number[];
}

/**
 * The group a request is first routed and billed in: the key's group, else its backup group, else
 * the owner's group. The key's backup group is also the fallback when this one has no channel.
 */
export function primaryGroupOf(caller: Pick<RelayCaller, 'user' | 'token'>): string {
  return caller.token.group || caller.token.backup_group || caller.user.group;
}

const CACHE_SECONDS = 10;
const invalidKey = () => AppError.unauthorized('invalid API key: send it as "Authorization: Bearer sk-…"');

interface Cached<T> {
  value: T;
  until: number;
}

/**
 * Resolves keys to callers with a short-lived in-memory cache, so steady traffic does no database
 * round trip; key edits invalidate at once, user changes within CACHE_SECONDS.
 */
/** A key as cached: the row plus what is derived from it once, not per request. */
interface CachedKey {
  token: TokenRow;
  setting: TokenSetting;
  allowedIps: BlockList | null;
}

export class KeyAuthenticator {
  private readonly tokens = new Map<string, Cached<CachedKey | undefined>>();
  private readonly users = new Map<number, Cached<UserRow | undefined>>();

  constructor(
    private readonly tokenRepository: TokenRepository,
    private readonly tokenService: TokenService,
    private readonly userRepository: UserRepository,
  ) {}

  forgetToken(tokenId: number): void {
    for (const [key, entry] of this.tokens)
      if (entry.value?.token.id === tokenId || !entry.value) this.tokens.delete(key);
  }

  forgetUser(userId: number): void {
    this.users.delete(userId);
  }

  /** Every cached key and owner goes: the next request of each reads them again. */
  forgetAll(): void {
    this.tokens.clear();
    this.users.clear();
  }

  /**
   * The caller behind a key. Answered at once, without a promise, when the key and its owner are
   * cached (every request of steady traffic); otherwise after reading them. Cached by the key
   * itself: hashing it for the lookup costs more than the rest of the check. A miss is cached
   * too, so unknown keys cannot make every request a database read.
   */
  authenticate(rawKey: string | undefined, clientIp: string): RelayCaller | Promise<RelayCaller> {
    const presented = (rawKey ?? '').trim().replace(/^Bearer\s+/i, '');
    const [withPrefix = '', ...directives] = presented.split('#');
    const body = withPrefix.startsWith('sk-') ? withPrefix.slice(3) : withPrefix;
    if (body.length < 48) throw invalidKey();
    const keyHit = this.tokens.get(body);
    if (isFresh(keyHit)) {
      const userHit = keyHit.value ? this.users.get(keyHit.value.token.user_id) : undefined;
      if (!keyHit.value || isFresh(userHit)) return callerOf(keyHit.value, userHit?.value, directives, clientIp);
    }
    return this.authenticateFromDatabase(body, directives, clientIp);
  }

  private async authenticateFromDatabase(body: string, directives: string[], clientIp: string): Promise<RelayCaller> {
    const keyHit = this.tokens.get(body);
    const key = isFresh(keyHit)
      ? keyHit.value
      : await this.load(this.tokens, body, (raw) => this.loadKey(hashTokenKey(raw)));
    if (!key) throw invalidKey();
    const userHit = this.users.get(key.token.user_id);
    const user = isFresh(userHit)
      ? userHit.value
      : await this.load(this.users, key.token.user_id, (id) => this.userRepository.findById(id));
    return callerOf(key, user, directives, clientIp);
  }

  /** Reads a key and derives, once, what every request with it needs. */
  private async loadKey(hash: string): Promise<CachedKey | undefined> {
    const token = await this.tokenRepository.findByKeyHash(hash);
    if (!token) return undefined;
    const setting = this.tokenService.parseSetting(token.setting);
    return { token, setting, allowedIps: allowList(setting) };
  }

  /** Reads through to the database and caches the answer, a miss included, for CACHE_SECONDS. */
  private async load<K, T>(map: Map<K, Cached<T>>, key: K, read: (key: K) => Promise<T>): Promise<T> {
    const now = Date.now();
    const value = await read(key);
    if (map.size > 100_000) map.clear();
    map.set(key, { value, until: now + CACHE_SECONDS * 1000 });
    return value;
  }
}

function isFresh<T>(entry: Cached<T> | undefined): entry is Cached<T> {
  return entry !== undefined && entry.until > Date.now();
}

/** Checks a key and its owner and says who is calling. */
function callerOf(
  key: CachedKey | undefined,
  user: UserRow | undefined,
  directives: string[],
  clientIp: string,
): RelayCaller {
  if (!key) throw invalidKey();
  if (!user || user.status !== UserStatus.enabled) {
    throw AppError.unauthorized('the owner of this API key is disabled');
  }
  const { token, setting } = key;
  checkTokenUsable(token);
  checkIpAllowed(key.allowedIps, clientIp);
  return { user, token, setting, unlimited: toBoolean(token.unlimited_quota), ...parseDirectives(directives, user) };
}

function checkTokenUsable(token: TokenRow): void {
  if (token.status === 4) throw AppError.unauthorized('this API key has used up its quota');
  if (token.status === 3) throw AppError.unauthorized('this API key has expired');
  if (token.status !== 1) throw AppError.unauthorized('this API key is disabled');
  if (token.expired_time !== -1 && token.expired_time < nowSeconds())
    throw AppError.unauthorized('this API key has expired');
  if (!toBoolean(token.unlimited_quota) && Number(token.remain_quota) <= 0) {
    throw AppError.unauthorized('this API key has used up its quota');
  }
}

/** The key's allowed addresses, or null when any address may use it. */
function allowList(setting: TokenSetting): BlockList | null {
  const rule = setting.limits.limits_ip_setting;
  if (!rule.enabled || rule.whitelist.length === 0) return null;
  const allowed = new BlockList();
  for (const entry of rule.whitelist) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    try {
      if (prefix === undefined) allowed.addAddress(address, family);
      else allowed.addSubnet(address, Number(prefix), family);
    } catch {
      // A malformed entry matches nothing; it must not open the key to everyone.
    }
  }
  return allowed;
}

function checkIpAllowed(allowed: BlockList | null, clientIp: string): void {
  if (!allowed) return;
  const ip = clientIp.replace(/^::ffff:/, '');
  if (!allowed.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4')) {
    throw AppError.forbidden(`IP ${ip} is not allowed to use this API key`);
  }
}

function parseDirectives(
  directives: string[],
  user: UserRow,
): Pick<RelayCaller, 'forcedChannelId' | 'skippedChannelIds'> {
  if (directives.length === 0) return { forcedChannelId: undefined, skippedChannelIds: [] };
  if (!isAdminRole(user.role)) throw AppError.forbidden('only administrators may choose a channel with "#<id>"');
  const [first = '', second] = directives;
  if (first.startsWith('!')) return { forcedChannelId: undefined, skippedChannelIds: [channelId(first.slice(1))] };
  if (second === 'ignore') return { forcedChannelId: undefined, skippedChannelIds: [] };
  return { forcedChannelId: channelId(first), skippedChannelIds: [] };
}

function channelId(text: string): number {
  const id = Number(text);
  if (!Number.isInteger(id) || id <= 0) throw AppError.forbidden(`invalid channel id "${text}" after "#"`);
  return id;
}
