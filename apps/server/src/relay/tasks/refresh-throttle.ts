/**
 * At most one upstream refresh of a task per window, whatever asks for it (a Midjourney proxy's
 * callback, a client polling a Kling task): repeated asks then cost a lookup, not an upstream call,
 * and the poller still brings the task up to date. Kept in memory, per node: N nodes allow at most
 * N refreshes of a task per window, which is still bounded.
 */
export const REFRESH_WINDOW_MS = 5_000;

/** Past this many remembered tasks, the oldest are forgotten (at worst one more refresh each). */
const MAX_REMEMBERED = 10_000;

export class RefreshThrottle {
  /** Task key → when it was last refreshed; kept in that order (a refresh moves a key to the end). */
  private readonly last = new Map<string, number>();

  constructor(
    private readonly windowMs = REFRESH_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** True, and the refresh noted, when the task was not refreshed within the window. */
  take(key: string): boolean {
    const now = this.now();
    const previous = this.last.get(key);
    if (previous !== undefined && now - previous < this.windowMs) return false;
    this.last.delete(key);
    this.last.set(key, now);
    this.forgetOld(now);
    return true;
  }

  private forgetOld(now: number): void {
    for (const [key, at] of this.last) {
      if (now - at < this.windowMs && this.last.size <= MAX_REMEMBERED) break;
      this.last.delete(key);
    }
  }
}
