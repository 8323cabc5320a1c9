import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayTestContext, startRelayTest } from '../../test/relay-setup.js';
import { InFlightRequests } from './in-flight.js';

describe('requests in flight at shutdown', () => {
  let r: RelayTestContext;
  beforeAll(async () => {
    r = await startRelayTest({ env: { SHUTDOWN_GRACE_SECONDS: '0.3' } });
  });
  afterAll(() => r?.close());

  it('cuts a stream still running after the grace period and bills what it produced before the last flush', async () => {
    r.upstream.behaviour = { ...r.upstream.behaviour, reply: 'word '.repeat(400), chunks: 200, chunkDelayMs: 25 };
    const quotaBefore = Number(
      (await r.t.database.db.selectFrom('users').select('quota').where('id', '=', r.userId).executeTakeFirstOrThrow())
        .quota,
    );
    const stream = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'a long answer please' }],
      stream: true,
    });
    let received = 0;
    let closed: Promise<void> | undefined;
    try {
      for await (const _chunk of stream) {
        received++;
        if (received === 3) closed = r.t.app.close();
      }
    } catch {
      // The server cut the connection: the SDK may end the iteration or throw.
    }
    await closed;
    expect(received).toBeLessThan(200);
    await expect.poll(() => r.upstream.abortedStreams).toBe(1);
    // No flush here: the shutdown itself must have written the charge and the log row.
    const log = await r.t.database.db.selectFrom('logs').selectAll().where('type', '=', 2).executeTakeFirstOrThrow();
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeLessThan(400);
    const user = await r.t.database.db
      .selectFrom('users')
      .select('quota')
      .where('id', '=', r.userId)
      .executeTakeFirstOrThrow();
    expect(Number(log.quota)).toBeGreaterThan(0);
    expect(Number(user.quota)).toBe(quotaBefore - Number(log.quota));
  });
});

describe('the in-flight register', () => {
  it('waits for requests that end within the grace period and cuts only the others', async () => {
    const register = new InFlightRequests();
    const cuts: string[] = [];
    let endSlow: () => void = () => {};
    void register.track(new Promise<void>((resolve) => setTimeout(resolve, 20)), () => cuts.push('quick'));
    void register.track(
      new Promise<void>((resolve) => {
        endSlow = resolve;
      }),
      () => {
        cuts.push('slow');
        endSlow();
      },
    );
    void register.track(Promise.reject(new Error('failed')), () => cuts.push('failed')).catch(() => {});
    expect(await register.drain(200)).toBe(1);
    expect(cuts).toEqual(['slow']);
    expect(register.size).toBe(0);
    expect(await register.drain(200)).toBe(0);
  });
});
