import { randomString } from '../../platform/crypto.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { Journal, SettlementRecord } from '../../platform/journal/journal.js';
import { addSettlement, createLedgerWriter, isEmpty, type LedgerDeltas, newDeltas } from './ledger-writer.js';

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
}

const available = (account: Account) => account.stored - account.spent - account.reserved;

/** The API key a request came with; only a limited key has a balance of its own to check. */
export interface KeyRef {
  id: number;
  limited: boolean;
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
}

export interface SettleResult {
  charged: number;
  /** Cost beyond the reservation and the remaining balance: not charged, so no balance goes negative. */
  shortfall: number;
  /** The user's balance after the charge, other open reservations not deducted, when the ledger holds it. */
  balance?: number;
}

/** Reserve before the upstream call, settle exactly once after it; balances never go below zero. */
export interface QuotaLedger {
  /** May answer at once (no promise) when the balances are at hand. */
  reserve(userId: number, key: KeyRef | null, amount: number): Reservation | Promise<Reservation>;
  settle(reservation: Reservation, cost: number, channelId?: number): Promise<SettleResult>;
  /** The user's balance less open reservations when this node holds it now, without a read; else undefined. */
  knownAvailable?(userId: number): number | undefined;
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
  private pending: LedgerDeltas = newDeltas();
  /** The journal records of the pending amounts. */
  private pendingSeqs: number[] = [];
  /** A batch taken for the database and not known to be written yet. */
  private unwritten: { id: string; deltas: LedgerDeltas; seqs: number[] } | null = null;
  private batches = 0;
  private readonly batchPrefix: string;
  private readonly journal: Journal | undefined;
  private flushing: Promise<void> | null = null;
  private flushGeneration = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly writeDeltas: (deltas: LedgerDeltas, batchId?: string) => Promise<void>;

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
    this.journal = options.journal;
    this.batchPrefix = `s-${options.journal?.id ?? randomString(12)}`;
    this.writeDeltas = createLedgerWriter(handle);
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

  /** Takes `amount` from the user's balance and, for a limited key, the key's; refuses when either is short. */
  reserve(userId: number, key: KeyRef | null, amount: number): Reservation | Promise<Reservation> {
    const request = reservationRequest(userId, key, amount);
    const { tokenId } = request;
    // Steady traffic finds both balances in memory and is answered without a promise.
    const user = this.current(this.users, userId);
    const token = tokenId === null ? undefined : this.current(this.tokens, tokenId);
    if (user && (tokenId === null || token)) return take(user, token, request);
    return this.reserveAfterLoading(request);
  }

  private async reserveAfterLoading(request: ReservationRequest): Promise<Reservation> {
    const { userId, tokenId } = request;
    const user = await this.account(this.users, userId, this.loadUser, (deltas) => deltas.users.get(userId)?.spent);
    const token =
      tokenId === null
        ? undefined
        : await this.account(this.tokens, tokenId, this.loadToken, (deltas) => deltas.tokens.get(tokenId));
    return take(user, token, request);
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
    const record = settlementRecord(reservation, charged, channelId);
    addSettlement(this.pending, record);
    // Journaled in the same turn as it is counted: a crash after this line loses nothing.
    if (this.journal) this.pendingSeqs.push(this.journal.settlement(record));
    return { charged, shortfall: cost - charged, ...(user ? { balance: user.stored - user.spent } : {}) };
  }

  knownAvailable(userId: number): number | undefined {
    const account = this.current(this.users, userId);
    return account ? available(account) : undefined;
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

  /**
   * Writes settled amounts to the database, one batch at a time. A batch that fails is retried
   * as it was, under the same id, so a failure after the commit (a lost connection) cannot apply
   * it twice; what settles meanwhile waits for the next batch.
   */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    const retry = this.unwritten !== null;
    let batch = this.unwritten;
    if (!batch) {
      if (isEmpty(this.pending)) return;
      batch = {
        id: `${this.batchPrefix}-${(this.batches++).toString(36)}`,
        deltas: this.pending,
        seqs: this.pendingSeqs,
      };
      this.pending = newDeltas();
      this.pendingSeqs = [];
      this.unwritten = batch;
      this.journal?.batch(batch.id, batch.seqs);
    }
    const written = batch;
    this.flushing = this.writeDeltas(written.deltas, this.journal ? written.id : undefined)
      .then(() => {
        this.unwritten = null;
        this.flushGeneration++;
        this.journal?.batchWritten(written.id, written.seqs);
      })
      .catch((error: unknown) => this.options.onFlushError?.(error))
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
    // The pending amounts of a retried batch go out now, not a second later.
    if (retry && !this.unwritten && !isEmpty(this.pending)) await this.flush();
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
      while (this.flushing) await this.flushing;
      const generation = this.flushGeneration;
      const stored = await load(id);
      if ((generation !== this.flushGeneration || this.flushing) && attempt < 5) continue;
      const unflushed =
        (unflushedIn(this.pending) ?? 0) + (this.unwritten ? (unflushedIn(this.unwritten.deltas) ?? 0) : 0);
      const current = cache.get(id);
      const account: Account = { stored, spent: unflushed, reserved: current?.reserved ?? 0, loadedAt: Date.now() };
      if (current) Object.assign(current, account);
      else cache.set(id, account);
      return current ?? account;
    }
  }
}

type ReservationRequest = Omit<Reservation, 'settled' | 'id'>;

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
 * Checks both balances and takes `amount` from them, with no await in between: no other request
 * can interleave here.
 */
function take(user: Account, token: Account | undefined, request: ReservationRequest): Reservation {
  const { amount } = request;
  // A free model (nothing to reserve) is served whatever the balances.
  if (amount > 0) {
    if (available(user) <= 0 || available(user) < amount) throw insufficientQuota(USER_SHORT);
    if (token && (available(token) <= 0 || available(token) < amount)) throw insufficientQuota(KEY_SHORT);
  }
  user.reserved += amount;
  if (token) token.reserved += amount;
  return { ...request, settled: false };
}
