import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultTokenSetting } from '@one-hub/contracts';
import { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../../../test/databases.js';
import { insertUser } from '../../../test/ledger-users.js';
import { type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { providerType } from '../../domain/channel-types/registry.js';
import type { OptionReader } from '../../domain/options.js';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import { CompletionEstimates, MINIMUM_ANSWERS } from '../billing/completion-estimates.js';
import { MemoryQuotaLedger, type QuotaLedger, type Reservation, type WaitFor } from '../billing/ledger.js';
import { type Price, RESERVED_COMPLETION_TOKENS_CAP } from '../billing/quota.js';
import type { RouterChannel } from '../routing/router.js';
import { clientTimeoutMs, quotaWait, reserveForRequest } from './reservation.js';
import type { Attempt, Endpoint } from './types.js';

const options = (waitSeconds: number) => ({ getNumber: () => waitSeconds }) as unknown as OptionReader;

describe('how long a request may wait for quota', () => {
  // Only watched once a wait begins; these cases never begin one.
  const response = { destroyed: false } as never;

  it('does not wait when QuotaWaitSeconds is 0', () => {
    expect(quotaWait({ options: options(0) }, Date.now(), { headers: {} }, response)).toBeUndefined();
  });

  it('waits QuotaWaitSeconds from now when the client names no timeout', () => {
    const before = Date.now();
    const wait = quotaWait({ options: options(5) }, before - 60_000, { headers: {} }, response);
    expect(wait?.until).toBeGreaterThanOrEqual(before + 5000);
    expect(wait?.until).toBeLessThanOrEqual(Date.now() + 5000);
  });

  it('ends a second before the timeout the client’s SDK sent, counted from the request’s arrival', () => {
    const arrived = Date.now();
    const headers = { 'x-stainless-timeout': '3' };
    expect(quotaWait({ options: options(60) }, arrived, { headers }, response)?.until).toBe(arrived + 2000);
    // A client with a longer timeout than the setting waits as the setting says.
    const patient = quotaWait(
      { options: options(2) },
      arrived,
      { headers: { 'x-stainless-timeout': '600' } },
      response,
    );
    expect(patient?.until).toBeLessThan(arrived + 600_000);
  });

  it('reads the SDK header in seconds, fractions too, and ignores what is not a positive number', () => {
    expect(clientTimeoutMs('600')).toBe(600_000);
    expect(clientTimeoutMs('2.5')).toBe(2500);
    expect(clientTimeoutMs(['30', '40'])).toBe(30_000);
    for (const unreadable of [undefined, '', ' ', 'None', '0', '-4', 'Infinity']) {
      expect(clientTimeoutMs(unreadable)).toBeUndefined();
    }
  });
});

describe('what the relay hands the ledger', () => {
  it('the request’s size, and a wait that watches its own response and resizes as the node learns', () => {
    const asked: Array<{ amount: number; waitFor: WaitFor | undefined }> = [];
    const ledger = {
      reserve: (_user: number, _key: unknown, amount: number, waitFor?: WaitFor) => {
        asked.push({ amount, waitFor });
        return {} as Reservation;
      },
    } as unknown as QuotaLedger;
    const completions = new CompletionEstimates();
    const settings = {
      getNumber: (key: string) => (key === 'QuotaWaitSeconds' ? 5 : 500),
    } as unknown as OptionReader;
    const price: Price = {
      model: 'm',
      type: 'tokens',
      channel_type: providerType('openai'),
      input: 1,
      output: 2,
      locked: false,
      extra_ratios: {},
    };
    const endpoint = { estimatePrompt: () => 8 } as unknown as Endpoint;
    const attempt = {
      caller: { user: { id: 1, budgets: '[]' }, token: { id: 2 }, setting: defaultTokenSetting(), unlimited: true },
      input: { model: 'm', stream: false, fields: { model: 'm' } },
      groupRatio: 1,
      startedAt: Date.now(),
    } as unknown as Attempt;
    const response = Object.assign(new EventEmitter(), { destroyed: false, writableFinished: false });
    reserveForRequest(
      { ledger, options: settings, completions, groups: { enabled: () => undefined } },
      endpoint,
      attempt,
      { channel: {} as RouterChannel, price, billedModel: 'm' },
      { headers: {} } as RelayHttpRequest,
      { raw: response } as unknown as RelayHttpReply,
    );
    // Nothing learned yet and no max_tokens: the prompt and the pre-consumed 500.
    expect(asked[0]?.amount).toBe(8 + 500);
    const wait = asked[0]?.waitFor?.();
    let gone = 0;
    wait?.watchClient?.(() => gone++);
    response.emit('close');
    expect(gone).toBe(1);
    for (let index = 0; index < MINIMUM_ANSWERS; index++) completions.record('m', 7);
    expect(wait?.resize?.()).toBe(8 + 7 * 2);
  });
});

describe('a request waiting for quota when its client leaves', () => {
  const handle = useMigratedDatabase('sqlite');
  let ledger: MemoryQuotaLedger;
  let server: Server;

  beforeAll(async () => {
    ledger = new MemoryQuotaLedger(handle, { flushIntervalMs: 3_600_000 });
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await ledger?.close();
  });

  it('stops waiting when the connection closes, holding nothing', async () => {
    const user = await insertUser(handle, 1, 100);
    const running = await ledger.reserve(user, null, 70);
    let waitAsked = false;
    let outcome: Promise<unknown> | undefined;
    // The request's own response is what is watched, as the relay watches it (reserveForRequest).
    server = createServer((request, response) => {
      outcome = (async () =>
        ledger.reserve(user, null, 60, () => {
          waitAsked = true;
          return quotaWait({ options: options(60) }, Date.now(), request, response);
        }))();
      outcome.catch(() => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = new AbortController();
    const sent = fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
      method: 'POST',
      body: '{}',
      signal: client.signal,
    }).catch(() => 'left');
    await expect.poll(() => waitAsked).toBe(true);
    client.abort();
    expect(await sent).toBe('left');
    await expect(outcome).rejects.toMatchObject({ status: 499 });
    await ledger.settle(running, 0);
    // Nothing is held for the request that left.
    await ledger.settle(await ledger.reserve(user, null, 100), 0);
  });
});

/**
 * Through the relay: what a request holds is sized from what it asks for. Each case shows the
 * size by what it makes of a balance: refused at once (nothing of the user runs) when the hold
 * exceeds the balance, served when it does not. gpt-4o-mini is priced 1 in, 2 out; "hi" is
 * estimated at 8 prompt tokens, and the mock answers 12 prompt and 7 completion tokens.
 */
describe('the quota a relay request holds', () => {
  const messages = [{ role: 'user' as const, content: 'hi' }];
  const refused = { status: 429, code: 'insufficient_quota' };

  describe('with a balance of 500', () => {
    let r: RelayTestContext;
    beforeAll(async () => {
      r = await startRelayTest({ quota: 500 });
    });
    afterAll(async () => r?.close());

    it('is the client’s max_tokens (or max_completion_tokens) at the output price', async () => {
      // 8 + 300 × 2 = 608 does not fit in 500; 8 + 100 × 2 = 208 does.
      const tooLong = r.client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 300 });
      await expect(tooLong).rejects.toBeInstanceOf(APIError);
      await expect(tooLong).rejects.toMatchObject(refused);
      const short = await r.client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages,
        max_completion_tokens: 100,
      });
      expect(short.usage?.completion_tokens).toBe(7);
    });
  });

  describe(`with a balance that pays for ${RESERVED_COMPLETION_TOKENS_CAP} answer tokens and little more`, () => {
    let r: RelayTestContext;
    beforeAll(async () => {
      r = await startRelayTest({ quota: 8 + RESERVED_COMPLETION_TOKENS_CAP * 2 });
    });
    afterAll(async () => r?.close());

    it(`holds at most ${RESERVED_COMPLETION_TOKENS_CAP} answer tokens, however many the client allows`, async () => {
      const answer = await r.client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 100_000 });
      expect(answer.usage?.completion_tokens).toBe(7);
    });
  });

  describe('without max_tokens', () => {
    let r: RelayTestContext;
    beforeAll(async () => {
      r = await startRelayTest({ quota: 5000 });
      // A pre-consumed amount larger than the balance: held (capped at 4096 tokens' worth, 8192
      // here) only until this node has seen enough answers of the model.
      await r.t.services.options.update('PreConsumedQuota', '1000000');
    });
    afterAll(async () => r?.close());

    it('holds PreConsumedQuota until the model’s answers are known, then what they used', async () => {
      const unlimited = () => r.client.chat.completions.create({ model: 'gpt-4o-mini', messages });
      // 8 + 8192 does not fit in 5000.
      await expect(unlimited()).rejects.toMatchObject(refused);
      for (let index = 0; index < MINIMUM_ANSWERS; index++) {
        await r.client.chat.completions.create({ model: 'gpt-4o-mini', messages, max_tokens: 50 });
      }
      // The answers ran 7 tokens: 8 + 7 × 2 is held now.
      expect((await unlimited()).usage?.completion_tokens).toBe(7);
    });
  });
});
