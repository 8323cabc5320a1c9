import { afterAll, beforeAll } from 'vitest';
import type { DialectName } from '../../src/platform/db/index.js';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../app.js';
import { caller, type Method } from './channel-support.js';

/** The start most admin API tests share: an app, root's session and a plain user's session. */
export interface RootAndPlain {
  t: TestApp;
  root: string;
  plain: string;
  /** Calls the API as the holder of `cookie` (anonymous when undefined). */
  call: ReturnType<typeof caller>;
}

/**
 * Starts the app on `dialect` before the file's tests and closes it after them. The fields are
 * filled in by `beforeAll`, so read them inside tests and hooks only.
 */
export function useRootAndPlain(dialect: DialectName): RootAndPlain {
  const session = {
    call: (method: Method, url: string, cookie?: string, payload?: unknown) =>
      caller(session.t)(method, url, cookie, payload),
  } as RootAndPlain;
  beforeAll(async () => {
    session.t = await startTestApp({ dialect });
    session.root = await session.t.login('root', ROOT_PASSWORD);
    session.plain = (await session.t.createUser('plain')).cookie;
  });
  afterAll(() => session.t?.close());
  return session;
}

/** Creates `username`, has root promote it to administrator through the API, and signs it in. */
export async function createAdmin(
  t: TestApp,
  rootCookie: string,
  username: string,
): Promise<{ cookie: string; id: number }> {
  const { id } = await t.createUser(username);
  const promoted = await t.app.inject({
    method: 'POST',
    url: '/api/user/manage',
    headers: { cookie: rootCookie },
    payload: { username, action: 'promote' },
  });
  if (promoted.statusCode !== 200) throw new Error(`promoting ${username} failed: ${promoted.body}`);
  return { cookie: await t.login(username, 'password-123'), id };
}

/** The ranks a list-by-rank test reads from: root, an admin, another admin (its peer) and a plain user. */
export interface RankLadder {
  rootId: number;
  admin: { cookie: string; id: number };
  peerId: number;
  userId: number;
  userCookie: string;
}

/** Creates the admin, its peer and the user of a list-by-rank test, named after `prefix`. */
export async function createRankLadder(t: TestApp, rootCookie: string, prefix: string): Promise<RankLadder> {
  const admin = await createAdmin(t, rootCookie, `${prefix}_adm`);
  const { id: peerId } = await createAdmin(t, rootCookie, `${prefix}_peer`);
  const { id: userId, cookie: userCookie } = await t.createUser(`${prefix}_user`);
  const rootId = (await t.services.userRepository.findByUsername('root'))?.id ?? 0;
  return { rootId, admin, peerId, userId, userCookie };
}
