import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastConsumeLog, type RelayTestContext, startRelayTest } from '../../../test/relay-setup.js';
import { approximateTokens, countChatPromptTokens, countTextTokens } from './metering.js';

/**
 * ApproximateTokenEnabled: when an upstream reports no usage (a stream without its usage chunk), the prompt and the answer are
 * counted at 0.38 tokens a UTF-8 byte instead of by the tokenizer, and billed at that count.
 */
describe('ApproximateTokenEnabled', () => {
  let r: RelayTestContext;
  const reply = 'Ünïcode 計數 answer — with emoji 😀 and some plain English words after it.';
  const messages = [{ role: 'user' as const, content: 'Count this prompt: 数えてください, s’il vous plaît.' }];

  beforeAll(async () => {
    r = await startRelayTest();
    r.upstream.behaviour.reply = reply;
    r.upstream.behaviour.omitStreamUsage = true;
  }, 60_000);
  afterAll(async () => {
    await r?.close();
  });

  /** A stream whose upstream sends no usage chunk: the gateway counts both sides itself. */
  const chat = async () => {
    const stream = await r.client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(reply);
  };

  it('counts with the tokenizer while it is off, and by the byte rule once it is on', async () => {
    expect(approximateTokens(reply)).not.toBe(countTextTokens(reply));
    await chat();
    const exact = await lastConsumeLog(r);
    expect(exact.completion_tokens).toBe(countTextTokens(reply));
    expect(exact.prompt_tokens).toBe(countChatPromptTokens({ messages }));

    expect((await r.admin('PUT', '/api/option/', { key: 'ApproximateTokenEnabled', value: 'true' })).status).toBe(200);
    await chat();
    const approximate = await lastConsumeLog(r);
    expect(approximate.completion_tokens).toBe(Math.trunc(Buffer.byteLength(reply) * 0.38));
    expect(approximate.completion_tokens).not.toBe(exact.completion_tokens);
    // The prompt is counted by the same rule, inside the same per-message framing.
    expect(approximate.prompt_tokens).toBe(countChatPromptTokens({ messages }));
    expect(approximate.prompt_tokens).not.toBe(exact.prompt_tokens);
    // gpt-4o-mini is priced 1 in, 2 out: the charge follows the approximate counts.
    expect(approximate.quota).toBe(approximate.prompt_tokens + 2 * approximate.completion_tokens);
    await r.admin('PUT', '/api/option/', { key: 'ApproximateTokenEnabled', value: 'false' });
  });
});
