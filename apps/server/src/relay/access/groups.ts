import type { UserGroupView } from '@one-hub/contracts';
import type { UserGroupRepository } from '../../api/user-group/repo.js';

const REFRESH_MS = 10_000;

/**
 * User groups in memory for the relay (ratio, rate), refreshed every few seconds in the background.
 * The refresh runs on its own timer, not from `enabled`: a branch the request path takes once in
 * 10 s has no type feedback when it is finally taken, and deoptimised every function it was inlined into.
 */
export class GroupDirectory {
  private groups = new Map<string, UserGroupView>();
  private loading: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly repo: Pick<UserGroupRepository, 'all'>) {}

  async load(): Promise<void> {
    const groups = await this.repo.all();
    this.groups = new Map(groups.map((group) => [group.symbol, group]));
  }

  /** Reloads every REFRESH_MS until `stop`, one load at a time; a failed load keeps what was served. */
  refreshInBackground(): void {
    if (this.timer) return;
    this.timer = setInterval(refreshGroups, REFRESH_MS, this);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Started by the timer; skipped while the previous load is still running. */
  refresh(): void {
    if (this.loading) return;
    this.loading = this.load()
      .catch(() => undefined)
      .finally(() => {
        this.loading = null;
      });
  }

  /** An enabled group, or undefined. Serves from memory. */
  enabled(symbol: string): UserGroupView | undefined {
    const group = this.groups.get(symbol);
    return group?.enable ? group : undefined;
  }
}

function refreshGroups(directory: GroupDirectory): void {
  directory.refresh();
}
