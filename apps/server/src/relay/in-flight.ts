/**
 * The relay requests this process is serving, so a shutdown can bill every one of them. A request
 * counts until it has settled its quota and handed its log row over, which is after its last byte.
 * On shutdown they get a grace period to finish; those still running after it (a long stream) are
 * cut as if their client had left: the upstream is stopped and what was produced is billed, before
 * the ledger and the log writer make their last flush.
 */
interface Tracked {
  work: Promise<unknown>;
  cut: () => void;
}

/** How long cut requests get to settle: a stream settles at once, a whole answer when it arrives. */
const SETTLE_AFTER_CUT_MS = 5000;

function forgetIn(this: Set<Tracked>, entry: Tracked): void {
  this.delete(entry);
}

export class InFlightRequests {
  private readonly open = new Set<Tracked>();

  /** Runs `work` as one tracked request; `cut` ends its connection when the grace period is over. */
  track<T>(work: Promise<T>, cut: () => void): Promise<T> {
    const entry: Tracked = { work, cut };
    this.open.add(entry);
    // A module function bound per request, not an arrow: V8 keeps the optimised code of a function
    // made once, and compiled an arrow made per request again after full collections.
    const forget = forgetIn.bind(this.open, entry);
    work.then(forget, forget);
    return work;
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * Waits up to `graceMs` for the open requests, then cuts the rest and gives them a moment to
   * settle. Resolves with the number it had to cut.
   */
  async drain(graceMs: number, settleAfterCutMs = SETTLE_AFTER_CUT_MS): Promise<number> {
    if (this.open.size === 0) return 0;
    await this.settledWithin(graceMs);
    const remaining = [...this.open];
    for (const entry of remaining) entry.cut();
    await this.settledWithin(settleAfterCutMs);
    return remaining.length;
  }

  private async settledWithin(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.allSettled([...this.open].map((entry) => entry.work)), timeUp]);
    clearTimeout(timer);
  }
}
