import type { Redis } from 'ioredis';
import { sentUntilAnswered } from '../../platform/cache/redis-resend.js';
import { randomString } from '../../platform/crypto.js';
import type { DatabaseHandle } from '../../platform/db/index.js';
import type { Journal } from '../../platform/journal/journal.js';
import type { LeaseSpend } from './journal-replay.js';
import {
  heldReservation,
  insufficientQuota,
  KEY_SHORT,
  type KeyRef,
  type QuotaLedger,
  type Reservation,
  type ReservationRequest,
  reservationRequest,
  type SettleResult,
  settlementRecord,
  USER_SHORT,
} from './ledger.js';
import { type QuotaWait, type Short, type TryOutcome, type WaitFor, WaitQueue } from './quota-waiters.js';
import { BalanceLeases } from './redis-balance-leases.js';
import { releaseDeadLeases, releaseLeases } from './redis-lease-release.js';
import { RedisBatches } from './redis-ledger-batches.js';
import { loadBalance } from './redis-ledger-load.js';
import * as scripts from './redis-ledger-scripts.js';

/**
 * Quota shared by every node through Redis (see redis-ledger-scripts.ts for the keys). Each step is
 * one atomic script, so nodes cannot together spend more than a balance; settled amounts wait in
 * Redis (not in a node's memory) until some node writes them to the database, once, by batch id;
 * reservations of a node that died are given back after `reservationTtlMs`.
 */
export interface RedisLedgerOptions {
  prefix?: string;
  flushIntervalMs?: number;
  reservationTtlMs?: number;
  onError?: (error: unknown) => void;
  /** This node's crash journal: every settlement is recorded there too (journal.ts). */
  journal?: Journal;
  /**
   * How often this node settles and renews its balance leases (redis-balance-leases.ts), in ms;
   * unset: no leases, every request reserves and settles in Redis.
   */
  leaseFlushMs?: number;
}

/**
 * How often a waiting reservation tries again for settlements made on other nodes (this node's own
 * wake it at once): every 10 ms at first, doubling to 200 ms while nothing moves. Polling rather
 * than pub/sub: a settlement then costs nothing extra on any node (a message per settlement would
 * reach every node, waiters or not), a lost message cannot strand a waiter, and the load is one
 * script call per waiting user and node per interval, only while someone waits.
 */
const WAIT_POLL = { minMs: 10, maxMs: 200 };

function shortRefusal(short: Short): Error {
  return insufficientQuota(short === 'user' ? USER_SHORT : KEY_SHORT);
}

