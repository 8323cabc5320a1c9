import type { Logger } from '../../../platform/logger.js';
import type { LinkSigner } from '../../../platform/signed-links.js';
import type { AddressGuard } from '../../transport/address-guard.js';
import { type RefundDeps, refundTask } from '../refund.js';
import { imageLinkOf } from './links.js';
import type { MidjourneyRepository, MidjourneyRow } from './repo.js';
import { changesRow, clientHookOf, type ProxyTask, toProxyTask, updateFromProxy } from './view.js';

/**
 * Applies what the proxy reports about a task (a poll or its callback) to the task's row. A task
 * that ends in FAILURE, or outlives the task timeout, is failed and refunded exactly once
 * (refund.ts); a final task is never changed again. When MjNotifyEnabled is on, every visible
 * change is posted to the client's own notifyHook, as the proxy would have done — through the
 * private-address guard (transport/address-guard.ts), so a hook cannot reach loopback, private or link-local
 * addresses unless MjNotifyAllowPrivate allows it.
 */
export interface TrackerDeps {
  repo: MidjourneyRepository;
  refunds: RefundDeps;
  options: { getBoolean(key: 'MjNotifyEnabled'): boolean; get(key: 'ServerAddress'): string };
  links: LinkSigner;
  guards: { hooks: AddressGuard };
  logger: Pick<Logger, 'warn'>;
}

/** A client's callback answer is read only to free the connection. */
const HOOK_ANSWER_LIMIT = 64 * 1024;
/** A client's hook gets this long for its headers, and between two chunks of its answer. */
const HOOK_TIMEOUT_MS = 15_000;

export function refundText(mjId: string, quota: number): string {
  return `构图失败 ${mjId}，补偿 ${quota}`;
}

export class MidjourneyTracker {
  constructor(private readonly deps: TrackerDeps) {}

  /** True when the row changed. */
  async apply(row: MidjourneyRow, task: ProxyTask): Promise<boolean> {
    const update = updateFromProxy(row, task);
    if (update.status === 'FAILURE') {
      return this.fail(row, { ...update, fail_reason: update.fail_reason || row.fail_reason || 'the task failed' });
    }
    if (!changesRow(row, update)) return false;
    const changed = await this.deps.repo.updateUnfinished(row.id, update);
    if (changed) this.notifyClient({ ...row, ...update } as MidjourneyRow);
    return changed;
  }

  /** Fails a task that has run longer than `timeoutMs` and refunds it; true when this call did. */
  expire(row: MidjourneyRow, timeoutMs: number, now = Date.now()): Promise<boolean> {
    const minutes = Math.round(timeoutMs / 60_000);
    return this.fail(row, {
      status: 'FAILURE',
      progress: row.progress || '0%',
      fail_reason: `the task timed out: unfinished after ${minutes} minutes`,
      finish_time: now,
    });
  }

  private async fail(row: MidjourneyRow, update: Parameters<MidjourneyRepository['updateUnfinished']>[1]) {
    const final = { ...update, status: 'FAILURE', finish_time: update.finish_time || Date.now() };
    const quota = Number(row.quota);
    const failed = await refundTask(this.deps.refunds, {
      userId: row.user_id,
      quota,
      budgetUse: row.budget_use,
      content: refundText(row.mj_id, quota),
      event: { event: 'task_refund', kind: 'midjourney', task_id: row.mj_id, quota },
      markFailed: (executor) => this.deps.repo.updateUnfinished(row.id, final, executor),
    });
    if (failed) this.notifyClient({ ...row, ...final } as MidjourneyRow);
    return failed;
  }

  /** Posts the task to the client's notifyHook; a failure there is the client's, only logged. */
  private notifyClient(row: MidjourneyRow): void {
    const hook = clientHookOf(row);
    if (!hook || !this.deps.options.getBoolean('MjNotifyEnabled')) return;
    this.postToHook(hook, JSON.stringify(toProxyTask(row, imageLinkOf(this.deps)))).catch((error: unknown) =>
      this.deps.logger.warn({ task: row.mj_id, detail: String(error) }, 'posting to a client notifyHook failed'),
    );
  }

  private async postToHook(hook: string, body: string): Promise<void> {
    // Hooks stored before private ones were refused at submit meet the same guard here.
    const answer = await this.deps.guards.hooks.request(new URL(hook), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'one-hub' },
      body,
      timeoutMs: HOOK_TIMEOUT_MS,
    });
    await answer.body.dump({ limit: HOOK_ANSWER_LIMIT });
  }
}
