import { isRecord } from '@one-hub/contracts';
import type { RoutingChannel } from '../api/channel/service.js';
import { type BalanceReaderName, type ProviderDefinition, providerByType } from '../domain/channel-types/registry.js';
import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { UpstreamClient } from '../relay/transport/executor.js';
import type { Services } from '../services.js';
import { channelBaseUrl } from './probe.js';
import { getVendorJson, numberField, type VendorGet, vendorUrl } from './upstream.js';

/**
 * Channel balances from the vendors' own account endpoints. The amount is stored as the vendor
 * reports it: US dollars for OpenAI, the account's currency for DeepSeek (USD preferred when the
 * account has several), Moonshot and SiliconFlow; Recraft's API units and Stability's credits are
 * turned into US dollars.
 */
type BalanceReader = (get: (path: string) => Promise<unknown>, balancePath: string) => Promise<number>;

const noBalance = () => new AppError('upstream_error', 'the balance API answered without a balance');

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** OpenAI's dashboard billing: the hard limit minus this month's usage (reported in cents). */
const readOpenAi: BalanceReader = async (get, balancePath) => {
  const subscription = await get(balancePath);
  const limit = isRecord(subscription) ? numberField(subscription.hard_limit_usd) : undefined;
  if (limit === undefined) throw noBalance();
  const now = new Date();
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  // end_date is exclusive: tomorrow, so today's usage counts.
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const usagePath = balancePath.replace(/subscription$/, 'usage');
  const usage = await get(`${usagePath}?start_date=${isoDate(monthStart)}&end_date=${isoDate(tomorrow)}`);
  const usedCents = isRecord(usage) ? (numberField(usage.total_usage) ?? 0) : 0;
  return limit - usedCents / 100;
};

const readDeepSeek: BalanceReader = async (get, balancePath) => {
  const answer = await get(balancePath);
  const infos = isRecord(answer) && Array.isArray(answer.balance_infos) ? answer.balance_infos.filter(isRecord) : [];
  const chosen = infos.find((info) => info.currency === 'USD') ?? infos[0];
  const total = chosen && numberField(chosen.total_balance);
  if (total === undefined) throw noBalance();
  return total;
};

const readMoonshot: BalanceReader = async (get, balancePath) => {
  const answer = await get(balancePath);
  const available = isRecord(answer) && isRecord(answer.data) ? numberField(answer.data.available_balance) : undefined;
  if (available === undefined) throw noBalance();
  return available;
};

const readSiliconFlow: BalanceReader = async (get, balancePath) => {
  const answer = await get(balancePath);
  const data = isRecord(answer) && isRecord(answer.data) ? answer.data : {};
  const total = numberField(data.totalBalance) ?? numberField(data.balance);
  if (total === undefined) throw noBalance();
  return total;
};

/** Recraft's account: `credits` in API units, 1000 to the US dollar (Recraft's pricing). */
const readRecraft: BalanceReader = async (get, balancePath) => {
  const answer = await get(balancePath);
  const credits = isRecord(answer) ? numberField(answer.credits) : undefined;
  if (credits === undefined) throw noBalance();
  return credits / 1000;
};

/** Stability's account: `credits`, a credit being one US cent (Stability's pricing). */
const readStability: BalanceReader = async (get, balancePath) => {
  const answer = await get(balancePath);
  const credits = isRecord(answer) ? numberField(answer.credits) : undefined;
  if (credits === undefined) throw noBalance();
  return credits / 100;
};

/** The reader each registry entry's balance query names. */
const readers: Record<BalanceReaderName, BalanceReader> = {
  openai: readOpenAi,
  deepseek: readDeepSeek,
  moonshot: readMoonshot,
  siliconflow: readSiliconFlow,
  recraft: readRecraft,
  stability: readStability,
};

function balanceSupport(type: number): { provider: ProviderDefinition; path: string; read: BalanceReader } | undefined {
  const provider = providerByType(type);
  return provider?.balance && { provider, path: provider.balance.path, read: readers[provider.balance.reader] };
}

export function hasBalanceApi(type: number): boolean {
  return providerByType(type)?.balance !== undefined;
}

export async function fetchBalance(upstream: UpstreamClient, channel: RoutingChannel): Promise<number> {
  const support = balanceSupport(channel.type);
  if (!support) throw AppError.badRequest('this channel type has no balance API');
  const baseUrl = channelBaseUrl(channel, support.provider);
  const request = (path: string): VendorGet => ({
    url: vendorUrl(baseUrl, path),
    key: channel.key,
    headers: channel.model_headers,
    proxy: channel.proxy,
  });
  const balance = await support.read((path) => getVendorJson(upstream, request(path)), support.path);
  // Cents divided by 100 leave binary noise; six decimals is finer than any vendor reports.
  return Math.round(balance * 1e6) / 1e6;
}

export interface BalanceDeps {
  services: Pick<Services, 'channels' | 'options' | 'disableChannel'>;
  upstream: UpstreamClient;
  logger: Pick<Logger, 'warn'>;
}

/** Fetches and stores one channel's balance. */
export async function refreshBalance(deps: BalanceDeps, channel: RoutingChannel): Promise<number> {
  const balance = await fetchBalance(deps.upstream, channel);
  await deps.services.channels.recordBalance(channel.id, balance);
  return balance;
}

/**
 * Refreshes every enabled channel that has a balance API, one at a time; returns how many were
 * updated. A used-up balance disables the channel when AutomaticDisableChannelEnabled.
 */
export async function refreshAllBalances(deps: BalanceDeps): Promise<number> {
  const { channels, options } = deps.services;
  let updated = 0;
  for (const channel of await channels.listForRouting()) {
    if (!hasBalanceApi(channel.type)) continue;
    try {
      const balance = await refreshBalance(deps, channel);
      updated += 1;
      if (balance <= 0 && options.getBoolean('AutomaticDisableChannelEnabled')) {
        deps.logger.warn({ channel: channel.id, balance }, 'disabling channel: its balance is used up');
        await deps.services.disableChannel(channel, 'the balance is used up', `the balance is used up (${balance})`);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ channel: channel.id, reason: message }, 'refreshing the channel balance failed');
    }
  }
  return updated;
}
