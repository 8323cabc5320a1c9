import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { availableDialects } from '../../../test/databases.js';
import { type Cache, createMemoryCache, createRedisCache } from '../../platform/cache/index.js';
import { randomString } from '../../platform/crypto.js';
import { VerificationCodes } from './verification.js';

/**
 * A cache that, once armed, holds every read of a one-time code until `parties` requests have read
 * it: the worst interleaving of racing requests, reached by waiting for that state, not for time.
 */
function racingCache(base: Cache) {
  let parties = 0;
  let waiting: Array<() => void> = [];
  const cache: Cache = {
    ...base,
    async get(key) {
      const value = await base.get(key);
      if (parties > 0 && key.startsWith('verification:')) {
        await new Promise<void>((release) => {
          waiting.push(release);
          if (waiting.length < parties) return;
          for (const waiter of waiting) waiter();
          waiting = [];
          parties = 0;
        });
      }
      return value;
    },
  };
  const arm = (count: number) => {
    parties = count;
  };
  return { cache, arm };
}

/** One-time codes are spent once, even when requests race with the same code (in Redis too, when set). */
describe.each(availableDialects)('one-time codes on %s', (dialect) => {
  let t: TestApp;
  let codes: VerificationCodes;
  let race: ReturnType<typeof racingCache>;
  beforeAll(async () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    const base =
      redisUrl && dialect !== 'sqlite'
        ? createRedisCache(redisUrl, `onehub-test-${randomString(8)}:`)
        : createMemoryCache();
    race = racingCache(base);
    t = await startTestApp({ dialect, cache: race.cache });
    codes = new VerificationCodes(race.cache);
  });
  afterAll(() => t?.close());

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
  const statuses = (responses: Array<{ statusCode: number }>) =>
    responses.map((response) => response.statusCode).sort((left, right) => left - right);

  it('a reset link used twice at once resets the password exactly once', async () => {
    await t.createUser('sam', { email: 'sam@example.com' });
    const token = await codes.issue('reset', 'sam@example.com', 32);
    const wrongGuess = await post('/api/user/reset', { email: 'sam@example.com', token: 'x'.repeat(32) });
    expect(wrongGuess.statusCode).toBe(400);
    race.arm(2);
    const answers = await Promise.all([1, 2].map(() => post('/api/user/reset', { email: 'sam@example.com', token })));
    expect(statuses(answers)).toEqual([200, 400]);
    const password = answers.find((answer) => answer.statusCode === 200)?.json().data as string;
    expect((await post('/api/user/login', { username: 'sam', password })).statusCode).toBe(200);
  });

  it('a registration code used by two sign-ups at once creates one account', async () => {
    await t.services.options.update('EmailVerificationEnabled', 'true');
    const code = await codes.issue('register', 'twin@example.com');
    race.arm(2);
    const answers = await Promise.all(
      ['twin1', 'twin2'].map((username) =>
        post('/api/user/register', {
          username,
          password: 'password-123',
          email: 'twin@example.com',
          verification_code: code,
        }),
      ),
    );
    await t.services.options.update('EmailVerificationEnabled', 'false');
    expect(statuses(answers)).toEqual([200, 400]);
    const accounts = await t.database.db
      .selectFrom('users')
      .select('username')
      .where('email', '=', 'twin@example.com')
      .execute();
    expect(accounts).toHaveLength(1);
  });
});
