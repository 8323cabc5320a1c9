import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from '../../../test/app.js';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { twoNodeCaches } from '../../../test/node-caches.js';
import { withPasswordCheck } from '../../../test/passkey/password-check.js';
import {
  type CreationOptions,
  type RequestOptions,
  SoftwareAuthenticator,
} from '../../../test/passkey/software-authenticator.js';
import { type AssembledServer, assembleServer } from '../../assemble.js';
import { loadConfig } from '../../config.js';
import { createLogger } from '../../platform/logger.js';

const ROOT_TOKEN = 'root-access-token-for-tests-0123456789';

/** A ceremony started on one node finishes on another: the challenge lives in the shared cache. */
describe.each(twoNodeCaches())('passkeys across two nodes sharing a %s cache', (_kind, createCaches) => {
  let testDatabase: TestDatabase;
  let nodes: [AssembledServer, AssembledServer];

  beforeAll(async () => {
    testDatabase = await createTestDatabase('sqlite');
    const config = loadConfig({
      SQLITE_PATH: testDatabase.target.sqlitePath,
      SESSION_SECRET: 'shared-session-secret-0123456789',
      INITIAL_ROOT_PASSWORD: 'root-password-123',
      INITIAL_ROOT_ACCESS_TOKEN: ROOT_TOKEN,
      CRITICAL_RATE_LIMIT: '100000',
      LOG_LEVEL: 'silent',
    });
    const consoleDirectory = join(mkdtempSync(join(tmpdir(), 'one-hub-passkey-nodes-')), 'none');
    const [firstCache, secondCache] = createCaches();
    nodes = [
      await assembleServer(config, createLogger('silent'), { consoleDirectory, cache: firstCache }),
      await assembleServer(config, createLogger('silent'), { consoleDirectory, cache: secondCache }),
    ];
    const enable = await nodes[0].app.inject({
      method: 'PUT',
      url: '/api/option/',
      headers: { authorization: ROOT_TOKEN },
      payload: { key: 'PasskeyLoginEnabled', value: 'true' },
    });
    expect(enable.statusCode).toBe(200);
  });
  afterAll(async () => {
    for (const node of nodes ?? []) await node.close();
    await testDatabase?.drop();
  });

  it('registers on one node and finishes on the other, then signs in the same way', async () => {
    const [first, second] = nodes;
    // The other node learns of the change through the cache's invalidation bus.
    await expect
      .poll(async () => (await second.app.inject({ url: '/api/status' })).json().data.passkey_login)
      .toBe(true);
    const login = await first.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username: 'root', password: 'root-password-123' },
    });
    // The password is confirmed on the first node; the check holds on the second as well.
    const cookie = await withPasswordCheck(first.app, sessionCookie(login), 'root-password-123');
    const authenticator = new SoftwareAuthenticator('http://localhost:3000');
    const call = (node: AssembledServer, url: string, payload: object, headers: Record<string, string> = {}) =>
      node.app.inject({ method: 'POST', url, headers, payload });

    const begin = await call(first, '/api/webauthn/registration/begin', {}, { cookie });
    const options = begin.json().data as CreationOptions;
    const finish = await call(second, '/api/webauthn/registration/finish', authenticator.register(options), { cookie });
    expect(finish.statusCode, finish.body).toBe(200);

    const loginBegin = await call(second, '/api/webauthn/login/begin', {});
    const flow = loginBegin.cookies.find((entry) => entry.name === 'passkey_login');
    const flowCookie = { cookie: `passkey_login=${flow?.value}` };
    const assertion = authenticator.assert(loginBegin.json().data as RequestOptions);
    const signedIn = await call(first, '/api/webauthn/login/finish', assertion, flowCookie);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data.username).toBe('root');
    // Spent everywhere: the node that issued the challenge refuses it too.
    expect((await call(second, '/api/webauthn/login/finish', assertion, flowCookie)).statusCode).toBe(400);
  });
});