export class RedisQuotaLedger implements QuotaLedger {
  private readonly prefix: string;
  private readonly node = randomString(8);
  private counter = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly batches: RedisBatches;
  /** This node's requests waiting for quota, by user (quota-waiters.ts). */
  private readonly waiting = new Map<number, WaitQueue<Reservation>>();
  private readonly leases: BalanceLeases | undefined;
  private readonly leaseTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly redis: Redis,
    private options: RedisLedgerOptions = {},
  ) {
    this.prefix = options.prefix ?? 'onehub:ledger:';
    this.batches = new RedisBatches(redis, handle, this.prefix, this.node, () => this.options);
    this.timer = setInterval(() => {
      this.flushRound().catch((error: unknown) => options.onError?.(error));
    }, options.flushIntervalMs ?? 1000);
    this.timer.unref();
    if (options.leaseFlushMs) {
      const leases = new BalanceLeases(redis, {
        node: this.node,
        prefix: this.prefix,
        journal: () => this.options.journal,
        load: (kind, id) => this.load(kind, id),
        onError: options.onError,
      });
      this.leases = leases;
      this.leaseTimer = setInterval(() => {
        leases.flush().catch((error: unknown) => options.onError?.(error));
      }, options.leaseFlushMs);
      this.leaseTimer.unref();
    }
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  async reserve(userId: number, key: KeyRef | null, amount: number, waitFor?: WaitFor): Promise<Reservation> {
    const request = reservationRequest(userId, key, amount);
    // Requests of this user wait on this node already: a newcomer queues behind them.
    const queued = waitFor ? this.waiting.get(userId) : undefined;
    const newcomerWait = queued ? waitFor?.() : undefined;
    if (queued && newcomerWait && newcomerWait.until > Date.now()) {
      return queued.add(request.tokenId, 'user', newcomerWait, this.retry(request, newcomerWait), true);
    }
    // A lease of this node's with room answers without Redis (none while this user's requests wait).
    // Answered without waiting when the lease has room or none is worth waiting for.
    let leased = queued ? undefined : this.leases?.reserveSoon(request);
    if (leased instanceof Promise) leased = await leased;
    if (leased) return leased;
    const outcome = await this.tryReserve(request);
    if ('held' in outcome) return outcome.held;
    if ('refused' in outcome) throw outcome.refused;
    const wait = queued ? newcomerWait : waitFor?.();
    if (wait === undefined || wait.until <= Date.now()) throw shortRefusal(outcome.blocked);
    let queue = this.waiting.get(userId);
    if (!queue) {
      const created = new WaitQueue<Reservation>({
        refusal: shortRefusal,
        release: (held) => {
          this.settle(held, 0).catch((error: unknown) => this.options.onError?.(error));
        },
        onEmpty: () => {
          if (this.waiting.get(userId) === created) this.waiting.delete(userId);
        },
        poll: WAIT_POLL,
      });
      this.waiting.set(userId, created);
      queue = created;
    }
    return queue.add(request.tokenId, outcome.blocked, wait, this.retry(request, wait), false);
  }

  private retry(request: ReservationRequest, wait: QuotaWait): () => Promise<TryOutcome<Reservation>> {
    return () => {
      if (wait.resize) request.amount = wait.resize();
      return this.tryReserve(request);
    };
  }

  /** One atomic try: held, refused, or blocked by open reservations of the same payer (on any node). */
  private async tryReserve(request: ReservationRequest): Promise<TryOutcome<Reservation>> {
    const { userId, tokenId, amount } = request;
    const id = `${this.node}-${(this.counter++).toString(36)}`;
    const record = `${userId}|${tokenId ?? 0}|${amount}|${Date.now() + (this.options.reservationTtlMs ?? 2 * 3600_000)}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const result = Number(
        await this.redis.eval(
          scripts.RESERVE,
          5,
          this.key(`u:${userId}`),
          this.key(`t:${tokenId ?? 0}`),
          this.key('res'),
          this.key(`uh:${userId}`),
          this.key(`th:${tokenId ?? 0}`),
          amount,
          id,
          record,
          tokenId === null ? '0' : '1',
        ),
      );
      if (result === 1) return { held: heldReservation(request, id) };
      if (result === 0) return { refused: insufficientQuota(USER_SHORT) };
      if (result === -3) return { refused: insufficientQuota(KEY_SHORT) };
      if (result === 2) return { blocked: 'user' };
      if (result === 3) return { blocked: 'key' };
      if (result === -1) await this.load('u', userId);
      if (result === -2 && tokenId !== null) await this.load('t', tokenId);
    }
    throw new Error('the shared quota ledger could not load a balance');
  }

  async settle(reservation: Reservation, cost: number, channelId = 0): Promise<SettleResult> {
    if (reservation.settled) return { charged: 0, shortfall: 0 };
    reservation.settled = true;
    const { userId, tokenId } = reservation;
    if (reservation.leaseKey !== undefined && this.leases) {
      const settling = this.leases.settleSoon(reservation, cost, channelId);
      const result = settling instanceof Promise ? await settling : settling;
      this.waiting.get(userId)?.wake();
      return result;
    }
    const { journal } = this.options;
    const seq = journal?.nextSeq() ?? 0;
    const send = () =>
      this.redis.eval(
        scripts.SETTLE,
        5,
        this.key(`u:${userId}`),
        this.key(`t:${tokenId ?? 0}`),
        this.key('res'),
        this.key('pending'),
        this.key(`uh:${userId}`),
        reservation.id ?? '',
        reservation.amount,
        Math.max(0, Math.floor(cost)),
        tokenId === null ? '0' : '1',
        userId,
        tokenId ?? 0,
        channelId,
        reservation.unlimitedKeyId ?? 0,
        journal?.id ?? '',
        seq,
      );
    // Sent again as it was if its reply is lost: the script finds the reservation's id among those
    // it settled and answers what its first run charged (without an id it could not, so once only).
    const [charged = 0, balance] = ((await (reservation.id ? sentUntilAnswered(send) : send())) as number[]).map(
      Number,
    );
    // Redis keeps the amount until a batch carries it to the database; the journal keeps it should
    // Redis lose it (a restart without persistence) before then.
    journal?.sharedSettlement(seq, settlementRecord(reservation, charged, channelId));
    this.waiting.get(userId)?.wake();
    return { charged, shortfall: Math.max(0, cost - charged), ...(balance === undefined ? {} : { balance }) };
  }

  /** After a replay: gives back the leases the replayed journals held (redis-lease-release.ts). */
  async releaseLeases(journalIds: readonly string[], spent: LeaseSpend): Promise<void> {
    await releaseLeases(this.redis, this.prefix, journalIds, spent);
  }

  /** From now on every settlement is recorded in `journal` too (set once it has been replayed). */
  useJournal(journal: Journal): void {
    this.options.journal = journal;
  }

  /**
   * A top-up changed the stored balance by `delta`; a loaded balance moves with it. This node's
   * leases on it go back, and those of dead nodes whose journal is lost (redis-lease-release.ts).
   */
  invalidateUser(userId: number, delta = 0): void {
    this.leases?.giveBack((lease) => lease.userId === userId);
    this.releaseDead({ userId });
    if (delta === 0) return;
    // Its own id: the script applies it once even when the client sends it again after a reconnect.
    this.redis
      .eval(scripts.ADJUST, 2, this.key(`u:${userId}`), this.key(`adjusted:${this.node}-${randomString(8)}`), delta)
      .catch((error: unknown) => this.options.onError?.(error));
  }

  /** A key's quota was set anew: forget the loaded balance; the next request loads it again. */
  invalidateToken(tokenId: number): void {
    this.leases?.giveBack((lease) => lease.tokenId === tokenId);
    this.releaseDead({ tokenId });
    this.redis.del(this.key(`t:${tokenId}`)).catch((error: unknown) => this.options.onError?.(error));
  }

  private releaseDead(payer: { userId: number } | { tokenId: number }): void {
    releaseDeadLeases(this.redis, this.prefix, payer).catch((error: unknown) => this.options.onError?.(error));
  }

  private load(kind: 'u' | 't', id: number): Promise<void> {
    return loadBalance(
      this.redis,
      this.handle,
      (name) => this.key(name),
      kind,
      id,
      () => this.flushRound(),
    );
  }

  /**
   * Writes settled amounts to the database: what this node's leases settled goes to Redis first,
   * then stranded batches, then the pending ones. Should another node's round hold the flush lock,
   * it waits for a round of its own: that round may have taken the pending amounts aside before this
   * node's leases added theirs, and the caller is told the money is in the database.
   */
  async flush(): Promise<void> {
    await this.leases?.flush();
    await this.flushAll();
  }

  /** `flush` without waiting for the lock (the timer's, and a balance's load, which tries again). */
  private async flushRound(): Promise<void> {
    await this.leases?.flush();
    await this.batches.round();
  }

  /**
   * Waits until a flush of this node's has run from start to end (another node's flush holds the
   * lock meanwhile): then every settlement Redis made before the call is in the database. The
   * journal's replay needs that before it can tell what Redis lost.
   */
  async flushAll(): Promise<void> {
    for (let attempt = 0; attempt < 600; attempt++) {
      if (await this.batches.round()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the shared quota ledger could not take its flush lock for 30 seconds');
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    // Every lease settled and given back (running requests' parts stay held until they settle).
    await this.leases?.flush(true);
    // Not waiting for the lock: what another node's round leaves pending is safe in Redis and the journal.
    await this.flushRound();
  }
}
