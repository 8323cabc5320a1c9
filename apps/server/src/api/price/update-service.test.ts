import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PriceView } from '@one-hub/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ROOT_PASSWORD, startTestApp, type TestApp } from '../../../test/app.js';
import { providerType } from '../../domain/channel-types/registry.js';
import { startPriceUpdateJob } from '../../jobs/price-update-job.js';
import { createLogger } from '../../platform/logger.js';

/** A local stand-in for One Hub's price service (`prices.json`): answers whatever the test sets. */
interface PriceServer {
  url: string;
  answer: { status: number; body: string };
  requests: number;
  close(): Promise<void>;
}

async function startPriceServer(): Promise<PriceServer> {
  const state: PriceServer = {
    url: '',
    answer: { status: 200, body: '[]' },
    requests: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((request, response) => {
    state.requests++;
    if (request.method !== 'GET' || request.url !== '/prices.json') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(state.answer.status, { 'content-type': 'application/json' }).end(state.answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prices.json`;
  return state;
}

const price = (model: string, input: number, locked = false) => ({
  model,
  type: 'tokens' as const,
  channel_type: providerType('openai'),
  input,
  output: input * 4,
  locked,
  extra_ratios: {},
});

describe('the price update service (UPDATE_PRICE_SERVICE)', () => {
  let service: PriceServer;
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    service = await startPriceServer();
    t = await startTestApp({ env: { UPDATE_PRICE_SERVICE: service.url } });
    root = await t.login('root', ROOT_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    await service?.close();
  });
  beforeEach(() => {
    service.answer = { status: 200, body: '[]' };
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: root } });
  const stored = async () =>
    new Map<string, PriceView>((await t.services.prices.list('db')).map((entry) => [entry.model, entry]));

  it('names the configured service and hands the console its list, checked but not applied', async () => {
    expect((await get('/api/prices/updateService')).json().data).toBe(service.url);
    service.answer.body = JSON.stringify({ data: [price('remote-model-a', 3), price('gpt-4o', 1.25)] });
    const listed = await get('/api/prices/updateService/prices');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data.map((entry: PriceView) => entry.model)).toEqual(['remote-model-a', 'gpt-4o']);
    expect((await stored()).has('remote-model-a')).toBe(false);
  });

  it('answers 502 naming the problem when the service fails or sends something else', async () => {
    service.answer = { status: 503, body: '{}' };
    const down = await get('/api/prices/updateService/prices');
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toContain('answered HTTP 503');
    service.answer = {
      status: 200,
      body: JSON.stringify([
        { model: 'x', type: 'tokens', channel_type: providerType('openai'), input: 'cheap', output: 1 },
      ]),
    };
    const unreadable = await get('/api/prices/updateService/prices');
    expect(unreadable.statusCode).toBe(502);
    expect(unreadable.json().message).toMatch(/cannot read \(0\.input/);
    service.answer = { status: 200, body: 'not json' };
    expect((await get('/api/prices/updateService/prices')).statusCode).toBe(502);
  });

  it('is for administrators only', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/prices/updateService/prices' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('applies the list on schedule in its mode, never touching locked prices', async () => {
    await t.services.prices.create(price('locked-model', 7, true));
    await t.services.prices.create(price('kept-model', 2));
    service.answer.body = JSON.stringify([price('locked-model', 70), price('kept-model', 20), price('new-model', 5)]);
    const job = startPriceUpdateJob({
      prices: t.services.prices,
      mode: 'update',
      intervalMs: 3_600_000,
      logger: createLogger('silent'),
    });
    try {
      const result = await job.runNow();
      expect(result.updated).toBe(1);
      const prices = await stored();
      expect(prices.get('kept-model')?.input).toBe(20);
      expect(prices.get('locked-model')?.input).toBe(7);
      // `update` changes what exists; it adds nothing.
      expect(prices.has('new-model')).toBe(false);
    } finally {
      await job.stop();
    }
  });

  it('leaves the prices as they were when the scheduled fetch fails', async () => {
    const before = await stored();
    service.answer = { status: 500, body: '' };
    const job = startPriceUpdateJob({
      prices: t.services.prices,
      mode: 'overwrite',
      intervalMs: 3_600_000,
      logger: createLogger('silent'),
    });
    try {
      await expect(job.runNow()).rejects.toThrow(/answered HTTP 500/);
      expect(await stored()).toEqual(before);
    } finally {
      await job.stop();
    }
  });
});

describe('without a price update service', () => {
  it('says none is configured', async () => {
    const t = await startTestApp({ env: { UPDATE_PRICE_SERVICE: '' } });
    try {
      const root = await t.login('root', ROOT_PASSWORD);
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/prices/updateService/prices',
        headers: { cookie: root },
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toContain('UPDATE_PRICE_SERVICE');
    } finally {
      await t.close();
    }
  });
});
