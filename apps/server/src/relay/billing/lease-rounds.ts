/**
 * The renewal rounds of a node's leases, shared by balance leases (redis-balance-leases.ts) and
 * budget window leases (budgets/redis-window-leases.ts): one round at a time; requests that wait for
 * a renewal share one; and a round whose call failed (an error, not an answer: Redis may have run
 * it) is sent again exactly as it was before any new round, so the scripts, which recognise a round
 * they ran by its mark, count its spend once.
 */
export class LeaseRounds<Round> {
  private running: Promise<void> | null = null;
  private renewal: Promise<void> | null = null;
  private unconfirmed: Round | undefined;

  constructor(
    /** The next round to send (undefined: nothing to send); `everything` gives every lease back. */
    private readonly next: (everything: boolean) => Round | undefined,
    /** Sends a round and takes its answers; throws when the call failed. */
    private readonly send: (round: Round) => Promise<void>,
  ) {}

  /** The round being sent now, if any. */
  get current(): Promise<void> | null {
    return this.running;
  }

  /** Sends the failed round again, if any, then the next; one flush at a time. */
  async flush(everything = false): Promise<void> {
    while (this.running) await this.running;
    this.running = this.once(everything).finally(() => {
      this.running = null;
    });
    await this.running;
  }

  /** One flush, shared by every request that waits for it. */
  renewNow(): Promise<void> {
    if (!this.renewal) {
      this.renewal = this.flush().finally(() => {
        this.renewal = null;
      });
    }
    return this.renewal;
  }

  private async once(everything: boolean): Promise<void> {
    if (this.unconfirmed) await this.confirm(this.unconfirmed);
    const round = this.next(everything);
    if (round) await this.confirm(round);
  }

  private async confirm(round: Round): Promise<void> {
    this.unconfirmed = round;
    await this.send(round);
    this.unconfirmed = undefined;
  }
}
