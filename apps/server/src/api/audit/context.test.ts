import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { auditScopesOpen, currentAuditScope, installAuditScope } from './context.js';

/**
 * Whether an AsyncLocalStorage's hooks are on: while they are, every new promise is stamped with
 * async-hook symbols (the cost the relay must not pay).
 */
function promisesStamped(): boolean {
  return Object.getOwnPropertySymbols(Promise.resolve()).length > 0;
}

describe('the audit scope of an /api handler', () => {
  const app = Fastify();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  installAuditScope(app);
  app.get('/slow', async () => {
    await held;
    return { requestId: currentAuditScope()?.requestId ?? null };
  });
  app.get('/fast', async () => ({ requestId: currentAuditScope()?.requestId ?? null }));
  app.get('/fails', async () => {
    throw new Error('refused');
  });
  let stampedInside = false;
  app.get('/stamp', async () => {
    stampedInside = promisesStamped();
    return {};
  });
  afterEach(() => release());

  it('lasts exactly as long as the handler, so one that ends does not end another still running', async () => {
    const slow = app.inject({ method: 'GET', url: '/slow', headers: { 'x-request-id': 'slow-1' } });
    // The slow handler is waiting inside its scope when the fast one starts and ends.
    await expect.poll(() => auditScopesOpen()).toBe(1);
    const fast = await app.inject({ method: 'GET', url: '/fast' });
    expect(fast.json().requestId).toEqual(expect.any(String));
    expect(auditScopesOpen()).toBe(1);
    release();
    const answer = await slow;
    expect(answer.json().requestId).toEqual(expect.any(String));
    expect(auditScopesOpen()).toBe(0);
  });

  it('is closed after a handler that fails', async () => {
    expect((await app.inject({ method: 'GET', url: '/fails' })).statusCode).toBe(500);
    expect(auditScopesOpen()).toBe(0);
  });

  it('switches the storage hooks off when no handler runs, and on again for the next one', async () => {
    await app.inject({ method: 'GET', url: '/stamp' });
    expect(stampedInside).toBe(true);
    // Node applies the switch at the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(promisesStamped()).toBe(false);
    await app.inject({ method: 'GET', url: '/fast' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(promisesStamped()).toBe(false);
  });
});
