import { AppError } from '../../platform/errors.js';

/**
 * Requests of one payer waiting for quota its other requests hold (issue 30). A reservation that
 * does not fit only because requests of the same user (or limited key) are still running waits,
 * bounded, for their settlements instead of being refused at once; one that would not fit even if
 * they all gave their reservations back is refused at once.
 *
 * Waiters of a user are served first come, first served: each wake tries them in arrival order and
 * stops at the first one the user's balance cannot take yet, so small requests cannot keep passing
 * a larger one until its time runs out. A waiter held back by its own key's balance does not hold
 * back the user's other keys (only later waiters of the same key). Nothing spins: a queue is tried
 * again when the payer settles something on this node, and, for a ledger shared with other nodes,
 * by a poll whose interval doubles while nothing changes.
 */

/** How long a reservation may wait; produced only when one has to (see `WaitFor`). */
export interface QuotaWait {
  /** Epoch milliseconds: a reservation that still does not fit then is refused. */
  until: number;
  /** Called once when the wait begins: calls `gone` when the client leaves; returns how to stop watching. */
  watchClient?(gone: () => void): () => void;
  /** The amount to hold at the next try: the estimate behind it may have learned meanwhile. */
  resize?(): number;
}

/**
 * The wait a request allows, asked only when its reservation does not fit: the request path pays
 * nothing for it while balances suffice. Undefined (or a bound already past): refuse at once.
 */
export type WaitFor = () => QuotaWait | undefined;

/** Which balance a reservation is short of. */
export type Short = 'user' | 'key';

/** One try of a waiting reservation. */
export type TryOutcome<Held> =
  | { held: Held }
  /** It cannot fit even once the payer's running requests settle (or none is running). */
  | { refused: Error }
  /** It fits once they settle: keep waiting. */
  | { blocked: Short };

export interface WaitQueueOptions<Held> {
  /** The refusal a waiter gets when its time runs out while short of `short`. */
  refusal(short: Short): Error;
  /** Gives back a reservation that was granted while its client was leaving. */
  release(held: Held): void;
  /** The last waiter left: the owner forgets this queue. */
  onEmpty(): void;
  /** For a ledger other nodes settle on too: try again after `minMs`, doubling up to `maxMs` while nothing moves. */
  poll?: { minMs: number; maxMs: number };
}

type State = 'waiting' | 'trying' | 'finished';

/** A try that settled its waiter (undefined), or left it blocked. */
type Tried = { blocked: Short } | undefined;

interface Waiter<Held> {
  keyId: number | null;
  short: Short;
  tryOnce(): TryOutcome<Held> | Promise<TryOutcome<Held>>;
  resolve(held: Held): void;
  reject(error: unknown): void;
  state: State;
  /** The client left while a try was running: the try's outcome is given back. */
  gone: boolean;
  timer: NodeJS.Timeout | undefined;
  stopWatching: (() => void) | undefined;
}

/** The client left while its request waited for quota; nobody reads the answer. */
export function clientLeftWhileWaiting(): AppError {
  return new AppError('bad_request', 'the client closed the connection while its request waited for quota', {
    status: 499,
  });
}

export class WaitQueue<Held> {
  private readonly waiters: Waiter<Held>[] = [];
  private pumping = false;
  private again = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private pollDelay: number;

  constructor(private readonly options: WaitQueueOptions<Held>) {
    this.pollDelay = options.poll?.minMs ?? 0;
  }

  /**
   * Queues a reservation at the back. `tryNow`: try it at once in its turn (a newcomer behind
   * other waiters); otherwise it was just tried and found blocked, and waits for the next wake.
   */
  add(keyId: number | null, short: Short, wait: QuotaWait, tryOnce: Waiter<Held>['tryOnce'], tryNow: boolean) {
    return new Promise<Held>((resolve, reject) => {
      const waiter: Waiter<Held> = {
        keyId,
        short,
        tryOnce,
        resolve,
        reject,
        state: 'waiting',
        gone: false,
        timer: undefined,
        stopWatching: undefined,
      };
      this.waiters.push(waiter);
      waiter.timer = setTimeout(() => this.expire(waiter), Math.max(0, wait.until - Date.now()));
      waiter.stopWatching = wait.watchClient?.(() => this.leave(waiter));
      if (tryNow) this.wake();
      else this.schedulePoll();
    });
  }

