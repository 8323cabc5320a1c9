import { describe, expect, it } from 'vitest';
import { context, fixture, fixtureJson } from '../../../../test/providers/cohere/test-support.js';
import { setThinkingBudget } from '../anthropic/common.js';
import type { ChatRequest, Json } from '../types.js';
import { cohereAdapter } from './adapter.js';

async function build(request: Partial<ChatRequest>, overrides: Parameters<typeof context>[0] = {}) {
  const call = await cohereAdapter.buildChat(
    { model: 'client-model', messages: [{ role: 'user', content: 'Hi' }], ...request } as ChatRequest,
    context(overrides),
  );
  return { ...call, json: JSON.parse(String(call.body)) as Json };
}

const parse = (name: string) => cohereAdapter.parseChat(fixture(name), context());

const salesTools: ChatRequest['tools'] = [
  {
    type: 'function',
    function: {
      name: 'query_daily_sales_report',
      description: 'Connects to a database to retrieve overall sales volumes and sales information for a given day.',
      parameters: {
        type: 'object',
        properties: {
          day: { description: 'Retrieves sales data for this day, formatted as YYYY-MM-DD.', type: 'string' },
        },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'query_product_catalog',
      description:
        'Connects to a a product catalog with information about all the products being sold, including categories, prices, and stock levels.',
      parameters: {
        type: 'object',
        properties: {
          category: {
            description: 'Retrieves product information data for all products in this category.',
            type: 'string',
          },
        },
      },
    },
  },
];

describe('cohereAdapter.buildChat: where and how', () => {
  it('posts to /v2/chat with the bearer key; channel headers cannot replace it', async () => {
    const call = await build({}, { headers: { 'x-client-name': 'one-hub', authorization: 'Bearer stolen' } });
    expect(call.url).toBe('https://api.cohere.com/v2/chat');
    expect(call.headers).toEqual({
      'x-client-name': 'one-hub',
      authorization: 'Bearer co-test-key-0123456789',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(call.json).toEqual({
      model: 'command-a-03-2025',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: false,
    });
  });

  it('takes base URLs with or without a version, and defaults to api.cohere.com', async () => {
    expect((await build({}, { baseUrl: 'https://api.cohere.ai/v1/' })).url).toBe('https://api.cohere.ai/v2/chat');
    expect((await build({}, { baseUrl: 'https://proxy.example/cohere/v2' })).url).toBe(
      'https://proxy.example/cohere/v2/chat',
    );
    expect((await build({}, { baseUrl: '' })).url).toBe('https://api.cohere.com/v2/chat');
  });

  it('asks for a stream when the client streams', async () => {
    const call = await build({}, { stream: true });
    expect(call.json.stream).toBe(true);
    expect(call.headers.accept).toBe('text/event-stream');
  });
});

describe('cohereAdapter.buildChat: messages', () => {
  it('sends the documented tools request from its OpenAI equivalent', async () => {
    const { json } = await build({
      messages: [
        {
          role: 'user',
          content:
            "Can you provide a sales summary for 29th September 2023, and also give me some details about the products in the 'Electronics' category, for example their prices and stock levels?",
        },
      ],
      tools: salesTools,
    });
    expect(json).toEqual(fixtureJson('chat-request-tools.json'));
  });

  it('keeps a multi-turn tool loop: system, tool plan + calls, tool results, later turns', async () => {
    const { json } = await build(
      {
        messages: [
          { role: 'system', content: '## Task and Context\nYou help people answer their questions.' },
          { role: 'user', content: "What's the weather in Toronto?" },
          {
            role: 'assistant',
            content: 'I will search for the weather in Toronto.',
            reasoning_content: 'hidden thoughts',
            tool_calls: [
              {
                id: 'get_weather_1byjy32y4hvq',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
              },
            ],
          },
          {
            role: 'tool',
            tool_call_id: 'get_weather_1byjy32y4hvq',
            content: [{ type: 'text', text: '{"temperature": {"current": "6C"}}' }],
          },
          { role: 'assistant', content: "It's currently 6°C in Toronto." },
          { role: 'user', content: [{ type: 'text', text: 'And in Paris?' }] },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'gets the weather of a given location',
              parameters: {
                type: 'object',
                properties: {
                  location: { type: 'string', description: 'the location to get weather, example: San Fransisco, CA' },
                },
                required: ['location'],
              },
            },
          },
        ],
      },
      { stream: true },
    );
    const expected = fixtureJson('chat-request-multi-turn-tools.json');
    // The last user turn was sent as parts; Cohere takes parts as they are.
    (expected.messages as Json[])[5] = { role: 'user', content: [{ type: 'text', text: 'And in Paris?' }] };
    expect(json).toEqual(expected);
    expect(JSON.stringify(json)).not.toContain('hidden thoughts');
  });

  it('sends developer messages as system and joins text parts of system and tool messages', async () => {
    const { json } = await build({
      messages: [
        {
          role: 'developer',
          content: [
            { type: 'text', text: 'Be terse. ' },
            { type: 'text', text: 'Use French.' },
          ],
        },
        { role: 'user', content: 'Hi' },
      ],
    });
    expect(json.messages).toEqual([
      { role: 'system', content: 'Be terse. Use French.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('carries parallel tool calls of one assistant turn, and object arguments as JSON text', async () => {
    const { json } = await build({
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            {
              id: 'b',
              type: 'function',
              function: { name: 'get_weather', arguments: { city: 'Rome' } as unknown as string },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'a', content: 'sunny' },
        { role: 'tool', tool_call_id: 'b', content: 'rain' },
      ],
    });
    expect((json.messages as Json[]).slice(1)).toEqual([
      {
        role: 'assistant',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'sunny' },
      { role: 'tool', tool_call_id: 'b', content: 'rain' },
    ]);
  });

  it('passes image URLs and base64 data URLs in Cohere image_url parts', async () => {
    const { json } = await build({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare:' },
            { type: 'image_url', image_url: { url: 'https://example.com/chart.png', detail: 'high' } },
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
          { type: 'image_url', image_url: { url: 'https://example.com/chart.png', detail: 'high' } },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
    ]);
  });

  it('refuses what Cohere cannot take, naming the field', async () => {
    const user = (content: unknown) => build({ messages: [{ role: 'user', content } as never] });
    await expect(user([{ type: 'input_audio', input_audio: { data: 'AAA', format: 'wav' } }])).rejects.toThrow(
      /^messages\[0\]\.content\[0\]: Cohere does not take audio/,
    );
    await expect(user([{ type: 'file', file: { file_data: 'data:application/pdf;base64,AA' } }])).rejects.toThrow(
      /^messages\[0\]\.content\[0\]: Cohere does not take files/,
    );
    await expect(user([{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }])).rejects.toThrow(
      /^messages\[0\]\.content\[0\]\.image_url\.url: an https URL/,
    );
    await expect(user([{ type: 'video', video: {} }])).rejects.toThrow(/^messages\[0\]\.content\[0\]\.type:/);
    await expect(build({ messages: [] })).rejects.toThrow(/^messages: /);
    await expect(build({ messages: [{ role: 'robot', content: 'x' } as never] })).rejects.toThrow(
      /^messages\[0\]\.role: unsupported role "robot"/,
    );
    await expect(
      build({ messages: [{ role: 'user', content: 'x' }, { role: 'tool', content: 'y' } as never] }),
    ).rejects.toThrow(/^messages\[1\]\.tool_call_id: /);
    await expect(
      build({
        messages: [
          { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'f' } }] } as never,
        ],
      }),
    ).rejects.toThrow(/^messages\[0\]\.tool_calls\[0\]\.id: /);
    await expect(
      build({
        messages: [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'https://x' } }] } as never],
      }),
    ).rejects.toThrow(/^messages\[0\]\.content\[0\]\.type: only text/);
  });
});

