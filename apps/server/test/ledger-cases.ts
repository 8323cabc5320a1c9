import { expect } from 'vitest';
import type { DatabaseHandle } from '../src/platform/db/index.js';
import type { QuotaLedger } from '../src/relay/billing/ledger.js';
import { insertToken, storedQuotaOf, storedTokenOf } from './ledger-users.js';

/** Cases both ledgers (in-process and Redis) must pass alike. */
export interface LedgerCase {
  ledger: QuotaLedger;
  handle: DatabaseHandle;
  newUser(quota: number): Promise<number>;
}

/** A limited key's balance and use are written; an unlimited key's use only. */
export async function writesWhatEachKeyUsed({ ledger, handle, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(1000);
  const limited = await insertToken(handle, user, { remainQuota: 500, unlimited: false });
  const unlimited = await insertToken(handle, user, { remainQuota: 0, unlimited: true });
  await ledger.settle(await ledger.reserve(user, { id: limited, limited: true }, 100), 70);
  await ledger.settle(await ledger.reserve(user, { id: unlimited, limited: false }, 100), 40);
  await ledger.flush();
  expect(await storedQuotaOf(handle, user)).toBe(890);
  expect(await storedTokenOf(handle, limited)).toMatchObject({ remain: 430, used: 70 });
  expect(await storedTokenOf(handle, unlimited)).toMatchObject({ remain: 0, used: 40 });
  expect((await storedTokenOf(handle, unlimited)).accessed).toBeGreaterThan(0);
}

/** Nothing to reserve (a free model) passes at a zero balance; anything that costs is refused. */
export async function letsFreeModelsThrough({ ledger, handle, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(0);
  const free = await ledger.reserve(user, null, 0);
  expect(await ledger.settle(free, 0)).toMatchObject({ charged: 0, shortfall: 0 });
  // The in-process ledger throws at once when the balance is in memory; wrapped, both reject.
  await expect((async () => ledger.reserve(user, null, 1))()).rejects.toMatchObject({
    details: { code: 'insufficient_quota' },
  });
  await ledger.flush();
  expect(await storedQuotaOf(handle, user)).toBe(0);
}
