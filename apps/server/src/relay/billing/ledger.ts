import type { DatabaseHandle } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { Journal, SettlementRecord } from '../../platform/journal/journal.js';
import type { BudgetHold, CounterRule } from './budgets/budget-ledger.js';
import type { WindowDelta } from './budgets/usage-store.js';
import type { LedgerDeltas } from './ledger-writer.js';
import { type Short, type TryOutcome, type WaitFor, WaitQueue } from './quota-waiters.js';
import { SettledBatches } from './settled-batches.js';

export type { QuotaWait, WaitFor } from './quota-waiters.js';

/**
 * Quota held in memory on this node, so a relay request does no database round trip in steady
 * state. A balance is read once (and again after `refreshAfterMs` or an invalidation); reserving
 * checks and subtracts synchronously, so concurrent requests cannot spend more than there is; only
 * settled costs reach the database, as batched deltas. A crash never leaks a reservation: the
 * database is only ever debited for settled work.
 */
interface Account {
  /** The database value when last read. */
  stored: number;
  /** Settled since that read (flushed or not). */
  spent: number;
  /** Reserved by requests still running. */
  reserved: number;
  loadedAt: number;
  /** A user's requests waiting for what its running requests hold (quota-waiters.ts). */
  waiters?: WaitQueue<Reservation> | undefined;
}

const available = (account: Account) => account.stored - account.spent - account.reserved;

/** The API key a request came with; only a limited key has a balance of its own to check. */
export interface KeyRef {
  id: number;
  limited: boolean;
  /** The budget windows and TPM limits the request must fit (budgets/budgeted-ledger.ts). */
  budgets?: BudgetRequest | undefined;
  /** The owner's plan, when it pays for this request's model: its allowance is drawn on first. */
  plan?: PlanFunding | undefined;
}

/** A subscription plan's allowance as a reservation draws on it. */
export interface PlanFunding {
  /** Its windows, subject `sub:<subscription id>`. */
  rules: CounterRule[];
  /** Once the allowance is used up: the balance pays (true) or the request is refused. */
  fallbackToBalance: boolean;
}

/** What a request holds on its budget windows besides its quota and one request. */
export interface BudgetRequest {
  rules: CounterRule[];
  /** The tokens it may use: its counted prompt and the answer it may produce. */
  tokens: number;
}

/** What a settlement tells the budget windows beyond the cost: the tokens the request used. */
export interface SettledUse {
  tokens: number;
}

export interface Reservation {
  userId: number;
  /** The key whose own balance is held too: a limited key, else null. */
  tokenId: number | null;
  /** An unlimited key: nothing is held on it, but its used quota is recorded. */
  unlimitedKeyId?: number;
  amount: number;
  settled: boolean;
  /** Set by ledgers that track reservations outside the process. */
  id?: string;
  /** Held in this node's balance lease (redis-balance-leases.ts), not by a reservation of its own. */
  leaseKey?: string;
  /** What it holds on budget windows (budgets/budgeted-ledger.ts). */
  budget?: BudgetHold;
  /** Paid by the owner's plan: nothing is held on or charged to the balance. */
  planPaid?: boolean;
  /** The owner holds a plan that covers the request (paid by it or, once used up, by the balance). */
  onPlan?: boolean;
}

export interface SettleResult {
  charged: number;
  /** Cost beyond the reservation and the remaining balance: not charged, so no balance goes negative. */
  shortfall: number;
  /** The user's balance after the charge, other open reservations not deducted, when the ledger holds it. */
  balance?: number;
  /** Set while the owner holds a plan that covers the request: who paid, and the quota the plan's allowance took. */
  paidBy?: 'plan' | 'balance';
  planPaid?: number;
  /** What the budget windows counted, each with its window's start: a failed task gives it back. */
  windows?: WindowDelta[];
}

