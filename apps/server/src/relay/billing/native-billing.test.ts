import type Anthropic from '@anthropic-ai/sdk';
import type { GoogleGenAI } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NativeUpstreams } from '../../../test/mocks/native-upstreams.js';
import { CLAUDE, GEMINI, type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';
import { lastConsumeLog, type RelayTestContext, storedQuota } from '../../../test/relay-setup.js';
import { countTextTokens } from './metering.js';

/**
 * Billing of the pass-through routes (Anthropic client on an Anthropic channel, Gemini client on
 * a Gemini channel) beyond the contract suite: cache reads at their default ratio, and answers
 * that carry no usage at all, billed on the tokenizer's count of the text that went through.
 */

const PRICE = { input: 1, output: 2 };
// Characters and tokens part ways here: about a token a character, where English has four.
const REPLY = '你好，世界。这是一个没有用量的回答，按分词器计数。';

describe('pass-through billing', () => {
  let relay: NativeRelay;
  let r: RelayTestContext;
  let native: NativeUpstreams;
  let claude: Anthropic;
  let gemini: GoogleGenAI;

  beforeAll(async () => {
    relay = await startNativeRelay({ claude: PRICE, gemini: PRICE });
    ({ r, native, claude, gemini } = relay);
  });
  afterAll(() => relay?.close());
  afterEach(() => native.reset());

  it('bills Claude cache reads at 0.1 and cache writes at 1.25 when the price sets no ratio', async () => {
    // The mock's usage: 21 fresh input tokens, 5 read from the cache, 3 written to it, 9 out.
    for (const stream of [false, true]) {
      const before = await storedQuota(r);
      const params = { model: CLAUDE, max_tokens: 50, messages: [{ role: 'user' as const, content: 'Hi' }] };
      if (stream) await claude.messages.stream(params).finalMessage();
      else await claude.messages.create(params);
      const log = await lastConsumeLog(r);
      // 29 prompt tokens, less 4 (5 × 0.9, truncated) for the reads, plus 0 (3 × 0.25) for the writes.
      const quota = (29 - 4) * PRICE.input + 9 * PRICE.output;
      expect(log).toMatchObject({ prompt_tokens: 29, completion_tokens: 9, quota });
      expect(JSON.parse(log.metadata ?? '{}')).toMatchObject({
        cached_read_tokens: 5,
        cached_read_tokens_ratio: 0.1,
        cached_write_tokens: 3,
        cached_write_tokens_ratio: 1.25,
      });
      expect(JSON.parse(log.metadata ?? '{}')).not.toHaveProperty('cached_tokens');
      expect(await storedQuota(r)).toBe(before - quota);
    }
  });

  const expectCountedReply = async (before: number) => {
    const log = await lastConsumeLog(r);
    expect(log.completion_tokens).toBe(countTextTokens(REPLY));
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(log.prompt_tokens * PRICE.input + log.completion_tokens * PRICE.output);
    expect(await storedQuota(r)).toBe(before - log.quota);
  };

  it('counts the streamed text of an Anthropic answer without usage with the tokenizer', async () => {
    expect(countTextTokens(REPLY)).not.toBe(Math.ceil(REPLY.length / 4));
    native.behaviour.reply = REPLY;
    native.behaviour.withoutUsage = true;
    const before = await storedQuota(r);
    let text = '';
    const stream = claude.messages.stream({
      model: CLAUDE,
      max_tokens: 50,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    stream.on('text', (delta) => {
      text += delta;
    });
    await stream.done();
    expect(text).toBe(REPLY);
    await expectCountedReply(before);
  });

  it('counts the streamed text of a Gemini answer without usage with the tokenizer', async () => {
    native.behaviour.reply = REPLY;
    native.behaviour.withoutUsage = true;
    const before = await storedQuota(r);
    let text = '';
    for await (const chunk of await gemini.models.generateContentStream({ model: GEMINI, contents: 'Hi' })) {
      text += chunk.text ?? '';
    }
    expect(text).toBe(REPLY);
    await expectCountedReply(before);
  });
});
