import type { TokenRepository } from '../../api/token/repo.js';
import type { UserRepository } from '../../api/user/repo.js';
import type { OptionReader } from '../../domain/options.js';
import type { RelayFront, RelayHttpRequest } from '../../http/relay-front.js';
import type { KeyAuthenticator } from '../access/keys.js';
import { surfaceErrors } from './errors.js';

/**
 * OpenAI's old billing endpoints, which chat apps still call with the user's key to show a balance
 * (reference §1.19). The figures are read from the database, not the key cache: a balance shown to
 * a person should be the stored one. Limited keys report their own quota; unlimited keys their
 * owner's.
 */
export interface DashboardDeps {
  keys: KeyAuthenticator;
  tokens: TokenRepository;
  users: UserRepository;
  options: OptionReader;
}

interface Account {
  /** What the key may spend in all: what is left plus what was spent. */
  total: number;
  used: number;
  /** Unix seconds, 0 when the key never expires or is not the limit. */
  accessUntil: number;
}

async function accountOf(deps: DashboardDeps, request: RelayHttpRequest): Promise<Account> {
  const caller = await deps.keys.authenticate(request.headers.authorization, request.ip);
  if (!caller.unlimited) {
    const token = (await deps.tokens.findById(caller.token.id)) ?? caller.token;
    const used = Number(token.used_quota);
    const expires = Number(token.expired_time);
    return { total: Number(token.remain_quota) + used, used, accessUntil: Math.max(expires, 0) };
  }
  const user = (await deps.users.findById(caller.user.id)) ?? caller.user;
  const used = Number(user.used_quota);
  return { total: Number(user.quota) + used, used, accessUntil: 0 };
}

export function dashboardRoutes(front: RelayFront, deps: DashboardDeps): void {
  const subscription = async (request: RelayHttpRequest) => {
    const { total, accessUntil } = await accountOf(deps, request);
    const amount = deps.options.getBoolean('DisplayInCurrencyEnabled')
      ? total / deps.options.getNumber('QuotaPerUnit')
      : total;
    return {
      object: 'billing_subscription',
      has_payment_method: true,
      soft_limit_usd: amount,
      hard_limit_usd: amount,
      system_hard_limit_usd: amount,
      access_until: accessUntil,
    };
  };
  // In cents, as OpenAI reported it.
  const usage = async (request: RelayHttpRequest) => {
    const { used } = await accountOf(deps, request);
    return { object: 'list', total_usage: (used / deps.options.getNumber('QuotaPerUnit')) * 100 };
  };
  for (const prefix of ['', '/v1']) {
    front.route('GET', `${prefix}/dashboard/billing/subscription`, { render: surfaceErrors.openAi }, subscription);
    front.route('GET', `${prefix}/dashboard/billing/usage`, { render: surfaceErrors.openAi }, usage);
  }
}
