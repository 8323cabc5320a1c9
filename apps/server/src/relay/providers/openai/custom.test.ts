import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RelayTestContext, startRelayTest } from '../../../../test/relay-setup.js';
import { providerType } from '../../../domain/channel-types/registry.js';

/**
 * Custom channels' `plugin.customize`: a relay mode sent to the channel's own path, and a mode
 * turned off (`disable`) left to another channel.
 */
describe('custom channels with per-endpoint paths', () => {
  let r: RelayTestContext;
  let customId = 0;
  let openAiId = 0;
  beforeAll(async () => {
    r = await startRelayTest();
    openAiId = ((await r.admin('GET', '/api/channel/?order=-id&size=1')).body.data as { data: Array<{ id: number }> })
      .data[0]?.id as number;
    customId = await r.addChannel({
      name: 'custom',
      type: providerType('custom'),
      // The mock serves OpenAI's paths; chat is sent to the same path given in full, embeddings are off.
      plugin: JSON.stringify({ customize: { 1: '/v1/chat/completions', 3: 'disable' } }),
      priority: 10,
    });
  });
  afterAll(() => r?.close());

  const lastLog = async () => {
    await r.t.app.relay.flush();
    return r.t.database.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', 2)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  };

  it('sends chat to the customised path on the custom channel', async () => {
    const completion = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe(r.upstream.behaviour.reply);
    // gpt-4o-mini is priced 1 in, 2 out (relay-setup): 12 prompt and 7 completion tokens.
    expect(await lastLog()).toMatchObject({ channel_id: customId, prompt_tokens: 12, completion_tokens: 7 });
    expect(Number((await lastLog()).quota)).toBe(12 * 1 + 7 * 2);
  });

  it('leaves a disabled mode to another channel, sending nothing for it', async () => {
    await r.t.services.options.update('RetryTimes', '1');
    const before = r.upstream.received.length;
    const answer = await r.client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'x',
      encoding_format: 'float',
    });
    expect(answer.data).toHaveLength(1);
    // One request upstream: the OpenAI channel's.
    expect(r.upstream.received.length).toBe(before + 1);
    expect((await lastLog()).channel_id).toBe(openAiId);
    // text-embedding-3-small is priced 0.5 an input token: 12 prompt tokens.
    expect(Number((await lastLog()).quota)).toBe(12 * 0.5);
  });
});
