/**
 * Per-channel back-off for pollers: a channel whose poll failed is skipped for a while, twice as
 * long after each further failure (up to `maxMs`), and polled normally again after a success, so
 * one dead midjourney-proxy does not slow the other channels' tasks or flood its logs.
 */
export class ChannelBackoff {
  private readonly state = new Map<number, { failures: number; until: number }>();

  constructor(
    private readonly baseMs = 15_000,
    private readonly maxMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  ready(channelId: number): boolean {
    const entry = this.state.get(channelId);
    return !entry || this.now() >= entry.until;
  }

  failed(channelId: number): void {
    const failures = (this.state.get(channelId)?.failures ?? 0) + 1;
    const wait = Math.min(this.maxMs, this.baseMs * 2 ** (failures - 1));
    this.state.set(channelId, { failures, until: this.now() + wait });
  }

  succeeded(channelId: number): void {
    this.state.delete(channelId);
  }
}
