import type { UserGroupView } from '@one-hub/contracts';
import type { UserGroupRepository } from '../../api/user-group/repo.js';

const REFRESH_MS = 10_000;

/** User groups in memory for the relay (ratio, rate), refreshed every few seconds in the background. */
export class GroupDirectory {
  private groups = new Map<string, UserGroupView>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(private readonly repo: Pick<UserGroupRepository, 'all'>) {}

  async load(): Promise<void> {
    const groups = await this.repo.all();
    this.groups = new Map(groups.map((group) => [group.symbol, group]));
    this.loadedAt = Date.now();
  }

  /** An enabled group, or undefined. Serves from memory; refreshes when stale without waiting. */
  enabled(symbol: string): UserGroupView | undefined {
    if (Date.now() - this.loadedAt > REFRESH_MS && !this.loading) {
      this.loading = this.load()
        .catch(() => undefined)
        .finally(() => {
          this.loading = null;
        });
    }
    const group = this.groups.get(symbol);
    return group?.enable ? group : undefined;
  }
}
