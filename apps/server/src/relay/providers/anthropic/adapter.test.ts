import { describe, expect, it } from 'vitest';
import {
  accumulateChunks,
  context,
  decodeInSlices,
  fixture,
  fixtureJson,
} from '../../../../test/providers/anthropic/test-support.js';
import type { ChatRequest, Json } from '../types.js';
import { anthropicAdapter, defaultMaxTokens } from './adapter.js';
import { setThinkingBudget } from './common.js';

async function build(request: Partial<ChatRequest>, overrides: Parameters<typeof context>[0] = {}) {
  const call = await anthropicAdapter.buildChat(
    { model: 'client-model', messages: [{ role: 'user', content: 'Hi' }], ...request } as ChatRequest,
    context(overrides),
  );
  return { ...call, json: JSON.parse(String(call.body)) as Json };
}

describe('anthropicAdapter.buildChat', () => {
  it('posts to /v1/messages with the key, version and channel headers', async () => {
    const call = await build(
      {},
      {
        headers: { 'anthropic-beta': 'prompt-caching-2024-07-31', 'x-extra': '1' },
        baseUrl: 'https://proxy.example/v1',
      },
    );
    expect(call.url).toBe('https://proxy.example/v1/messages');
    expect(call.headers).toEqual({
      'x-api-key': 'sk-ant-api03-test',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
      'anthropic-beta': 'prompt-caching-2024-07-31',
      'x-extra': '1',
    });
    expect((await build({})).url).toBe('https://api.anthropic.com/v1/messages');
    expect(call.json).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      messages: [{ role: 'user', content: 'Hi' }],
    });
  });

  it('defaults max_tokens by model family and prefers max_completion_tokens', async () => {
    expect(defaultMaxTokens('claude-3-haiku-20240307')).toBe(4096);
    expect(defaultMaxTokens('claude-3-opus-20240229')).toBe(4096);
    expect(defaultMaxTokens('claude-3-5-haiku-20241022')).toBe(8192);
    expect(defaultMaxTokens('claude-opus-4-1')).toBe(8192);
    expect((await build({}, { upstreamModel: 'claude-3-haiku-20240307' })).json.max_tokens).toBe(4096);
    expect((await build({ max_tokens: 300 })).json.max_tokens).toBe(300);
    expect((await build({ max_tokens: 300, max_completion_tokens: 500 })).json.max_tokens).toBe(500);
  });

  it('hoists system and developer messages into system, as a string when there is one', async () => {
    const one = await build({
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(one.json.system).toBe('Be terse.');
    expect(one.json.messages).toEqual([{ role: 'user', content: 'Hi' }]);
    const many = await build({
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(many.json.system).toEqual([
      { type: 'text', text: 'Be terse.' },
      { type: 'text', text: 'Answer in French.' },
    ]);
    const onlySystem = await build({ messages: [{ role: 'system', content: 'Say hello.' }] });
    expect(onlySystem.json.system).toBeUndefined();
    expect(onlySystem.json.messages).toEqual([{ role: 'user', content: 'Say hello.' }]);
  });

  it('keeps multi-turn order and merges consecutive same-role messages', async () => {
    const { json } = await build({
      messages: [
        { role: 'user', content: 'Hello there.' },
        { role: 'user', content: [{ type: 'text', text: 'Are you there?' }] },
        { role: 'assistant', content: 'Hi, I am Claude.' },
        { role: 'assistant', content: 'How can I help?', reasoning_content: 'The user greets me.' },
        { role: 'user', content: 'Explain LLMs.' },
      ],
    });
    expect(json.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hello there.' },
          { type: 'text', text: 'Are you there?' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hi, I am Claude.' },
          { type: 'text', text: 'How can I help?' },
        ],
      },
      { role: 'user', content: 'Explain LLMs.' },
    ]);
    expect(String(JSON.stringify(json))).not.toContain('The user greets me');
  });

  it('turns image URLs into url sources and data URLs into base64 sources', async () => {
    const { json } = await build({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare:' },
            { type: 'image_url', image_url: { url: 'https://example.com/ant.jpg', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(json.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare:' },
          { type: 'image', source: { type: 'url', url: 'https://example.com/ant.jpg' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
    ]);
    await expect(
      build({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }] }),
    ).rejects.toThrow(/^messages\[0\]\.content\[0\]\.image_url\.url:/);
  });

  it('sends PDF files as documents and refuses audio', async () => {
    const { json } = await build({
      messages: [
        {
          role: 'user',
          content: [{ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } }],
        },
      ],
    });
    expect(json.messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
            title: 'a.pdf',
          },
        ],
      },
    ]);
    await expect(
      build({
        messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }],
      }),
    ).rejects.toThrow(/^messages\[0\]\.content\[0\]: Anthropic does not take audio/);
  });

  it('turns tool calls into tool_use blocks and groups tool results in one user turn', async () => {
    const { json } = await build({
      messages: [
        { role: 'user', content: 'Weather in SF and time in NY?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"SF"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '15 degrees' },
        { role: 'tool', tool_call_id: 'call_2', content: '[tool error] time service down' },
        { role: 'user', content: 'Be brief.' },
      ],
    });
    expect(json.messages).toEqual([
      { role: 'user', content: 'Weather in SF and time in NY?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'SF' } },
          { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '15 degrees' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'time service down', is_error: true },
          { type: 'text', text: 'Be brief.' },
        ],
      },
    ]);
    await expect(build({ messages: [{ role: 'tool', content: 'x' }] })).rejects.toThrow(
      /^messages\[0\]\.tool_call_id:/,
    );
  });

  it('puts tool results first in a user turn even when the client wrote text before them', async () => {
    const { json } = await build({
      messages: [
        { role: 'user', content: 'Go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'user', content: 'note' },
        { role: 'tool', tool_call_id: 't', content: [{ type: 'text', text: 'done' }] },
      ],
    });
    expect((json.messages as Json[])[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'done' }] },
        { type: 'text', text: 'note' },
      ],
    });
  });

  it('translates tool definitions and every tool_choice', async () => {
    const tools: ChatRequest['tools'] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Get the weather',
          parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
        },
      },
      { type: 'function', function: { name: 'ping' } },
    ];
    const { json } = await build({ tools });
    expect(json.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Get the weather',
        input_schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      },
      { name: 'ping', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(json.tool_choice).toBeUndefined();
    const choice = async (request: Partial<ChatRequest>) => (await build({ tools, ...request })).json.tool_choice;
    expect(await choice({ tool_choice: 'auto' })).toEqual({ type: 'auto' });
    expect(await choice({ tool_choice: 'required' })).toEqual({ type: 'any' });
    expect(await choice({ tool_choice: 'none' })).toEqual({ type: 'none' });
    expect(await choice({ tool_choice: { type: 'function', function: { name: 'ping' } } })).toEqual({
      type: 'tool',
      name: 'ping',
    });
    expect(await choice({ parallel_tool_calls: false })).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(await choice({ tool_choice: 'required', parallel_tool_calls: false })).toEqual({
      type: 'any',
      disable_parallel_tool_use: true,
    });
  });

  it('maps stop, sampling parameters and user, and drops what Anthropic lacks', async () => {
    const { json } = await build({
      stop: 'END',
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      user: 'user-42',
      n: 1,
      seed: 7,
      presence_penalty: 0.5,
      response_format: { type: 'json_object' },
    });
    expect(json).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      messages: [{ role: 'user', content: 'Hi' }],
      stop_sequences: ['END'],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      metadata: { user_id: 'user-42' },
    });
    expect((await build({ stop: ['a', 'b'] })).json.stop_sequences).toEqual(['a', 'b']);
    expect((await build({}, { stream: true })).json.stream).toBe(true);
  });

  it('enables thinking from the #thinking suffix, stripping it and the sampling parameters', async () => {
    const { json } = await build(
      { temperature: 0.5, top_p: 0.9, top_k: 5, max_tokens: 4000 },
      { upstreamModel: 'claude-sonnet-4-5#thinking' },
    );
    expect(json.model).toBe('claude-sonnet-4-5');
    // ClaudeBudgetTokensPercentage (0.8 by default) of max_tokens.
    expect(json.thinking).toEqual({ type: 'enabled', budget_tokens: 3200 });
    expect(json.max_tokens).toBe(4000);
    expect(json).not.toHaveProperty('temperature');
    expect(json).not.toHaveProperty('top_p');
    expect(json).not.toHaveProperty('top_k');
  });

  it('enables thinking from reasoning_effort with a share of max_tokens per level', async () => {
    const budget = async (effort: ChatRequest['reasoning_effort']) =>
      (await build({ reasoning_effort: effort, max_tokens: 64000 })).json.thinking;
    // low 20 %, medium 50 %, high the ClaudeBudgetTokensPercentage setting (0.8 by default).
    expect(await budget('minimal')).toEqual({ type: 'enabled', budget_tokens: 12800 });
    expect(await budget('low')).toEqual({ type: 'enabled', budget_tokens: 12800 });
    expect(await budget('medium')).toEqual({ type: 'enabled', budget_tokens: 32000 });
    expect(await budget('high')).toEqual({ type: 'enabled', budget_tokens: 51200 });
    // At least Anthropic's minimum; max_tokens stays when above the budget, is raised when not.
    const small = (await build({ reasoning_effort: 'low', max_tokens: 2000 })).json;
    expect(small.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(small.max_tokens).toBe(2000);
    const tiny = (await build({ reasoning_effort: 'low', max_tokens: 1000 })).json;
    expect(tiny.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(tiny.max_tokens).toBe(1024 + 4096);
    // Without max_tokens: a share of the default (ClaudeDefaultMaxTokens, 8192).
    expect((await build({ reasoning_effort: 'high' })).json).toMatchObject({
      max_tokens: 8192,
      thinking: { type: 'enabled', budget_tokens: 6553 },
    });
    // Models that cannot think ignore the effort.
    const old = await build(
      { reasoning_effort: 'high', temperature: 1 },
      { upstreamModel: 'claude-3-5-sonnet-20241022' },
    );
    expect(old.json).not.toHaveProperty('thinking');
    expect(old.json.temperature).toBe(1);
  });

  it('follows ClaudeDefaultMaxTokens and ClaudeBudgetTokensPercentage from the settings', async () => {
    const settings = {
      claudeDefaultMaxTokens: { default: 20000, 'claude-opus-4-1': 32000 },
      claudeBudgetShare: 0.25,
      geminiOpenThink: {},
    };
    expect((await build({}, { settings })).json.max_tokens).toBe(20000);
    expect((await build({}, { settings, upstreamModel: 'claude-opus-4-1' })).json.max_tokens).toBe(32000);
    // The client's own max_tokens wins.
    expect((await build({ max_tokens: 300 }, { settings })).json.max_tokens).toBe(300);
    // Claude 3 answers at most 4096 tokens: `default` is capped for it, a model's own entry is not.
    expect((await build({}, { settings, upstreamModel: 'claude-3-haiku-20240307' })).json.max_tokens).toBe(4096);
    // The setting is the thinking share of the #thinking suffix and of a `high` effort.
    const suffixed = (await build({}, { settings, upstreamModel: 'claude-sonnet-4-5#thinking' })).json;
    expect(suffixed).toMatchObject({ max_tokens: 20000, thinking: { type: 'enabled', budget_tokens: 5000 } });
    const high = (await build({ reasoning_effort: 'high', max_tokens: 10000 }, { settings })).json;
    expect(high.thinking).toEqual({ type: 'enabled', budget_tokens: 2500 });
    // An OpenRouter-style `reasoning` object: its max_tokens when it fits, else the shares.
    const exact = (await build({ reasoning: { max_tokens: 3000 }, max_tokens: 10000 }, { settings })).json;
    expect(exact.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    const medium = (await build({ reasoning: { effort: 'medium' }, max_tokens: 10000 }, { settings })).json;
    expect(medium.thinking).toEqual({ type: 'enabled', budget_tokens: 5000 });
    expect((await build({ reasoning: { effort: 'none' } }, { settings })).json).not.toHaveProperty('thinking');
  });

  it('uses an exact budget carried by the Anthropic surface', async () => {
    const request = {
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      reasoning_effort: 'medium',
      max_tokens: 16000,
    };
    setThinkingBudget(request as ChatRequest, 10000);
    const call = await anthropicAdapter.buildChat(request as ChatRequest, context());
    const json = JSON.parse(String(call.body)) as Json;
    expect(json.thinking).toEqual({ type: 'enabled', budget_tokens: 10000 });
    expect(json.max_tokens).toBe(16000);
  });

  it('leaves thinking off where Anthropic would refuse it', async () => {
    const tools: ChatRequest['tools'] = [{ type: 'function', function: { name: 'f' } }];
    const forced = await build({ tools, tool_choice: 'required', reasoning_effort: 'low' });
    expect(forced.json).not.toHaveProperty('thinking');
    const loop = await build({
      reasoning_effort: 'low',
      tools,
      messages: [
        { role: 'user', content: 'Go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 't', content: 'ok' },
      ],
    });
    expect(loop.json).not.toHaveProperty('thinking');
    const after = await build({
      reasoning_effort: 'low',
      messages: [
        { role: 'user', content: 'Go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 't', content: 'ok' },
        { role: 'assistant', content: 'Done.' },
        { role: 'user', content: 'Again' },
      ],
    });
    expect(after.json.thinking).toEqual({ type: 'enabled', budget_tokens: Math.floor(8192 * 0.2) });
  });

  it('passes cache_control marks on parts through', async () => {
    const { json } = await build({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'long', cache_control: { type: 'ephemeral' } } as never] },
      ],
    });
    expect(json.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'long', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('names the field of a request it cannot translate', async () => {
    await expect(build({ messages: [] })).rejects.toThrow(/^messages:/);
    await expect(build({ messages: [{ role: 'function' as never, content: 'x' }] })).rejects.toThrow(
      /^messages\[0\]\.role:/,
    );
    await expect(build({ tools: [{ type: 'function', function: {} as never }] })).rejects.toThrow(
      /^tools\[0\]\.function\.name:/,
    );
  });
});

describe('anthropicAdapter.parseChat', () => {
  it('reads a plain message with cache usage', () => {
    const completion = anthropicAdapter.parseChat(fixture('message-text.json'), context());
    expect(completion).toEqual({
      id: 'chatcmpl-test123',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-sonnet-4-5-20250929',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi! My name is Claude.' }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: 2095 + 2051 + 2051,
        completion_tokens: 503,
        total_tokens: 2095 + 2051 + 2051 + 503,
        prompt_tokens_details: { cached_tokens: 2051, cached_write_tokens: 2051, cached_read_tokens: 2051 },
      },
    });
  });

  it('reads a tool_use answer', () => {
    const { choices, usage } = anthropicAdapter.parseChat(fixture('message-tool-use.json'), context());
    expect(choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: "I'll check the current weather in San Francisco for you.",
        tool_calls: [
          {
            id: 'toolu_01A09q90qw90lq917835lq9',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    });
    expect(usage?.prompt_tokens).toBe(472);
    expect(usage?.completion_tokens).toBe(89);
  });

  it('reads parallel tool calls in order', () => {
    const { choices } = anthropicAdapter.parseChat(fixture('message-parallel-tool-use.json'), context());
    expect(
      choices[0]?.message.tool_calls?.map((call) => [call.id, call.function.name, call.function.arguments]),
    ).toEqual([
      ['toolu_01', 'get_weather', '{"location":"San Francisco, CA"}'],
      ['toolu_02', 'get_time', '{"timezone":"America/New_York"}'],
    ]);
  });

  it('reads thinking into reasoning_content and skips redacted thinking', () => {
    const { choices } = anthropicAdapter.parseChat(fixture('message-thinking.json'), context());
    expect(choices[0]?.message).toEqual({
      role: 'assistant',
      content: 'Based on my analysis...',
      reasoning_content: 'Let me analyze this step by step...',
    });
  });

  it('maps every stop reason', () => {
    const finish = (stop_reason: unknown) =>
      anthropicAdapter.parseChat(
        Buffer.from(JSON.stringify({ ...fixtureJson('message-stop-sequence.json'), stop_reason })),
        context(),
      ).choices[0]?.finish_reason;
    expect(finish('end_turn')).toBe('stop');
    expect(finish('stop_sequence')).toBe('stop');
    expect(finish('pause_turn')).toBe('stop');
    expect(finish('max_tokens')).toBe('length');
    expect(finish('tool_use')).toBe('tool_calls');
    expect(finish('refusal')).toBe('content_filter');
    expect(finish(null)).toBe('stop');
  });

  it('throws an error naming the problem for a malformed body', () => {
    expect(() => anthropicAdapter.parseChat(Buffer.from('<html>'), context())).toThrow(/not JSON/);
    expect(() => anthropicAdapter.parseChat(Buffer.from('[]'), context())).toThrow(/not a JSON object/);
    expect(() => anthropicAdapter.parseChat(Buffer.from('{"id":"msg_1"}'), context())).toThrow(/no content/);
    expect(() => anthropicAdapter.parseChat(fixture('error-529-overloaded.json'), context())).toThrow('Overloaded');
  });
});

describe('anthropicAdapter.decodeStream', () => {
  const decode = (name: string, size = 1 << 20, overrides = {}) =>
    decodeInSlices(anthropicAdapter.decodeStream(context({ stream: true, ...overrides })), fixture(name), size);

  it('translates a text stream: role first, text deltas, finish, then usage', () => {
    const chunks = decode('stream-text.sse');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta ?? null)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hello' },
      { content: '!' },
      {},
      null,
    ]);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason ?? null)).toEqual([null, null, null, 'stop', null]);
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({
      prompt_tokens: 25,
      completion_tokens: 15,
      total_tokens: 40,
      prompt_tokens_details: { cached_tokens: 0, cached_write_tokens: 0, cached_read_tokens: 0 },
    });
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({
        id: 'chatcmpl-test123',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'claude-opus-4-6',
      });
    }
  });

  it('streams tool-call arguments as fragments under the tool-call index, not the block index', () => {
    const chunks = decode('stream-tool-use.sse');
    const answer = accumulateChunks(chunks);
    expect(answer.content).toBe("Okay, let's check the weather for San Francisco, CA:");
    expect(answer.toolCalls).toEqual([
      {
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'get_weather',
        arguments: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
      },
    ]);
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(fragments[0]).toEqual({
      index: 0,
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(fragments.slice(1).map((fragment) => fragment.function.arguments)).toEqual([
      '{"location":',
      ' "San',
      ' Francisc',
      'o,',
      ' CA"',
      ', ',
      '"unit": "fah',
      'renheit"}',
    ]);
    expect(fragments.every((fragment) => fragment.index === 0)).toBe(true);
    expect(answer.finish).toBe('tool_calls');
    expect(answer.usage?.completion_tokens).toBe(89);
  });

  it('numbers parallel tool calls 0, 1 and reads cached usage repeated in message_delta', () => {
    const answer = accumulateChunks(decode('stream-parallel-tools-cached.sse'));
    expect(answer.toolCalls).toEqual([
      { id: 'toolu_01', name: 'get_weather', arguments: '{"location": "San Francisco, CA"}' },
      { id: 'toolu_02', name: 'get_time', arguments: '{"timezone": "America/New_York"}' },
    ]);
    expect(answer.usage).toEqual({
      prompt_tokens: 12 + 1500 + 30000,
      completion_tokens: 74,
      total_tokens: 12 + 1500 + 30000 + 74,
      prompt_tokens_details: { cached_tokens: 30000, cached_write_tokens: 1500, cached_read_tokens: 30000 },
    });
  });

  it('streams thinking as reasoning_content and ignores the signature', () => {
    const answer = accumulateChunks(decode('stream-thinking.sse'));
    expect(answer.role).toBe('assistant');
    expect(answer.reasoning).toBe(
      'I need to find the GCD of 1071 and 462 using the Euclidean algorithm.\n\n1071 = 2 × 462 + 147' +
        '\n462 = 3 × 147 + 21\n147 = 7 × 21 + 0\n\nSo GCD(1071, 462) = 21',
    );
    expect(answer.content).toBe('The greatest common divisor of 1071 and 462 is **21**.');
    expect(answer.finish).toBe('stop');
    expect(answer.usage?.completion_tokens).toBe(212);
  });

  it('gives the same answer whatever the byte boundaries, even inside multi-byte characters', () => {
    for (const name of ['stream-thinking.sse', 'stream-tool-use.sse']) {
      const whole = accumulateChunks(decode(name));
      const bytes = fixture(name);
      for (let cut = 1; cut < bytes.length; cut += 1) {
        const decoder = anthropicAdapter.decodeStream(context({ stream: true }));
        const chunks = [
          ...decoder.push(bytes.subarray(0, cut)),
          ...decoder.push(bytes.subarray(cut)),
          ...decoder.end(),
        ];
        expect(accumulateChunks(chunks)).toEqual(whole);
      }
      expect(accumulateChunks(decode(name, 1))).toEqual(whole);
      expect(accumulateChunks(decode(name, 7))).toEqual(whole);
    }
  });

  it('throws the error event from push, after the chunks before it were delivered', () => {
    const decoder = anthropicAdapter.decodeStream(context({ stream: true }));
    const text = fixture('stream-error-overloaded.sse').toString('utf8');
    const at = text.indexOf('event: error');
    const before = decoder.push(Buffer.from(text.slice(0, at)));
    expect(accumulateChunks(before).content).toBe('Once upon');
    expect(() => decoder.push(Buffer.from(text.slice(at)))).toThrow('overloaded_error: Overloaded');
  });

  it('treats a stream cut before message_delta as broken, and one missing only message_stop as whole', () => {
    const text = fixture('stream-text.sse').toString('utf8');
    const cut = anthropicAdapter.decodeStream(context({ stream: true }));
    const partial = cut.push(Buffer.from(text.slice(0, text.indexOf('event: content_block_stop') + 10)));
    expect(accumulateChunks(partial).content).toBe('Hello!');
    expect(() => cut.end()).toThrow(/ended before the message was complete/);

    const almost = anthropicAdapter.decodeStream(context({ stream: true }));
    const chunks = [...almost.push(Buffer.from(text.slice(0, text.indexOf('event: message_stop')))), ...almost.end()];
    const answer = accumulateChunks(chunks);
    expect(answer.finish).toBe('stop');
    expect(answer.usage?.completion_tokens).toBe(15);
  });

  it('sends no usage chunk when the stream carried no usage', () => {
    const text = fixture('stream-text.sse')
      .toString('utf8')
      .replace(/,\s*"usage": \{[^}]*\}/g, '');
    const chunks = decodeInSlices(anthropicAdapter.decodeStream(context()), Buffer.from(text), 64);
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('maps stop reasons in message_delta', () => {
    const finishOf = (reason: string) => {
      const text = fixture('stream-text.sse').toString('utf8').replace('"end_turn"', `"${reason}"`);
      return accumulateChunks(decodeInSlices(anthropicAdapter.decodeStream(context()), Buffer.from(text), 100)).finish;
    };
    expect(finishOf('max_tokens')).toBe('length');
    expect(finishOf('stop_sequence')).toBe('stop');
    expect(finishOf('refusal')).toBe('content_filter');
    expect(finishOf('pause_turn')).toBe('stop');
  });

  it('throws on an event whose data is not JSON', () => {
    const decoder = anthropicAdapter.decodeStream(context());
    expect(() => decoder.push(Buffer.from('event: message_start\ndata: {"type": "message_st\n\n'))).toThrow(/not JSON/);
  });
});

describe('anthropicAdapter.parseError', () => {
  it.each([
    ['error-400-invalid-request.json', 400, 'invalid_request_error', /roles must alternate/],
    ['error-401-authentication.json', 401, 'authentication_error', /^invalid x-api-key$/],
    ['error-403-permission.json', 403, 'permission_error', /does not have permission/],
    ['error-429-rate-limit.json', 429, 'rate_limit_error', /per-minute rate limit/],
    ['error-500-api.json', 500, 'api_error', /^Internal server error$/],
    ['error-529-overloaded.json', 529, 'overloaded_error', /^Overloaded$/],
  ])('%s', (name, status, type, message) => {
    const info = anthropicAdapter.parseError(status, fixture(name));
    expect(info.status).toBe(status);
    expect(info.type).toBe(type);
    expect(info.message).toMatch(message);
  });

  it('uses the text of a body that is not JSON', () => {
    const info = anthropicAdapter.parseError(502, fixture('error-502-html.txt'));
    expect(info).toEqual({ status: 502, message: expect.stringContaining('502 Bad Gateway') });
    expect(anthropicAdapter.parseError(503, Buffer.from(''))).toEqual({ status: 503, message: 'HTTP 503' });
  });
});