/** Reserve before the upstream call, settle exactly once after it; balances never go below zero. */
export interface QuotaLedger {
  /**
   * May answer at once (no promise) when the balances are at hand. When `amount` does not fit only
   * because the payer's other requests hold the balance, waits as `waitFor` allows for them to
   * settle (quota-waiters.ts); without it, or when nothing of the payer is running, refuses at once.
   */
  reserve(userId: number, key: KeyRef | null, amount: number, waitFor?: WaitFor): Reservation | Promise<Reservation>;
  /**
   * `use`: what the answer used, for budget windows; a settlement without it (a refund of a request
   * that got no answer) counts no request on them.
   */
  settle(reservation: Reservation, cost: number, channelId?: number, use?: SettledUse): Promise<SettleResult>;
  /**
   * The user's balance after settled work when this node holds it now, without a read; else
   * undefined. Open reservations are not deducted: a request may wait for them to come back.
   */
  knownBalance?(userId: number): number | undefined;
  /** An administrator changed the stored balance by `delta`. */
  invalidateUser(userId: number, delta?: number): void;
  invalidateToken(tokenId: number): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** OpenAI answers an exhausted balance with 429 `insufficient_quota`; clients already handle that. */
export function insufficientQuota(message: string): AppError {
  return new AppError('rate_limited', message, { details: { type: 'insufficient_quota', code: 'insufficient_quota' } });
}

export const USER_SHORT = 'your quota is not enough for this request; top up your balance';
export const KEY_SHORT = 'this API key has not enough quota left for this request';

/** One node: balances in process memory (see the file comment). */
export class MemoryQuotaLedger implements QuotaLedger {
  private readonly users = new Map<number, Account>();
  private readonly tokens = new Map<number, Account>();
  private readonly batches: SettledBatches;
  private readonly timer: NodeJS.Timeout;