describe('cohereAdapter.buildChat: tools and parameters', () => {
  const tools = salesTools;
  const choiceOf = async (tool_choice: ChatRequest['tool_choice']) => (await build({ tools, tool_choice })).json;

  it('maps every tool_choice', async () => {
    expect((await choiceOf('required')).tool_choice).toBe('REQUIRED');
    expect((await choiceOf('none')).tool_choice).toBe('NONE');
    expect(await choiceOf('auto')).not.toHaveProperty('tool_choice');
    const named = await choiceOf({ type: 'function', function: { name: 'query_product_catalog' } });
    expect(named.tool_choice).toBe('REQUIRED');
    expect((named.tools as Json[]).map((tool) => (tool.function as Json).name)).toEqual(['query_product_catalog']);
    await expect(choiceOf({ type: 'function', function: { name: 'nope' } })).rejects.toThrow(
      /^tool_choice\.function\.name: no tool is named "nope"/,
    );
    await expect(choiceOf('sometimes' as never)).rejects.toThrow(/^tool_choice: /);
    // Without tools there is nothing to choose.
    expect((await build({ tool_choice: 'required' })).json).not.toHaveProperty('tool_choice');
  });

  it('sets strict_tools for strict functions and defaults missing parameters', async () => {
    const { json } = await build({
      tools: [{ type: 'function', function: { name: 'now', strict: true } }],
      parallel_tool_calls: false,
    });
    expect(json.tools).toEqual([
      { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
    ]);
    expect(json.strict_tools).toBe(true);
    expect(json).not.toHaveProperty('parallel_tool_calls');
    await expect(build({ tools: [{ type: 'function', function: {} } as never] })).rejects.toThrow(
      /^tools\[0\]\.function\.name: /,
    );
  });

  it('maps sampling parameters, limits and stop sequences', async () => {
    const { json } = await build({
      max_tokens: 300,
      max_completion_tokens: 500,
      stop: ['END', '\n\n\n'],
      temperature: 0.2,
      top_p: 0.9,
      top_k: 40,
      seed: 7,
      frequency_penalty: 0.1,
      presence_penalty: 0.3,
      n: 2,
      user: 'someone',
      logprobs: true,
    });
    expect(json).toEqual({
      model: 'command-a-03-2025',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 500,
      stop_sequences: ['END', '\n\n\n'],
      temperature: 0.2,
      p: 0.9,
      k: 40,
      seed: 7,
      frequency_penalty: 0.1,
      presence_penalty: 0.3,
      stream: false,
    });
    expect((await build({ stop: 'END' })).json.stop_sequences).toEqual(['END']);
    expect((await build({ max_tokens: 64 })).json.max_tokens).toBe(64);
    await expect(build({ stop: ['ok', 3] as never })).rejects.toThrow(/^stop\[1\]: /);
  });

  it('maps response formats', async () => {
    expect((await build({ response_format: { type: 'json_object' } })).json.response_format).toEqual({
      type: 'json_object',
    });
    const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };
    expect(
      (await build({ response_format: { type: 'json_schema', json_schema: { name: 'book', schema, strict: true } } }))
        .json.response_format,
    ).toEqual({ type: 'json_object', json_schema: schema });
    expect((await build({ response_format: { type: 'text' } })).json).not.toHaveProperty('response_format');
    await expect(build({ response_format: { type: 'json_schema', json_schema: {} } })).rejects.toThrow(
      /^response_format\.json_schema\.schema: /,
    );
  });

  it('turns thinking on from the #thinking suffix, reasoning_effort or an exact budget', async () => {
    const suffix = await build({}, { upstreamModel: 'command-a-reasoning-08-2025#thinking' });
    expect(suffix.json.model).toBe('command-a-reasoning-08-2025');
    expect(suffix.json.thinking).toEqual({ type: 'enabled', token_budget: 8192 });
    expect((await build({ reasoning_effort: 'low' })).json.thinking).toEqual({ type: 'enabled', token_budget: 2048 });
    const exact = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] } as ChatRequest;
    setThinkingBudget(exact, 3000);
    expect((await build(exact)).json.thinking).toEqual({ type: 'enabled', token_budget: 3000 });
    expect((await build({ thinking: { type: 'disabled' }, reasoning_effort: 'high' })).json.thinking).toEqual({
      type: 'disabled',
    });
    expect((await build({})).json).not.toHaveProperty('thinking');
  });

  it("passes Cohere's own RAG and safety fields on", async () => {
    const documents = [{ id: '1', data: { text: 'Cohere is the best!' } }];
    const { json } = await build({ documents, safety_mode: 'STRICT', citation_options: { mode: 'FAST' } });
    expect(json).toMatchObject({ documents, safety_mode: 'STRICT', citation_options: { mode: 'FAST' } });
  });
});

