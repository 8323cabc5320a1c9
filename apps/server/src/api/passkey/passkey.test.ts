import { generateKeyPairSync } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_TOKEN, sessionCookie, startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { withPasswordCheck } from '../../../test/passkey/password-check.js';
import {
  type CreationOptions,
  type RequestOptions,
  SoftwareAuthenticator,
} from '../../../test/passkey/software-authenticator.js';

/** ServerAddress is left at its default: RP ID `localhost`, origin `http://localhost:3000`. */
const ORIGIN = 'http://localhost:3000';

describe.each(availableDialects)('passkeys (/api/webauthn/*) on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dialect });
    await setOption('PasskeyLoginEnabled', 'true');
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie?: string, payload?: object) =>
    t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload === undefined ? {} : { payload }) });
  async function setOption(key: string, value: string) {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: { authorization: ROOT_TOKEN },
      payload: { key, value },
    });
    expect(response.statusCode).toBe(200);
  }
  const flowCookie = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((entry) => entry.name === 'passkey_login');
    if (!cookie) throw new Error('no passkey_login cookie');
    return `passkey_login=${cookie.value}`;
  };

  /** Registers a new passkey for the user through the real routes, the password confirmed first. */
  async function register(session: string, alias?: string) {
    const cookie = await withPasswordCheck(t.app, session);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const begin = await call('POST', '/api/webauthn/registration/begin', cookie, alias ? { alias } : {});
    expect(begin.statusCode).toBe(200);
    const options = begin.json().data as CreationOptions & { authenticatorSelection: { residentKey: string } };
    expect(options.rp.id).toBe('localhost');
    expect(options.authenticatorSelection.residentKey).toBe('required');
    const finish = await call('POST', '/api/webauthn/registration/finish', cookie, authenticator.register(options));
    expect(finish.statusCode, finish.body).toBe(200);
    return { authenticator, answer: finish.json().data as { id: number; alias: string; credential_id: string } };
  }

  /** Starts a sign-in; returns the options and the cookie naming it. */
  async function beginLogin(username?: string) {
    const begin = await call('POST', '/api/webauthn/login/begin', undefined, username ? { username } : {});
    expect(begin.statusCode).toBe(200);
    return { options: begin.json().data as RequestOptions, cookie: flowCookie(begin) };
  }

  const passkeyRow = (id: number) =>
    t.database.db.selectFrom('webauthn_credentials').selectAll().where('id', '=', id).executeTakeFirst();

  it('registers a passkey and lists it with its alias, date and id', async () => {
    const { cookie, id: userId } = await t.createUser('pk_alice');
    const { authenticator, answer } = await register(cookie, 'Laptop');
    expect(answer.alias).toBe('Laptop');
    const list = await call('GET', '/api/webauthn/credentials', cookie);
    expect(list.statusCode).toBe(200);
    const [item, ...rest] = list.json().data;
    expect(rest).toEqual([]);
    expect(item).toMatchObject({ id: answer.id, alias: 'Laptop' });
    expect(Buffer.from(item.credential_id, 'base64').equals(authenticator.credentialId)).toBe(true);
    expect(Math.abs(item.created_time - Date.now() / 1000)).toBeLessThan(3600);
    const row = await passkeyRow(answer.id);
    expect(row).toMatchObject({ user_id: userId, attestation_type: 'none', attachment: 'platform' });
    expect(Number(row?.sign_count)).toBe(0);
    // Without an alias, One Hub's default: the registration time, YYYYMMDDhhmmss.
    const second = await register(cookie);
    expect(second.answer.alias).toMatch(/^\d{14}$/);
  });

  it('signs in with a discoverable passkey like the password login, and counts the use', async () => {
    const { cookie, id: userId } = await t.createUser('pk_bob');
    const { authenticator, answer } = await register(cookie);
    const { options, cookie: flow } = await beginLogin();
    expect(options.allowCredentials).toEqual([]);
    const finish = await call('POST', '/api/webauthn/login/finish', flow, authenticator.assert(options));
    expect(finish.statusCode, finish.body).toBe(200);
    expect(finish.json().data).toMatchObject({ id: userId, username: 'pk_bob' });
    const self = await call('GET', '/api/user/self', sessionCookie(finish));
    expect(self.statusCode).toBe(200);
    expect(self.json().data).toMatchObject({ username: 'pk_bob' });
    expect(self.json().data.last_login_time).toBeGreaterThan(0);
    expect(Number((await passkeyRow(answer.id))?.sign_count)).toBe(1);
  });

  it('refuses a wrong signature and an unknown passkey, and gives no session', async () => {
    const { cookie } = await t.createUser('pk_carol');
    const { authenticator } = await register(cookie);
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const first = await beginLogin();
    const forged = await call(
      'POST',
      '/api/webauthn/login/finish',
      first.cookie,
      authenticator.assert(first.options, { signWith: stranger }),
    );
    expect(forged.statusCode).toBe(401);
    expect(forged.cookies.find((entry) => entry.name === 'session')).toBeUndefined();
    const second = await beginLogin();
    const unknown = new SoftwareAuthenticator(ORIGIN).assert(second.options);
    expect((await call('POST', '/api/webauthn/login/finish', second.cookie, unknown)).statusCode).toBe(401);
  });

  it('refuses a replayed sign-in and a replayed registration', async () => {
    const { cookie } = await t.createUser('pk_dave');
    const { authenticator } = await register(cookie);
    const { options, cookie: flow } = await beginLogin();
    const assertion = authenticator.assert(options);
    expect((await call('POST', '/api/webauthn/login/finish', flow, assertion)).statusCode).toBe(200);
    const replay = await call('POST', '/api/webauthn/login/finish', flow, assertion);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toContain('start again');
    // A fresh signature over the spent challenge is refused too.
    expect((await call('POST', '/api/webauthn/login/finish', flow, authenticator.assert(options))).statusCode).toBe(
      400,
    );
    // And without the cookie naming the sign-in, there is no challenge to answer.
    const other = await beginLogin();
    expect(
      (await call('POST', '/api/webauthn/login/finish', undefined, authenticator.assert(other.options))).statusCode,
    ).toBe(400);

    const fresh = new SoftwareAuthenticator(ORIGIN);
    const enrolling = await withPasswordCheck(t.app, cookie);
    const begin = await call('POST', '/api/webauthn/registration/begin', enrolling, {});
    const attestation = fresh.register(begin.json().data);
    expect((await call('POST', '/api/webauthn/registration/finish', enrolling, attestation)).statusCode).toBe(200);
    expect((await call('POST', '/api/webauthn/registration/finish', enrolling, attestation)).statusCode).toBe(400);
  });

  it('a sign-in started for a username accepts only that user’s passkeys', async () => {
    const erin = await t.createUser('pk_erin');
    const frank = await t.createUser('pk_frank');
    const erinKey = (await register(erin.cookie)).authenticator;
    await register(frank.cookie);
    const { options, cookie: flow } = await beginLogin('pk_frank');
    expect(options.allowCredentials).toHaveLength(1);
    expect((await call('POST', '/api/webauthn/login/finish', flow, erinKey.assert(options))).statusCode).toBe(401);
  });

  it('refuses a disabled user with 403', async () => {
    const { cookie } = await t.createUser('pk_gina');
    const { authenticator } = await register(cookie);
    const disable = await t.app.inject({
      method: 'POST',
      url: '/api/user/manage',
      headers: { authorization: ROOT_TOKEN },
      payload: { username: 'pk_gina', action: 'disable' },
    });
    expect(disable.statusCode).toBe(200);
    const { options, cookie: flow } = await beginLogin();
    const refused = await call('POST', '/api/webauthn/login/finish', flow, authenticator.assert(options));
    expect(refused.statusCode).toBe(403);
    expect(refused.cookies.find((entry) => entry.name === 'session')).toBeUndefined();
  });

  it('deletes the user’s own passkey, never another user’s', async () => {
    const owner = await t.createUser('pk_hank');
    const other = await t.createUser('pk_ivy');
    const { answer } = await register(owner.cookie);
    const foreign = await call('DELETE', `/api/webauthn/credentials/${answer.id}`, other.cookie);
    expect(foreign.statusCode).toBe(404);
    expect(await passkeyRow(answer.id)).toBeDefined();
    expect((await call('DELETE', '/api/webauthn/credentials/not-a-number', owner.cookie)).statusCode).toBe(400);
    const own = await call('DELETE', `/api/webauthn/credentials/${answer.id}`, owner.cookie);
    expect(own.statusCode).toBe(200);
    expect(await passkeyRow(answer.id)).toBeUndefined();
    expect((await call('GET', '/api/webauthn/credentials', owner.cookie)).json().data).toEqual([]);
  });

  it('answers malformed input and anonymous callers with a 4xx', async () => {
    const { cookie } = await t.createUser('pk_jack');
    const enrolling = await withPasswordCheck(t.app, cookie);
    const bad = await call('POST', '/api/webauthn/registration/finish', enrolling, { id: 'x', response: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('rawId');
    expect((await call('POST', '/api/webauthn/login/finish', undefined, { id: 'x' })).statusCode).toBe(400);
    expect((await call('GET', '/api/webauthn/credentials')).statusCode).toBe(401);
    expect((await call('POST', '/api/webauthn/registration/begin', undefined, {})).statusCode).toBe(401);
  });

  it('is refused while PasskeyLoginEnabled is off, and /api/status says so', async () => {
    const { cookie } = await t.createUser('pk_kate');
    const { authenticator } = await register(cookie);
    const { options, cookie: flow } = await beginLogin();
    expect((await call('GET', '/api/status')).json().data.passkey_login).toBe(true);
    await setOption('PasskeyLoginEnabled', 'false');
    try {
      expect((await call('GET', '/api/status')).json().data.passkey_login).toBe(false);
      expect((await call('POST', '/api/webauthn/login/begin', undefined, {})).statusCode).toBe(403);
      const finish = await call('POST', '/api/webauthn/login/finish', flow, authenticator.assert(options));
      expect(finish.statusCode).toBe(403);
      const enrolling = await withPasswordCheck(t.app, cookie);
      const refused = await call('POST', '/api/webauthn/registration/begin', enrolling, {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toContain('PasskeyLoginEnabled');
    } finally {
      await setOption('PasskeyLoginEnabled', 'true');
    }
  });
});
