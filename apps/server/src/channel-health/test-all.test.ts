import { beforeAll, describe, expect, it } from 'vitest';
import { addMockChannel, useChannelFixture } from '../../test/channel-fixture.js';
import { availableDialects } from '../../test/databases.js';
import { startChannelTestJob } from '../jobs/channel-test-job.js';
import { createLogger } from '../platform/logger.js';
import type { Notification } from '../platform/notify.js';
import { probeKind } from './probe.js';

describe('probeKind', () => {
  it('picks the request by the model name', () => {
    expect(probeKind('gpt-4o-mini')).toBe('chat');
    expect(probeKind('text-embedding-3-small')).toBe('embeddings');
    expect(probeKind('bge-m3')).toBe('embeddings');
    expect(probeKind('dall-e-3')).toBe('image');
    expect(probeKind('flux-schnell')).toBe('image');
    for (const model of ['tts-1', 'whisper-1', 'jina-reranker-v2', 'mj_imagine', 'chirp-v3']) {
      expect(probeKind(model)).toBe('unsupported');
    }
  });
});

describe.each(availableDialects)('channel tests on %s', (dialect) => {
  const fixture = useChannelFixture(dialect);

  const setOptions = async (values: Record<string, string>) => {
    for (const [key, value] of Object.entries(values)) await fixture.t.services.options.update(key, value);
  };
  const addChannel = (fields: Record<string, unknown> = {}) =>
    addMockChannel(fixture, { name: 'probe', test_model: 'gpt-4o-mini', ...fields });
  const channel = async (id: number) => (await fixture.call('GET', `/api/channel/${id}`, fixture.root)).json().data;
  const setStatus = async (id: number, status: number) =>
    expect((await fixture.call('PUT', '/api/channel/', fixture.root, { id, status })).statusCode).toBe(200);

  it('tests a channel with its test model, through its model mapping, and records the time', async () => {
    await setOptions({ ChannelDisableThreshold: '0' });
    const id = await addChannel({ model_mapping: '{"gpt-4o-mini":"gpt-4o-mini-2024-07-18"}' });
    const response = await fixture.call('GET', `/api/channel/test/${id}`, fixture.root);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: '' });
    expect(typeof body.time).toBe('number');
    expect(body.time).toBeGreaterThanOrEqual(0);
    expect(fixture.mock.received).toHaveLength(1);
    expect(fixture.mock.received[0]?.url).toBe('/v1/chat/completions');
    expect(fixture.mock.received[0]?.body).toMatchObject({ model: 'gpt-4o-mini-2024-07-18', stream: false });
    const stored = await channel(id);
    expect(stored.test_time).toBeGreaterThan(0);
    expect(stored.response_time).toBe(Math.round(body.time * 1000));
    const logs = await fixture.t.database.db.selectFrom('logs').select('id').execute();
    expect(logs).toHaveLength(0);
  });

  it('sends embeddings and image models their own request, and refuses kinds it cannot test', async () => {
    const id = await addChannel();
    expect(
      (await fixture.call('GET', `/api/channel/test/${id}?model=text-embedding-3-small`, fixture.root)).statusCode,
    ).toBe(200);
    expect(fixture.mock.received.at(-1)).toMatchObject({ url: '/v1/embeddings', body: { input: 'hi' } });
    expect((await fixture.call('GET', `/api/channel/test/${id}?model=dall-e-3`, fixture.root)).statusCode).toBe(200);
    expect(fixture.mock.received.at(-1)).toMatchObject({ url: '/v1/images/generations', body: { n: 1 } });
    const tts = await fixture.call('GET', `/api/channel/test/${id}?model=tts-1`, fixture.root);
    expect(tts.statusCode).toBe(400);
    expect(tts.json().message).toContain('testing this kind of model is not supported');
    expect(fixture.mock.received).toHaveLength(2);
  });

  it('needs a model, an admin and an existing channel', async () => {
    const id = await addChannel({ test_model: '' });
    const missing = await fixture.call('GET', `/api/channel/test/${id}`, fixture.root);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ success: false });
    expect(missing.json().message).toMatch(/^model/);
    expect((await fixture.call('GET', `/api/channel/test/${id}?model=gpt-4o-mini`, fixture.plain)).statusCode).toBe(
      403,
    );
    expect((await fixture.call('GET', `/api/channel/test/${id}?model=gpt-4o-mini`)).statusCode).toBe(401);
    expect((await fixture.call('GET', '/api/channel/test/999999?model=gpt-4o-mini', fixture.root)).statusCode).toBe(
      404,
    );
    expect(fixture.mock.received).toHaveLength(0);
  });

  it("reports the upstream's error and keeps the channel on for errors that are not the channel's", async () => {
    await setOptions({ AutomaticDisableChannelEnabled: 'true' });
    const id = await addChannel();
    fixture.mock.behaviour.failWith = { status: 500, message: 'the model is overloaded' };
    const response = await fixture.call('GET', `/api/channel/test/${id}`, fixture.root);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ success: false });
    expect(response.json().message).toContain('the model is overloaded');
    expect((await channel(id)).status).toBe(1);
  });

  it('disables a channel whose key is refused, only when auto-disable is on', async () => {
    await setOptions({ AutomaticDisableChannelEnabled: 'false' });
    const kept = await addChannel({ key: 'sk-wrong' });
    const refused = await fixture.call('GET', `/api/channel/test/${kept}`, fixture.root);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('Incorrect API key provided');
    expect(refused.body).not.toContain('sk-wrong');
    expect((await channel(kept)).status).toBe(1);

    await setOptions({ AutomaticDisableChannelEnabled: 'true' });
    const disabled = await addChannel({ key: 'sk-wrong' });
    expect((await fixture.call('GET', `/api/channel/test/${disabled}`, fixture.root)).statusCode).toBe(502);
    expect((await channel(disabled)).status).toBe(3);
  });

  it('never enables a channel from the test of that one channel: only the test of all channels does', async () => {
    await setOptions({ AutomaticEnableChannelEnabled: 'true', ChannelDisableThreshold: '0' });
    const auto = await addChannel();
    const manual = await addChannel();
    await setStatus(auto, 3);
    await setStatus(manual, 2);
    const passed = await fixture.call('GET', `/api/channel/test/${auto}`, fixture.root);
    expect(passed.statusCode).toBe(200);
    expect(passed.json()).toMatchObject({ success: true });
    expect((await fixture.call('GET', `/api/channel/test/${manual}`, fixture.root)).statusCode).toBe(200);
    expect((await channel(auto)).status).toBe(3);
    expect((await channel(manual)).status).toBe(2);
  });

  it('treats an answer slower than ChannelDisableThreshold as a failure', async () => {
    await setOptions({
      AutomaticDisableChannelEnabled: 'true',
      AutomaticEnableChannelEnabled: 'true',
      ChannelDisableThreshold: '0.05',
    });
    fixture.mock.behaviour.delayMs = 150;
    const slow = await addChannel();
    const autoDisabled = await addChannel();
    await setStatus(autoDisabled, 3);
    const response = await fixture.call('GET', `/api/channel/test/${slow}`, fixture.root);
    expect(response.statusCode).toBe(200);
    expect(response.json().success).toBe(true);
    expect(response.json().message).toContain('ChannelDisableThreshold');
    expect((await channel(slow)).status).toBe(3);
    await fixture.call('GET', `/api/channel/test/${autoDisabled}`, fixture.root);
    expect((await channel(autoDisabled)).status).toBe(3);

    await setOptions({ ChannelDisableThreshold: '0' });
    const never = await addChannel();
    await fixture.call('GET', `/api/channel/test/${never}`, fixture.root);
    expect((await channel(never)).status).toBe(1);
  });

  describe('all channels', () => {
    beforeAll(async () => {
      // Start from no channels, so the counts below are this block's own.
      const list = await fixture.call('GET', '/api/channel/?size=100&filter_tag=1', fixture.root);
      const ids = list.json().data.data.map((row: { id: number }) => row.id);
      if (ids.length > 0)
        expect((await fixture.call('DELETE', '/api/channel/batch', fixture.root, { ids })).statusCode).toBe(200);
    });

    const waitUntilIdle = async () => {
      for (let attempt = 0; attempt < 200; attempt++) {
        const status = (await fixture.call('GET', '/api/channel/test/status', fixture.root)).json().data;
        if (!status.running) return status;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the test of all channels did not finish');
    };

    it('tests every channel in the background, refuses a second run and reports progress', async () => {
      await setOptions({
        AutomaticDisableChannelEnabled: 'true',
        AutomaticEnableChannelEnabled: 'true',
        ChannelDisableThreshold: '0',
      });
      fixture.mock.behaviour.delayMs = 50;
      const good = await addChannel();
      const bad = await addChannel({ key: 'sk-wrong' });
      const manual = await addChannel();
      await setStatus(manual, 2);
      await addChannel({ test_model: '' });
      // Automatically disabled and working again: this loop enables it.
      const recovered = await addChannel();
      await setStatus(recovered, 3);

      const notices: Notification[] = [];
      fixture.t.services.notifier = { names: ['capture'], notify: async (notice) => void notices.push(notice) };
      expect((await fixture.call('GET', '/api/channel/test', fixture.plain)).statusCode).toBe(403);
      const started = await fixture.call('GET', '/api/channel/test', fixture.root);
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json()).toMatchObject({ success: true, data: 3 });
      expect((await fixture.call('GET', '/api/channel/test', fixture.root)).statusCode).toBe(409);

      expect(await waitUntilIdle()).toEqual({ running: false, done: 3, total: 3, failed: 1 });
      await expect.poll(() => notices.length).toBe(1);
      expect(notices[0]).toMatchObject({ title: 'Channel test finished' });
      expect(notices[0]?.markdown).toContain('Tested **3** of 3 channels: 2 passed, 1 failed.');
      expect((await channel(good)).status).toBe(1);
      expect((await channel(recovered)).status).toBe(1);
      expect((await channel(bad)).status).toBe(3);
      expect((await channel(manual)).test_time).toBe(0);
    });

    it('runs from the periodic job with the same rules, and stops cleanly', async () => {
      await setOptions({ AutomaticEnableChannelEnabled: 'true', ChannelDisableThreshold: '0' });
      const id = await addChannel();
      await setStatus(id, 3);
      const off = startChannelTestJob({
        services: fixture.t.services,
        logger: createLogger('silent'),
        intervalMinutes: 0,
      });
      await off.stop();

      // 30 ms between passes: the first pass comes after one interval, not at start.
      const job = startChannelTestJob({
        services: fixture.t.services,
        logger: createLogger('silent'),
        intervalMinutes: 0.0005,
        pauseMs: 0,
      });
      try {
        for (let attempt = 0; attempt < 200 && (await channel(id)).status !== 1; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      } finally {
        await job.stop();
      }
      expect((await channel(id)).status).toBe(1);
      expect(fixture.mock.received.some((request) => request.url === '/v1/chat/completions')).toBe(true);
      expect((await waitUntilIdle()).running).toBe(false);
    });
  });
});
