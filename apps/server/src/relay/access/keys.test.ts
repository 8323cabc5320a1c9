import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.js';
import { TokenRepository } from '../../api/token/repo.js';
import { AppError } from '../../platform/errors.js';
import { KeyAuthenticator } from './keys.js';

describe('API key authentication cache', () => {
  let t: TestApp;
  let key: string;
  let tokenRepository: TokenRepository;
  let authenticator: KeyAuthenticator;

  beforeAll(async () => {
    t = await startTestApp();
    const { cookie } = await t.createUser('keyholder');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { cookie },
      payload: { name: 'cached', expired_time: -1, remain_quota: 0, unlimited_quota: true },
    });
    key = (created.json() as { data: { key: string } }).data.key;
    tokenRepository = new TokenRepository(t.database);
    authenticator = new KeyAuthenticator(tokenRepository, t.services.tokens, t.services.userRepository);
  });
  afterAll(async () => {
    await t.close();
  });
  // Always a promise, whether the authenticator answered at once or after a database read.
  const authenticate = async (presented: string) => authenticator.authenticate(`Bearer ${presented}`, '127.0.0.1');

  it('reads a key from the database once, then answers from memory', async () => {
    const reads = vi.spyOn(tokenRepository, 'findByKeyHash');
    const first = await authenticate(key);
    // Cached, the key is answered at once: no promise, no turn of the event loop.
    const second = authenticator.authenticate(`Bearer ${key}`, '127.0.0.1');
    expect(second).not.toBeInstanceOf(Promise);
    expect((second as Awaited<typeof second>).token.id).toBe(first.token.id);
    expect((second as Awaited<typeof second>).user.username).toBe('keyholder');
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
  });

  it('remembers an unknown key too, so repeating it costs no database read', async () => {
    const unknown = `sk-${'x'.repeat(48)}`;
    const reads = vi.spyOn(tokenRepository, 'findByKeyHash');
    for (let attempt = 0; attempt < 3; attempt++) {
      const refusal = await authenticate(unknown).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(AppError);
      expect((refusal as AppError).status).toBe(401);
    }
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
  });

  it('finds the same token whether the key comes with sk- or bare, as the API hands it out', async () => {
    expect(key).toMatch(/^[A-Za-z0-9]{48}$/);
    const bare = await authenticate(key);
    const prefixed = await authenticate(`sk-${key}`);
    expect(prefixed.token.id).toBe(bare.token.id);
    await expect(authenticate(`sk-${key.slice(1)}`)).rejects.toThrow(AppError);
  });

  it('reads the key again once it is forgotten, and sees its new status', async () => {
    const { token } = await authenticate(key);
    await tokenRepository.update(token.id, { status: 2 });
    // Still cached: the edit has not been announced.
    await expect(authenticate(key)).resolves.toBeDefined();
    authenticator.forgetToken(token.id);
    await expect(authenticate(key)).rejects.toThrow(/disabled/);
  });
});
