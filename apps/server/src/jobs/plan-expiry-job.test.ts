import { describe, expect, it, vi } from 'vitest';
import { startPlanExpiryJob } from './plan-expiry-job.js';

describe('the plan expiry job', () => {
  it('ends due subscriptions each pass, says how many, and keeps going after a failed pass', async () => {
    const logger = { info: vi.fn(), error: vi.fn() };
    const expireDue = vi.fn<() => Promise<number>>().mockRejectedValueOnce(new Error('database gone'));
    expireDue.mockResolvedValueOnce(3).mockResolvedValue(0);
    const job = startPlanExpiryJob({ subscriptions: { expireDue }, logger, intervalMs: 1 });
    await vi.waitFor(() => expect(expireDue.mock.calls.length).toBeGreaterThanOrEqual(3));
    await job.stop();
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith({ ended: 3 }, 'subscriptions expired');
    expect(logger.info).toHaveBeenCalledTimes(1);
  });
});
