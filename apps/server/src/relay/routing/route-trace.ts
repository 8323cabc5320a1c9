import type { FailureClass, RouteExplanation, RouteSkipReason } from '@one-hub/contracts';

/** Entries kept of each list: a log row's metadata stays small whatever the retries. */
const LIMIT = 8;

/**
 * How one request was routed, for its log row (`route` in the metadata): the strategy, each
 * channel called with how the try ended and its milliseconds, and each channel passed over with
 * why. Channels passed over because they were tried already are not repeated.
 */
export class RouteTrace {
  private readonly tried: RouteExplanation['tried'] = [];
  private readonly skipped: RouteExplanation['skipped'] = [];

  /** A tier's own strategy (set per tag) that chose a channel, which the log names instead of the group's. */
  private tierStrategy: string | undefined;

  constructor(public strategy: string) {}

  /** The router's listener (SelectionFilter.skipped); a property so it can be handed over as it is. */
  readonly skip = (channelId: number, reason: RouteSkipReason): void => {
    if (this.skipped.length >= LIMIT) return;
    if (reason === 'excluded' && this.tried.some((entry) => entry.id === channelId)) return;
    if (this.skipped.some((entry) => entry.id === channelId && entry.reason === reason)) return;
    this.skipped.push({ id: channelId, reason });
  };

  /** The router's listener (SelectionFilter.tierStrategy): a tier's own strategy chose the channel. */
  readonly useStrategy = (strategy: string): void => {
    this.tierStrategy = strategy;
  };

  /** A try that ended: `ok`, the failure's class, or `refused` (a failure that says nothing of the channel). */
  attempted(channelId: number, outcome: 'ok' | FailureClass | 'refused', ms: number): void {
    if (this.tried.length < LIMIT) this.tried.push({ id: channelId, outcome, ms: Math.max(0, Math.round(ms)) });
  }

  toJSON(): RouteExplanation {
    return { strategy: this.tierStrategy ?? this.strategy, tried: [...this.tried], skipped: [...this.skipped] };
  }
}
