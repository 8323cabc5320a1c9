import { expect } from 'vitest';
import type { QuotaWait, Reservation, WaitFor } from '../src/relay/billing/ledger.js';
import type { LedgerCase } from './ledger-cases.js';
import { insertToken } from './ledger-users.js';

/**
 * Waiting for quota (quota-waiters.ts), as both ledgers must do it: a reservation that does not
 * fit only because the payer's other requests hold the balance waits for their settlements,
 * bounded; anything else is refused at once. No case depends on timing: bounds far away are never
 * reached, a near one is awaited as a refusal.
 */

/** A wait of `ms`, counting how often it was asked for, whose client can be made to leave. */
export function allowWait(ms: number, options: { resize?: () => number } = {}) {
  const state = { asked: 0, leave: () => {}, watching: false };
  const waitFor: WaitFor = () => {
    state.asked++;
    const wait: QuotaWait = {
      until: Date.now() + ms,
      watchClient: (gone) => {
        state.watching = true;
        state.leave = gone;
        return () => {
          state.watching = false;
        };
      },
    };
    if (options.resize) wait.resize = options.resize;
    return wait;
  };
  return { waitFor, state };
}

/** The in-process ledger answers (and refuses) without a promise: both kinds of answer as one promise. */
const asPromise = <T>(start: () => T | Promise<T>): Promise<T> => (async () => start())();

const insufficient = { details: { code: 'insufficient_quota' } };
const LONG = 60_000;

/** Waits for what a running request of the same user holds, and takes it when that settles. */
export async function waitsForTheRunningRequest({ ledger, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(100);
  const running = await ledger.reserve(user, null, 70);
  const { waitFor, state } = allowWait(LONG);
  const waiting = asPromise(() => ledger.reserve(user, null, 60, waitFor));
  expect(await ledger.settle(running, 30)).toMatchObject({ charged: 30 });
  const held = await waiting;
  expect(held.amount).toBe(60);
  expect(state.asked).toBe(1);
  // Its client no longer watched once it holds its quota.
  expect(state.watching).toBe(false);
  // 100 − 30 − 60: 10 are left.
  await expect(asPromise(() => ledger.reserve(user, null, 11))).rejects.toMatchObject(insufficient);
  await ledger.settle(held, 0);
}

/** The bound reached, the waiter gets the same 429 as without waiting; the running request is untouched. */
export async function refusesAtTheBound({ ledger, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(100);
  const running = await ledger.reserve(user, null, 70);
  const { waitFor, state } = allowWait(30);
  await expect(asPromise(() => ledger.reserve(user, null, 60, waitFor))).rejects.toMatchObject(insufficient);
  expect(state.asked).toBe(1);
  expect(state.watching).toBe(false);
  expect(await ledger.settle(running, 70)).toMatchObject({ charged: 70, balance: 30 });
}

/**
 * Nothing of the user running, or too little held to make the difference: refused at once, the
 * wait never even asked for (a 60-second bound would otherwise outlast the test).
 */
export async function refusesAtOnceWhenWaitingCannotHelp({ ledger, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(100);
  const { waitFor, state } = allowWait(LONG);
  await expect(asPromise(() => ledger.reserve(user, null, 101, waitFor))).rejects.toMatchObject(insufficient);
  const running = await ledger.reserve(user, null, 60);
  // 40 free and 60 held: 101 does not fit even when the running request gives everything back.
  await expect(asPromise(() => ledger.reserve(user, null, 101, waitFor))).rejects.toMatchObject(insufficient);
  expect(state.asked).toBe(0);
  await ledger.settle(running, 0);
}

/** A client that leaves ends its wait (499, nobody reads it) and holds nothing. */
export async function stopsWaitingWhenTheClientLeaves({ ledger, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(100);
  const running = await ledger.reserve(user, null, 70);
  const { waitFor, state } = allowWait(LONG);
  const waiting = asPromise(() => ledger.reserve(user, null, 60, waitFor));
  await expect.poll(() => state.watching).toBe(true);
  state.leave();
  await expect(waiting).rejects.toMatchObject({ status: 499 });
  expect(state.watching).toBe(false);
  await ledger.settle(running, 0);
  // Nothing was held for the request that left: the whole balance can be taken.
  await ledger.settle(await ledger.reserve(user, null, 100), 0);
}

/** First come, first served: a small request does not pass a larger one that waits on the same user. */
export async function servesWaitersInOrder({ ledger, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(100);
  const first = await ledger.reserve(user, null, 40);
  const second = await ledger.reserve(user, null, 60);
  const served: string[] = [];
  const wait = (name: string, amount: number) =>
    asPromise(() => ledger.reserve(user, null, amount, allowWait(LONG).waitFor)).then((held) => {
      served.push(name);
      return held;
    });
  const large = wait('large', 80);
  const small = wait('small', 20);
  // 40 come back: enough for the small one, not for the large one, which came first.
  await ledger.settle(first, 0);
  await ledger.settle(second, 0);
  const held = [await large, await small];
  expect(served).toEqual(['large', 'small']);
  for (const reservation of held) await ledger.settle(reservation, 0);
}

/** A waiter short of its own key's balance holds back that key only, not the user's other requests. */
export async function holdsBackOnlyTheShortKey({ ledger, handle, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(1000);
  const key = { id: await insertToken(handle, user, { remainQuota: 50, unlimited: false }), limited: true };
  const running = await ledger.reserve(user, key, 50);
  const served: string[] = [];
  const wait = (name: string, reserving: () => Reservation | Promise<Reservation>) =>
    asPromise(reserving).then((held) => {
      served.push(name);
      return held;
    });
  const onKey = wait('key', () => ledger.reserve(user, key, 30, allowWait(LONG).waitFor));
  // The user has 950 free: a request without that key goes through while the key's waiter waits.
  const other = await wait('other', () => ledger.reserve(user, null, 30, allowWait(LONG).waitFor));
  await ledger.settle(running, 10);
  const keyHeld = await onKey;
  expect(served).toEqual(['other', 'key']);
  await ledger.settle(keyHeld, 0);
  await ledger.settle(other, 0);
}

/** A waiter holds the amount its request is sized at when it is let through (the estimate may have learned). */
export async function holdsTheSizeOfTheMomentItFits({ ledger, newUser }: LedgerCase): Promise<void> {
  const user = await newUser(100);
  const running = await ledger.reserve(user, null, 80);
  let size = 90;
  const waiting = asPromise(() => ledger.reserve(user, null, size, allowWait(LONG, { resize: () => size }).waitFor));
  size = 40;
  await ledger.settle(running, 50);
  const held = await waiting;
  expect(held.amount).toBe(40);
  expect(await ledger.settle(held, 40)).toMatchObject({ charged: 40, balance: 10 });
}