describe('cohereAdapter.parseChat', () => {
  it('reads a text answer with its token usage', () => {
    const completion = parse('chat-response-text.json');
    expect(completion).toEqual({
      id: 'chatcmpl-cohere1',
      object: 'chat.completion',
      created: 1_760_000_000,
      model: 'command-a-03-2025',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'The Art of API Design: Crafting Elegant and Powerful Interfaces' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 215, completion_tokens: 12, total_tokens: 227 },
    });
  });

  it('reads parallel tool calls, with the tool plan as content', () => {
    const completion = parse('chat-response-tool-calls.json');
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toMatch(/^I will first find the sales summary/);
    expect(choice?.message.tool_calls).toEqual([
      {
        id: 'query_daily_sales_report_hgxxmkby3wta',
        type: 'function',
        function: { name: 'query_daily_sales_report', arguments: '{"day": "2023-09-29"}' },
      },
      {
        id: 'query_product_catalog_rpg0z5h8yyz2',
        type: 'function',
        function: { name: 'query_product_catalog', arguments: '{"category": "Electronics"}' },
      },
    ]);
    expect(completion.usage).toEqual({ prompt_tokens: 1032, completion_tokens: 124, total_tokens: 1156 });
  });

  it('reads thinking as reasoning_content and cached tokens', () => {
    const completion = parse('chat-response-thinking.json');
    expect(completion.choices[0]?.message).toEqual({
      role: 'assistant',
      content: '2 + 2 = 4',
      reasoning_content: 'The user is asking for 2+2. That is 4.',
    });
    expect(completion.usage).toEqual({
      prompt_tokens: 1394,
      completion_tokens: 52,
      total_tokens: 1446,
      prompt_tokens_details: { cached_tokens: 1024 },
    });
  });

  it('maps every finish reason', () => {
    expect(parse('chat-response-max-tokens.json').choices[0]?.finish_reason).toBe('length');
    const stopped = parse('chat-response-stop-sequence.json');
    expect(stopped.choices[0]?.finish_reason).toBe('stop');
    // Only billed units here: they stand in for the token counts.
    expect(stopped.usage).toEqual({ prompt_tokens: 24, completion_tokens: 11, total_tokens: 35 });
    expect(() => parse('chat-response-error.json')).toThrow(/finish_reason ERROR/);
  });

  it('drops the #thinking suffix from the answered model', () => {
    const completion = cohereAdapter.parseChat(
      fixture('chat-response-text.json'),
      context({ upstreamModel: 'command-a-reasoning-08-2025#thinking' }),
    );
    expect(completion.model).toBe('command-a-reasoning-08-2025');
  });

  it('names a malformed answer', () => {
    const read = (text: string) => () => cohereAdapter.parseChat(Buffer.from(text), context());
    expect(read('<html>')).toThrow("the upstream's answer is not JSON");
    expect(read('[1]')).toThrow("the upstream's answer is not a JSON object");
    expect(read('{"id":"x"}')).toThrow("the upstream's answer has no message");
    expect(read('{"message":"invalid api token"}')).toThrow('invalid api token');
  });
});
