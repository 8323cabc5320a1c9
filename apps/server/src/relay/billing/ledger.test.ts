import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../../../test/databases.js';
import { letsFreeModelsThrough, writesWhatEachKeyUsed } from '../../../test/ledger-cases.js';
import { insertUser, storedQuotaOf } from '../../../test/ledger-users.js';
import {
  holdsBackOnlyTheShortKey,
  holdsTheSizeOfTheMomentItFits,
  refusesAtOnceWhenWaitingCannotHelp,
  refusesAtTheBound,
  servesWaitersInOrder,
  stopsWaitingWhenTheClientLeaves,
  waitsForTheRunningRequest,
} from '../../../test/ledger-waiting-cases.js';
import { heldReservation, MemoryQuotaLedger, reservationRequest } from './ledger.js';

describe('the in-process quota ledger', () => {
  const handle = useMigratedDatabase('sqlite');
  let ledger: MemoryQuotaLedger;
  let nextUser = 1;
  const newUser = (quota: number) => insertUser(handle, nextUser++, quota);

  beforeAll(async () => {
    // Flushing only when a test asks.
    ledger = new MemoryQuotaLedger(handle, { flushIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    await ledger?.close();
  });

  it('never charges beyond the balance when an answer outgrows its reservation', async () => {
    const user = await newUser(100);
    const reservation = await ledger.reserve(user, null, 60);
    expect(await ledger.settle(reservation, 500)).toEqual({ charged: 100, shortfall: 400, balance: 0 });
    await ledger.flush();
    expect(await storedQuotaOf(handle, user)).toBe(0);
  });

  it('leaves what other open requests hold out of the most an answer can take', async () => {
    const user = await newUser(100);
    const first = await ledger.reserve(user, null, 30);
    const second = await ledger.reserve(user, null, 30);
    // 30 of its own and 40 nobody holds: 70 at most, while the other request keeps its 30.
    expect(await ledger.settle(first, 500)).toMatchObject({ charged: 70, shortfall: 430 });
    expect(await ledger.settle(second, 30)).toMatchObject({ charged: 30, balance: 0 });
    await ledger.flush();
    expect(await storedQuotaOf(handle, user)).toBe(0);
  });

  it('reports the balance after settled work, not counting other open reservations', async () => {
    const user = await newUser(1000);
    const early = await ledger.reserve(user, null, 300);
    const late = await ledger.reserve(user, null, 200);
    expect(await ledger.settle(early, 120)).toMatchObject({ charged: 120, balance: 880 });
    expect(await ledger.settle(late, 50)).toMatchObject({ charged: 50, balance: 830 });
  });

  it('writes what each key used: a limited key’s balance and use, an unlimited key’s use only', () =>
    writesWhatEachKeyUsed({ ledger: ledger, handle, newUser }));

  it('lets a free model through at a zero balance, and still refuses what costs anything', () =>
    letsFreeModelsThrough({ ledger: ledger, handle, newUser }));

  describe('waiting for quota the user’s running requests hold', () => {
    it('waits for the running request and takes what it gave back', () =>
      waitsForTheRunningRequest({ ledger: ledger, handle, newUser }));
    it('refuses with insufficient_quota when the bound is reached', () =>
      refusesAtTheBound({ ledger: ledger, handle, newUser }));
    it('refuses at once when nothing runs or it would not fit anyway', () =>
      refusesAtOnceWhenWaitingCannotHelp({ ledger: ledger, handle, newUser }));
    it('stops waiting when the client leaves, holding nothing', () =>
      stopsWaitingWhenTheClientLeaves({ ledger: ledger, handle, newUser }));
    it('serves waiters first come, first served', () => servesWaitersInOrder({ ledger: ledger, handle, newUser }));
    it('holds back only the key that is short', () => holdsBackOnlyTheShortKey({ ledger: ledger, handle, newUser }));
    it('holds the size of the moment it fits', () =>
      holdsTheSizeOfTheMomentItFits({ ledger: ledger, handle, newUser }));
  });
});

describe('heldReservation', () => {
  it('holds what the request names, with the own properties the spread it replaced gave', () => {
    const limited = heldReservation(reservationRequest(7, { id: 3, limited: true }, 40));
    expect(Object.entries(limited)).toEqual([
      ['userId', 7],
      ['tokenId', 3],
      ['amount', 40],
      ['settled', false],
    ]);
    const unlimited = heldReservation(reservationRequest(7, { id: 4, limited: false }, 40), 'L-1', '7-0-4');
    expect(Object.entries(unlimited)).toEqual([
      ['userId', 7],
      ['tokenId', null],
      ['unlimitedKeyId', 4],
      ['amount', 40],
      ['settled', false],
      ['id', 'L-1'],
      ['leaseKey', '7-0-4'],
    ]);
  });
});
