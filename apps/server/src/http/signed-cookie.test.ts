import { createHmac } from 'node:crypto';
import { unsign } from '@fastify/cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedCookie } from './signed-cookie.js';

const secret = 'test-session-secret-0123456789';
const state = () => new SignedCookie<{ state: string }>(secret, 'oauth_state', 600);

afterEach(() => {
  vi.useRealTimers();
});

describe('SignedCookie', () => {
  it('opens what it sealed, with the expiry it added', () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1) });
    const opened = state().open(state().seal({ state: 'abc' }));
    expect(opened).toEqual({ state: 'abc', exp: Date.UTC(2025, 0, 1) / 1000 + 600 });
  });

  it("signs with @fastify/cookie's signer, under the cookie's own label", () => {
    const [body, signature] = state().seal({ state: 'abc' }).split('.');
    const standard = (signature ?? '').replace(/-/g, '+').replace(/_/g, '/');
    expect(unsign(`cookie:oauth_state:${body}.${standard}`, secret).valid).toBe(true);
    expect(unsign(`cookie:other:${body}.${standard}`, secret).valid).toBe(false);
  });

  it('refuses a changed payload, another secret, another label and a value without a signature', () => {
    const value = state().seal({ state: 'abc' });
    const [, signature] = value.split('.');
    const forged = Buffer.from(JSON.stringify({ state: 'xyz', exp: 4_000_000_000 })).toString('base64url');
    expect(state().open(`${forged}.${signature}`)).toBeNull();
    expect(new SignedCookie(`${secret}!`, 'oauth_state', 600).open(value)).toBeNull();
    expect(new SignedCookie(secret, 'oauth_state', 600, { label: 'session' }).open(value)).toBeNull();
    expect(new SignedCookie(secret, 'turnstile', 600).open(value)).toBeNull();
    expect(state().open(value.split('.')[0])).toBeNull();
    expect(state().open('')).toBeNull();
  });

  it('refuses an expired cookie', () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1) });
    const value = state().seal({ state: 'abc' });
    vi.setSystemTime(Date.UTC(2025, 0, 1) + 599_000);
    expect(state().open(value)).not.toBeNull();
    vi.setSystemTime(Date.UTC(2025, 0, 1) + 600_000);
    expect(state().open(value)).toBeNull();
  });

  it('still opens a cookie signed before it used the signer (the same HMAC in base64url)', () => {
    const body = Buffer.from(JSON.stringify({ uid: 1, pv: 'p', gen: 0, exp: 4_000_000_000 })).toString('base64url');
    const old = `${body}.${createHmac('sha256', secret).update(`session:${body}`).digest('base64url')}`;
    const session = new SignedCookie<{ uid: number }>(secret, 'session', 60, { label: 'session' });
    expect(session.open(old)).toMatchObject({ uid: 1 });
    expect(session.seal({ uid: 1 })).toMatch(/^[\w-]+\.[\w-]+$/);
  });
});