  constructor(
    handle: DatabaseHandle,
    private readonly options: {
      flushIntervalMs?: number;
      refreshAfterMs?: number;
      onFlushError?: (error: unknown) => void;
      /** Where settlements are made durable before they are answered (journal.ts). */
      journal?: Journal;
    } = {},
  ) {
    this.batches = new SettledBatches(handle, options.journal, options.onFlushError);
    this.loadUser = async (id) => {
      const row = await handle.db.selectFrom('users').select('quota').where('id', '=', id).executeTakeFirst();
      return Number(row?.quota ?? 0);
    };
    this.loadToken = async (id) => {
      const row = await handle.db.selectFrom('tokens').select('remain_quota').where('id', '=', id).executeTakeFirst();
      return Number(row?.remain_quota ?? 0);
    };
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  private readonly loadUser: (id: number) => Promise<number>;
  private readonly loadToken: (id: number) => Promise<number>;

  /** Takes `amount` from the user's balance and, for a limited key, the key's; waits or refuses when either is short. */
  reserve(userId: number, key: KeyRef | null, amount: number, waitFor?: WaitFor): Reservation | Promise<Reservation> {
    const request = reservationRequest(userId, key, amount);
    const { tokenId } = request;
    // Steady traffic finds both balances in memory and is answered without a promise.
    const user = this.current(this.users, userId);
    const token = tokenId === null ? undefined : this.current(this.tokens, tokenId);
    if (user && (tokenId === null || token)) return this.reserveFrom(user, token, request, waitFor);
    return this.reserveAfterLoading(request, waitFor);
  }

  private async reserveAfterLoading(request: ReservationRequest, waitFor: WaitFor | undefined): Promise<Reservation> {
    const { userId, tokenId } = request;
    const user = await this.account(this.users, userId, this.loadUser, (deltas) => deltas.users.get(userId)?.spent);
    const token =
      tokenId === null
        ? undefined
        : await this.account(this.tokens, tokenId, this.loadToken, (deltas) => deltas.tokens.get(tokenId));
    // A balance read again (a top-up) may let waiters through.
    user.waiters?.wake();
    return this.reserveFrom(user, token, request, waitFor);
  }

  /**
   * Holds the amount at once when it fits and nobody of this user waits (no promise); otherwise
   * queues behind the user's waiters, or waits, or refuses (quota-waiters.ts).
   */
  private reserveFrom(
    user: Account,
    token: Account | undefined,
    request: ReservationRequest,
    waitFor: WaitFor | undefined,
  ): Reservation | Promise<Reservation> {
    const short = shortOf(user, token, request.amount);
    const queued = user.waiters;
    if (waitFor === undefined || (short === undefined && queued === undefined)) {
      if (short === undefined) return hold(user, token, request);
      throw shortRefusal(short);
    }
    // Refused at once when it would not fit even if every running request of the payer gave back its hold.
    if (short !== undefined && !fitsOnceSettled(short === 'user' ? user : token, request.amount)) {
      throw shortRefusal(short);
    }
    const wait = waitFor();
    if (wait === undefined || wait.until <= Date.now()) return take(user, token, request);
    const tryOnce = (): TryOutcome<Reservation> => {
      if (wait.resize) request.amount = wait.resize();
      return tryTake(user, token, request);
    };
    // A newcomer behind waiters is tried in its turn, so it cannot take what they wait for; a
    // first waiter was just found short and waits for the next settlement.
    const queue = queued ?? this.queueOf(user);
    return queue.add(request.tokenId, short ?? 'user', wait, tryOnce, queued !== undefined);
  }

  private queueOf(user: Account): WaitQueue<Reservation> {
    const queue = new WaitQueue<Reservation>({
      refusal: shortRefusal,
      release: (held) => void this.settle(held, 0),
      onEmpty: () => {
        if (user.waiters === queue) user.waiters = undefined;
      },
    });
    user.waiters = queue;
    return queue;
  }

  /** Replaces the reservation by the real cost (0 = full refund). Only the first call counts. */
  async settle(reservation: Reservation, cost: number, channelId = 0): Promise<SettleResult> {
    if (reservation.settled) return { charged: 0, shortfall: 0 };
    reservation.settled = true;
    const user = this.users.get(reservation.userId);
    const token = reservation.tokenId === null ? undefined : this.tokens.get(reservation.tokenId);
    // What is left beside this reservation (still held here, so not counted twice): the most an
    // answer that outgrew its reservation can take.
    const left = Math.min(user ? available(user) : 0, token ? available(token) : Number.POSITIVE_INFINITY);
    const charged = Math.max(0, Math.min(cost, reservation.amount + Math.max(0, left)));
    if (user) user.reserved -= reservation.amount;
    if (token) token.reserved -= reservation.amount;
    if (user) user.spent += charged;
    if (token) token.spent += charged;
    this.batches.add(settlementRecord(reservation, charged, channelId));
    user?.waiters?.wake();
    // Written out rather than spread from a conditional object: one object a settlement, not two.
    const shortfall = cost - charged;
    return user ? { charged, shortfall, balance: user.stored - user.spent } : { charged, shortfall };
  }

  knownBalance(userId: number): number | undefined {
    const account = this.current(this.users, userId);
    return account ? account.stored - account.spent : undefined;
  }

  /** Read the balance again on next use (after a top-up or an edit); open reservations are kept. */
  invalidateUser(userId: number): void {
    const account = this.users.get(userId);
    if (account) account.loadedAt = 0;
  }

  invalidateToken(tokenId: number): void {
    const account = this.tokens.get(tokenId);
    if (account) account.loadedAt = 0;
  }

  /** Writes settled amounts to the database (settled-batches.ts). */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** The cached account, unless it must be read again. */
  private current(cache: Map<number, Account>, id: number): Account | undefined {
    const cached = cache.get(id);
    return cached && Date.now() - cached.loadedAt < (this.options.refreshAfterMs ?? 5000) ? cached : undefined;
  }

  private async account(
    cache: Map<number, Account>,
    id: number,
    load: (id: number) => Promise<number>,
    unflushedIn: (deltas: LedgerDeltas) => number | undefined,
  ): Promise<Account> {
    const cached = this.current(cache, id);
    if (cached) return cached;
    // Read when no flush is running, and read again if one completed meanwhile, so the stored value
    // and the list of unflushed amounts describe the same moment.
    for (let attempt = 0; ; attempt++) {
      while (this.batches.running) await this.batches.running;
      const generation = this.batches.generation;
      const stored = await load(id);
      if ((generation !== this.batches.generation || this.batches.running) && attempt < 5) continue;
      const unflushed = this.batches.unflushed(unflushedIn);
      const current = cache.get(id);
      const account: Account = { stored, spent: unflushed, reserved: current?.reserved ?? 0, loadedAt: Date.now() };
      if (current) Object.assign(current, account);
      else cache.set(id, account);
      return current ?? account;
    }
  }
}

/** What a reservation holds before it is held: whose balances, and how much. */
export type ReservationRequest = Pick<Reservation, 'userId' | 'tokenId' | 'unlimitedKeyId' | 'amount'>;

/** What a settlement adds to the database, as the journal keeps it. */
export function settlementRecord(reservation: Reservation, charged: number, channelId: number): SettlementRecord {
  return {
    userId: reservation.userId,
    tokenId: reservation.tokenId ?? 0,
    unlimitedKeyId: reservation.tokenId === null ? (reservation.unlimitedKeyId ?? 0) : 0,
    channelId,
    charged,
  };
}

export function reservationRequest(userId: number, key: KeyRef | null, amount: number): ReservationRequest {
  if (key === null) return { userId, tokenId: null, amount };
  return key.limited ? { userId, tokenId: key.id, amount } : { userId, tokenId: null, unlimitedKeyId: key.id, amount };
}

/**
 * The held reservation of `request`, written out field by field. On Node 20, `{ ...request, settled:
 * false }` at a spread that has seen one shape gave every reservation a map of its own, so every
 * read of one missed V8's inline caches: eight misses a request (issue 37, fifth step).
 */
export function heldReservation(request: ReservationRequest, id?: string, leaseKey?: string): Reservation {
  const { userId, tokenId, unlimitedKeyId, amount } = request;
  const reservation: Reservation =
    unlimitedKeyId === undefined
      ? { userId, tokenId, amount, settled: false }
      : { userId, tokenId, unlimitedKeyId, amount, settled: false };
  if (id !== undefined) reservation.id = id;
  if (leaseKey !== undefined) reservation.leaseKey = leaseKey;
  return reservation;
}

/** Which balance cannot hold `amount` now; undefined when both can. A free model (0) always fits. */
function shortOf(user: Account, token: Account | undefined, amount: number): Short | undefined {
  if (amount <= 0) return undefined;
  if (available(user) <= 0 || available(user) < amount) return 'user';
  if (token && (available(token) <= 0 || available(token) < amount)) return 'key';
  return undefined;
}

/** Whether `amount` would fit once the requests holding this balance settled (some must be running). */
function fitsOnceSettled(account: Account | undefined, amount: number): boolean {
  return account !== undefined && account.reserved > 0 && available(account) + account.reserved >= amount;
}

function shortRefusal(short: Short): AppError {
  return insufficientQuota(short === 'user' ? USER_SHORT : KEY_SHORT);
}

/** Takes `amount` from both balances, with no await in between: no other request can interleave here. */
function hold(user: Account, token: Account | undefined, request: ReservationRequest): Reservation {
  user.reserved += request.amount;
  if (token) token.reserved += request.amount;
  return heldReservation(request);
}

/** Holds the amount when both balances can, else refuses (today's way, without waiting). */
function take(user: Account, token: Account | undefined, request: ReservationRequest): Reservation {
  const short = shortOf(user, token, request.amount);
  if (short !== undefined) throw shortRefusal(short);
  return hold(user, token, request);
}

/** One try of a waiting reservation: held, still blocked by running requests, or refused for good. */
function tryTake(user: Account, token: Account | undefined, request: ReservationRequest): TryOutcome<Reservation> {
  const short = shortOf(user, token, request.amount);
  if (short === undefined) return { held: hold(user, token, request) };
  if (fitsOnceSettled(short === 'user' ? user : token, request.amount)) return { blocked: short };
  return { refused: shortRefusal(short) };
}
