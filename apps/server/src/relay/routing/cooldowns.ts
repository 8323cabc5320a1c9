/**
 * Which (channel, model) pairs rest after a 429 or another cooling failure, and until when
 * (absolute Unix milliseconds). A pair this process cooled is announced through `onStart`, so other
 * processes rest it too; their notices arrive through `apply`, which never moves an end later
 * than the one announced, so a notice that arrives late does not lengthen the rest.
 */
export type CooldownStarted = (channelId: number, model: string, until: number) => void;

/** How many entries may pile up before the ended ones are swept out. */
const SWEEP_SIZE = 1000;

export class CooldownStore {
  private readonly until = new Map<string, number>();
  private started: CooldownStarted | undefined;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Called when a pair that was not resting starts to, here (not for notices from elsewhere). */
  onStart(listener: CooldownStarted): void {
    this.started = listener;
  }

  /** This process saw the failure: rest the pair for `seconds` from now. */
  start(channelId: number, model: string, seconds: number): void {
    if (seconds <= 0) return;
    const now = this.now();
    const pair = `${channelId}:${model}`;
    const current = this.until.get(pair);
    const until = now + seconds * 1000;
    this.store(pair, Math.max(until, current ?? 0));
    // Requests already in flight on a resting pair may fail too; only the first one is news.
    if (current === undefined || current <= now) this.started?.(channelId, model, until);
  }

  /** Another process cooled the pair until `until`: rest it here until then, and no longer. */
  apply(channelId: number, model: string, until: number): void {
    if (until <= this.now()) return;
    const pair = `${channelId}:${model}`;
    const current = this.until.get(pair);
    if (current === undefined || current < until) this.store(pair, until);
  }

  /** Whether the pair rests now. No work at all while nothing rests. */
  cooling(channelId: number, model: string): boolean {
    if (this.until.size === 0) return false;
    const pair = `${channelId}:${model}`;
    const until = this.until.get(pair);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(pair);
    return false;
  }

  /** Pairs resting now or not yet swept, for tests. */
  get size(): number {
    return this.until.size;
  }

  private store(pair: string, until: number): void {
    // Entries are otherwise dropped only when their pair is asked for again: model names reaching a
    // wildcard channel are the client's choice, so ended cooldowns are swept before the map grows.
    if (this.until.size >= SWEEP_SIZE && !this.until.has(pair)) this.sweep();
    this.until.set(pair, until);
  }

  private sweep(): void {
    const now = this.now();
    for (const [pair, until] of this.until) if (until <= now) this.until.delete(pair);
  }
}
