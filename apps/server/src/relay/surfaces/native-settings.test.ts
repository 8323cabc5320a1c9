import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE, GEMINI, type NativeRelay, startNativeRelay } from '../../../test/native-relay.js';

/**
 * The settings of the native surfaces, changed through the settings API while the server runs:
 * ClaudeAPIEnabled / GeminiAPIEnabled switch `/claude/*` and `/gemini/*` off; ClaudeDefaultMaxTokens,
 * ClaudeBudgetTokensPercentage and GeminiOpenThink shape what the translations send upstream.
 */

let relay: NativeRelay;

async function setOption(key: string, value: string): Promise<void> {
  const answer = await relay.r.admin('PUT', '/api/option/', { key, value });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

const lastNative = () => relay.native.received.at(-1)?.body as Record<string, unknown>;

beforeAll(async () => {
  relay = await startNativeRelay({ claude: { input: 1, output: 1 }, gemini: { input: 1, output: 1 } });
});
afterAll(() => relay?.close());
afterEach(async () => {
  relay.native.reset();
  for (const [key, value] of [
    ['ClaudeAPIEnabled', 'true'],
    ['GeminiAPIEnabled', 'true'],
    ['ClaudeDefaultMaxTokens', '{"default":8192}'],
    ['ClaudeBudgetTokensPercentage', '0.8'],
    ['GeminiOpenThink', '{}'],
  ]) {
    await setOption(key as string, value as string);
  }
});

describe('ClaudeAPIEnabled and GeminiAPIEnabled', () => {
  const claudeOff = {
    type: 'one_hub_error',
    error: { type: 'api_not_supported', message: 'Claude API is not supported' },
  };
  // The reference's body: `code: 500` inside a 403 is what its clients see.
  const geminiOff = { error: { code: 500, status: 'one_hub_error', message: 'Gemini API is not supported' } };

  it('refuses every /claude route with 403 while off, keeps /v1/messages, and takes effect without restart', async () => {
    const claude = new Anthropic({ apiKey: relay.r.apiKey, baseURL: `${relay.origin}/claude`, maxRetries: 0 });
    const ask = () =>
      claude.messages.create({ model: CLAUDE, max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] });
    expect((await ask()).content).toEqual([{ type: 'text', text: relay.native.behaviour.reply }]);

    await setOption('ClaudeAPIEnabled', 'false');
    const refused = await ask().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.APIError);
    expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBe(403);
    expect((refused as InstanceType<typeof Anthropic.APIError>).error).toEqual(claudeOff);
    const sentUpstream = relay.native.received.length;
    for (const [method, path] of [
      ['GET', '/claude/v1/models'],
      ['POST', '/claude/v1/messages/count_tokens'],
    ] as const) {
      const answer = await fetch(`${relay.origin}${path}`, {
        method,
        headers: { 'x-api-key': relay.r.apiKey, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: JSON.stringify({ model: CLAUDE, messages: [] }) } : {}),
      });
      expect(answer.status, path).toBe(403);
      expect(await answer.json(), path).toEqual(claudeOff);
    }
    // Refused before the key is checked, as the reference's first middleware does.
    const unknownKey = await fetch(`${relay.origin}/claude/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'sk-not-a-key', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(unknownKey.status).toBe(403);
    expect(await unknownKey.json()).toEqual(claudeOff);
    // The Anthropic surface of the /v1 API is not the Claude API's: it still answers.
    const onV1 = await relay.claude.messages.create({
      model: CLAUDE,
      max_tokens: 20,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(onV1.content).toEqual([{ type: 'text', text: relay.native.behaviour.reply }]);
    expect(relay.native.received.length).toBe(sentUpstream + 1);

    await setOption('ClaudeAPIEnabled', 'true');
    expect((await ask()).content).toEqual([{ type: 'text', text: relay.native.behaviour.reply }]);
  });

  it('refuses every /gemini route with 403 while off, and serves again once on', async () => {
    const ask = () => relay.gemini.models.generateContent({ model: GEMINI, contents: 'Hi' });
    expect((await ask()).text).toBe(relay.native.behaviour.reply);

    await setOption('GeminiAPIEnabled', 'false');
    const sentUpstream = relay.native.received.length;
    const refused = await ask().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(403);
    for (const path of [`/gemini/v1beta/models/${GEMINI}:generateContent`, '/gemini/v1beta/models']) {
      const answer = await fetch(`${relay.origin}${path}`, {
        method: path.endsWith('models') ? 'GET' : 'POST',
        headers: { 'x-goog-api-key': relay.r.apiKey, 'content-type': 'application/json' },
        ...(path.endsWith('models') ? {} : { body: JSON.stringify({ contents: [{ parts: [{ text: 'Hi' }] }] }) }),
      });
      expect(answer.status, path).toBe(403);
      expect(await answer.json(), path).toEqual(geminiOff);
    }
    expect(relay.native.received.length).toBe(sentUpstream);

    await setOption('GeminiAPIEnabled', 'true');
    expect((await ask()).text).toBe(relay.native.behaviour.reply);
  });
});

describe('ClaudeDefaultMaxTokens and ClaudeBudgetTokensPercentage', () => {
  it("sends the model's default max_tokens when the client gives none, as changed in the settings", async () => {
    const chat = (fields: Record<string, unknown> = {}) =>
      relay.r.client.chat.completions.create({ model: CLAUDE, messages: [{ role: 'user', content: 'Hi' }], ...fields });
    await chat();
    expect(lastNative().max_tokens).toBe(8192);

    await setOption('ClaudeDefaultMaxTokens', JSON.stringify({ default: 3000, [CLAUDE]: 1234 }));
    await chat();
    expect(lastNative().max_tokens).toBe(1234);
    await setOption('ClaudeDefaultMaxTokens', JSON.stringify({ default: 3000 }));
    await chat();
    expect(lastNative().max_tokens).toBe(3000);
    // The client's own limit wins.
    await chat({ max_tokens: 77 });
    expect(lastNative().max_tokens).toBe(77);
  });

  it('gives thinking the configured share of max_tokens (effort low 20 %, medium 50 %, else the setting)', async () => {
    const think = (effort: 'low' | 'medium' | 'high') =>
      relay.r.client.chat.completions.create({
        model: CLAUDE,
        max_tokens: 10000,
        reasoning_effort: effort,
        messages: [{ role: 'user', content: 'Hi' }],
      });
    await think('high');
    expect(lastNative().thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    await setOption('ClaudeBudgetTokensPercentage', '0.3');
    await think('high');
    expect(lastNative().thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    await think('medium');
    expect(lastNative().thinking).toEqual({ type: 'enabled', budget_tokens: 5000 });
    await think('low');
    expect(lastNative().thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
  });
});

describe('GeminiOpenThink', () => {
  it('asks Gemini for the thoughts of the models it names', async () => {
    const chat = () =>
      relay.r.client.chat.completions.create({ model: GEMINI, messages: [{ role: 'user', content: 'Hi' }] });
    await chat();
    const config = (lastNative().generationConfig ?? {}) as Record<string, unknown>;
    expect(config.thinkingConfig).toBeUndefined();

    await setOption('GeminiOpenThink', JSON.stringify({ [GEMINI]: true }));
    await chat();
    expect(lastNative().generationConfig).toMatchObject({ thinkingConfig: { includeThoughts: true } });

    await setOption('GeminiOpenThink', JSON.stringify({ [GEMINI]: false, 'gemini-other': true }));
    await chat();
    expect((lastNative().generationConfig as Record<string, unknown> | undefined)?.thinkingConfig).toBeUndefined();
  });
});
