import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignInTestApp, startSignInTestApp } from '../../../test/api/account/app.js';
import { availableDialects } from '../../../test/databases.js';

/**
 * Issue 13 item 12: failed password sign-ins are limited per account name, not only per address.
 * The app trusts X-Forwarded-For, so every attempt below comes from a different client address,
 * and the per-address limit (3) alone would never stop them. With TEST_REDIS_URL set, the
 * PostgreSQL and MySQL runs keep the counters in Redis, as several nodes would.
 */
describe.each(availableDialects)('per-account sign-in limit on %s', (dialect) => {
  let t: SignInTestApp;
  let address = 0;

  beforeAll(async () => {
    t = await startSignInTestApp(
      dialect,
      {},
      {
        TRUST_PROXY: 'true',
        CRITICAL_RATE_LIMIT: '3',
        SIGN_IN_FAILURE_LIMIT: '5',
        SIGN_IN_FAILURE_WINDOW_SECONDS: '900',
      },
    );
    for (const username of ['target', 'bystander']) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/user/register',
        headers: { 'x-forwarded-for': nextAddress() },
        payload: { username, password: 'password-123', email: `${username}@example.com` },
      });
      expect(created.statusCode).toBe(200);
    }
  });
  afterAll(() => t?.close());

  function nextAddress(): string {
    address += 1;
    return `198.51.${Math.floor(address / 250)}.${(address % 250) + 1}`;
  }
  const login = (username: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'x-forwarded-for': nextAddress() },
      payload: { username, password },
    });

  it('locks an account after repeated failures from many addresses, then refuses even the right password', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await login('target', `wrong-password-${attempt}`);
      expect(wrong.statusCode).toBe(401);
    }
    const locked = await login('target', 'wrong-password-x');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ success: false });
    expect(locked.json().message).toContain('too many failed sign-in attempts');
    const right = await login('target', 'password-123');
    expect(right.statusCode).toBe(429);
    expect(right.cookies.find((cookie) => cookie.name === 'session')).toBeUndefined();
  });

  it('leaves other accounts alone', async () => {
    const other = await login('bystander', 'password-123');
    expect(other.statusCode).toBe(200);
  });

  it('answers a name nobody holds exactly like a real one, so the lock reveals nothing', async () => {
    const answers: Array<[number, string]> = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await login('nobody-here', 'wrong-password');
      answers.push([response.statusCode, response.json().message]);
    }
    expect(answers.slice(0, 5).every(([status]) => status === 401)).toBe(true);
    const [status, message] = answers[5] ?? [];
    expect(status).toBe(429);
    const real = await login('target', 'wrong-password');
    expect([real.statusCode, real.json().message]).toEqual([status, message]);
  });

  it('a successful sign-in starts the count again', async () => {
    for (let attempt = 0; attempt < 4; attempt++) expect((await login('bystander', 'nope-nope')).statusCode).toBe(401);
    expect((await login('bystander', 'password-123')).statusCode).toBe(200);
    for (let attempt = 0; attempt < 4; attempt++) expect((await login('bystander', 'nope-nope')).statusCode).toBe(401);
    expect((await login('bystander', 'password-123')).statusCode).toBe(200);
  });

  it('lets the right password in again once the window has ended', async () => {
    // The window ending is the counter's key expiring; remove it as its expiry would.
    const { sha256Hex } = await import('../../platform/crypto.js');
    await t.services.cache.delete(`signin-attempts:${sha256Hex('target')}`);
    expect((await login('target', 'password-123')).statusCode).toBe(200);
  });
});
