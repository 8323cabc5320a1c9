import {
  disableAndWatch,
  manage,
  setRoundPrice,
  settledBooks,
  spenderWithKey,
  spendOnAll,
} from '../apps/server/test/node-checks.js';
import type { Child } from './processes.js';

/** The spender's starting balance: some hundred of the bench's chats at setRoundPrice's price. */
export const SPENDER_QUOTA = 3000;

export interface ChecksResult {
  money: { pass: boolean; start: number; balance: number; charged: number; statuses: Map<number, number> };
  disabled: { pass: boolean; refusedAfterMs: Array<number | null> };
}

/** The money check and the disabled-key check on every node of `nodes` (see node-checks.ts). */
export async function moneyAndKeyChecks(nodes: Child[], rootToken: string, databaseUrl: string): Promise<ChecksResult> {
  const bases = nodes.map((node) => node.url);
  const first = bases[0] ?? '';
  await setRoundPrice(first, rootToken, 1);
  const spender = await spenderWithKey(first, rootToken, 'spender', SPENDER_QUOTA);
  const statuses = await spendOnAll(bases, spender.key);
  const books = await settledBooks(databaseUrl, spender.userId, SPENDER_QUOTA);
  const money = {
    pass:
      books.balance >= 0 &&
      books.charged <= SPENDER_QUOTA &&
      books.balance + books.charged === SPENDER_QUOTA &&
      (statuses.get(200) ?? 0) > 0,
    start: SPENDER_QUOTA,
    ...books,
    statuses,
  };
  const created = (
    await manage(first, { token: rootToken }, 'POST', '/api/token/', {
      name: 'bench-disable',
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: true,
    })
  ).data as { id: number; key: string };
  const refusedAfterMs = await disableAndWatch(bases, rootToken, created.key, created.id);
  return { money, disabled: { pass: refusedAfterMs.every((ms) => ms !== null), refusedAfterMs } };
}