  /** Something of this payer settled (or a poll is due): try the waiters again, in order. */
  wake(): void {
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    let moved = false;
    try {
      do {
        this.again = false;
        let blockedKeys: Set<number | null> | undefined;
        // A snapshot: waiters that join meanwhile are tried on the next round.
        for (const waiter of [...this.waiters]) {
          if (waiter.state !== 'waiting' || blockedKeys?.has(waiter.keyId)) continue;
          const tried = this.tryWaiter(waiter);
          const outcome = tried instanceof Promise ? await tried : tried;
          if (outcome === undefined) {
            moved = true;
            continue;
          }
          waiter.short = outcome.blocked;
          // First come, first served on the user's balance; a key's shortage holds back that key only.
          if (outcome.blocked === 'user') break;
          blockedKeys ??= new Set();
          blockedKeys.add(waiter.keyId);
        }
      } while (this.again);
    } finally {
      this.pumping = false;
    }
    if (moved) this.pollDelay = this.options.poll?.minMs ?? 0;
    this.schedulePoll();
  }

  /**
   * One try; settles the waiter unless it stays blocked (then answers the outcome). Answers without
   * a promise when the ledger does (the in-process one): its whole wake then runs synchronously.
   */
  private tryWaiter(waiter: Waiter<Held>): Tried | Promise<Tried> {
    waiter.state = 'trying';
    let tried: TryOutcome<Held> | Promise<TryOutcome<Held>>;
    try {
      tried = waiter.tryOnce();
    } catch (error) {
      return this.failed(waiter, error);
    }
    if (!(tried instanceof Promise)) return this.conclude(waiter, tried);
    return tried.then(
      (outcome) => this.conclude(waiter, outcome),
      (error: unknown) => this.failed(waiter, error),
    );
  }

  private conclude(waiter: Waiter<Held>, outcome: TryOutcome<Held>): Tried {
    if ('blocked' in outcome) {
      if (!waiter.gone && waiter.state === 'trying') {
        waiter.state = 'waiting';
        return outcome;
      }
      this.finish(waiter);
      waiter.reject(waiter.gone ? clientLeftWhileWaiting() : this.options.refusal(outcome.blocked));
      return undefined;
    }
    this.finish(waiter);
    if ('refused' in outcome) waiter.reject(outcome.refused);
    else if (waiter.gone) {
      this.options.release(outcome.held);
      waiter.reject(clientLeftWhileWaiting());
    } else waiter.resolve(outcome.held);
    return undefined;
  }

  private failed(waiter: Waiter<Held>, error: unknown): undefined {
    this.finish(waiter);
    waiter.reject(error);
    return undefined;
  }

  /** The bound is reached: refused, unless a try is running (its outcome decides). */
  private expire(waiter: Waiter<Held>): void {
    waiter.timer = undefined;
    if (waiter.state === 'trying') {
      // Marked so the running try finishes it: granted, or refused as its time is up.
      waiter.state = 'finished';
      return;
    }
    if (waiter.state !== 'waiting') return;
    this.finish(waiter);
    waiter.reject(this.options.refusal(waiter.short));
    // Those behind it may fit where it did not.
    this.wake();
  }

  private leave(waiter: Waiter<Held>): void {
    waiter.gone = true;
    if (waiter.state !== 'waiting') return;
    this.finish(waiter);
    waiter.reject(clientLeftWhileWaiting());
    this.wake();
  }

  private finish(waiter: Waiter<Held>): void {
    waiter.state = 'finished';
    if (waiter.timer) clearTimeout(waiter.timer);
    waiter.stopWatching?.();
    waiter.stopWatching = undefined;
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
    if (this.waiters.length === 0) {
      if (this.pollTimer) clearTimeout(this.pollTimer);
      this.pollTimer = undefined;
      this.options.onEmpty();
    }
  }

  /** Other nodes' settlements are seen only by trying again: a timer, doubling while nothing moves. */
  private schedulePoll(): void {
    const { poll } = this.options;
    if (!poll || this.pollTimer || this.waiters.length === 0) return;
    // A little jitter keeps the nodes' polls of one payer from falling into step.
    const delay = this.pollDelay * (0.8 + Math.random() * 0.4);
    this.pollDelay = Math.min(poll.maxMs, Math.max(poll.minMs, this.pollDelay * 2));
    this.pollTimer = setTimeout(() => {
      this.pollTimer = undefined;
      this.wake();
    }, delay);
  }
}
