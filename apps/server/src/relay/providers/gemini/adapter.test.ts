import { describe, expect, it } from 'vitest';
import { context, decodeAll, fixture, partAt } from '../../../../test/providers/gemini/test-support.js';
import type { ChatChunk, ChatRequest, Json } from '../types.js';
import { geminiAdapter } from './adapter.js';
import { maskSecrets, toGeminiSchema } from './common.js';

const build = (request: Partial<ChatRequest>, overrides: Parameters<typeof context>[0] = {}) => {
  const call = geminiAdapter.buildChat(
    { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hi' }], ...request } as ChatRequest,
    context(overrides),
  );
  if (call instanceof Promise) throw new Error('buildChat is synchronous');
  return { ...call, json: JSON.parse(String(call.body)) as Json };
};

const parse = (name: string, overrides: Parameters<typeof context>[0] = {}) =>
  geminiAdapter.parseChat(fixture(name), context(overrides));

describe('gemini buildChat: the call', () => {
  it('posts to generateContent with the key in a header, never in the URL', () => {
    const call = build({}, { headers: { 'x-extra': '1' } });
    expect(call.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent');
    expect(call.url).not.toContain('key=');
    expect(call.headers).toEqual({
      'content-type': 'application/json',
      'x-extra': '1',
      'x-goog-api-key': 'AIzaSyTestKey0000000000000000000000000',
    });
  });

  it('streams through streamGenerateContent?alt=sse', () => {
    expect(build({ stream: true }, { stream: true }).url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    );
  });

  it('takes the API version from the channel when it looks like one', () => {
    expect(build({}, { other: 'v1' }).url).toContain('/v1/models/');
    expect(build({}, { other: 'v1alpha' }).url).toContain('/v1alpha/models/');
    expect(build({}, { other: 'us-central1' }).url).toContain('/v1beta/models/');
    expect(build({}, { baseUrl: 'https://proxy.example/gemini/v1beta/' }).url).toBe(
      'https://proxy.example/gemini/v1beta/models/gemini-2.5-flash:generateContent',
    );
  });

  it('strips #thinking and models/ from the model and turns dynamic thinking on', () => {
    const call = build({}, { upstreamModel: 'models/gemini-2.5-pro#thinking' });
    expect(call.url).toContain('/models/gemini-2.5-pro:generateContent');
    expect((call.json.generationConfig as Json).thinkingConfig).toEqual({ thinkingBudget: -1, includeThoughts: true });
  });

  it('sends every safety category at BLOCK_NONE by default', () => {
    expect(build({}).json.safetySettings).toEqual([
      { category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', threshold: 'BLOCK_NONE' },
      { category: 'HARM_CATEGORY_CIVIC_INTEGRITY', threshold: 'BLOCK_NONE' },
    ]);
  });

  it("uses the channel plugin's safety_settings: one threshold, a map, or Gemini's list", () => {
    const one = build({}, { plugin: { safety_settings: 'BLOCK_ONLY_HIGH' } }).json.safetySettings as Json[];
    expect(one).toHaveLength(5);
    expect(one.every((setting) => setting.threshold === 'BLOCK_ONLY_HIGH')).toBe(true);
    expect(
      build({}, { plugin: { safety_settings: { HARM_CATEGORY_HARASSMENT: 'BLOCK_LOW_AND_ABOVE' } } }).json
        .safetySettings,
    ).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_LOW_AND_ABOVE' }]);
    const list = [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'OFF' }];
    expect(build({}, { plugin: { safety_settings: list } }).json.safetySettings).toEqual(list);
  });
});

describe('gemini buildChat: messages', () => {
  it('moves system and developer messages to systemInstruction and maps roles', () => {
    const { json } = build({
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Bonjour' },
        { role: 'user', content: 'How are you?' },
      ],
    });
    expect(json.systemInstruction).toEqual({ parts: [{ text: 'Be terse.' }, { text: 'Answer in French.' }] });
    expect(json.contents).toEqual([
      { role: 'user', parts: [{ text: 'Hello' }] },
      { role: 'model', parts: [{ text: 'Bonjour' }] },
      { role: 'user', parts: [{ text: 'How are you?' }] },
    ]);
  });

  it('merges consecutive turns of one role', () => {
    const { json } = build({
      messages: [
        { role: 'user', content: 'One' },
        { role: 'user', content: 'Two' },
        { role: 'assistant', content: 'A' },
        { role: 'assistant', content: 'B' },
      ],
    });
    expect(json.contents).toEqual([
      { role: 'user', parts: [{ text: 'One' }, { text: 'Two' }] },
      { role: 'model', parts: [{ text: 'A' }, { text: 'B' }] },
    ]);
  });

  it('sends data-URL images inline and https images as file data with a guessed MIME type', () => {
    const { json } = build({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.webp?size=large' } },
            { type: 'image_url', image_url: { url: 'https://example.com/render' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' } },
          ],
        },
      ],
    });
    expect(json.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'Compare these' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { mimeType: 'image/webp', fileUri: 'https://example.com/cat.webp?size=large' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/render' } },
          { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
        ],
      },
    ]);
  });

  it('turns tool calls into functionCall parts and tool results into functionResponse parts', () => {
    const { json } = build({
      messages: [
        { role: 'user', content: 'Weather in Paris and Berlin?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"temp":21}' },
        { role: 'tool', tool_call_id: 'call_b', content: '10:00' },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(json.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Berlin?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
          { functionResponse: { name: 'get_time', response: { result: '10:00' } } },
          { text: 'Thanks' },
        ],
      },
    ]);
  });

  it('gives Gemini 3 function calls a thought signature: the one received, else the placeholder', () => {
    const messages: ChatRequest['messages'] = [
      { role: 'user', content: 'Go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'a', arguments: '{}' },
            extra_content: { google: { thought_signature: 'c2lnMQ==' } },
          } as ChatRequest['messages'][number]['tool_calls'] extends (infer T)[] | undefined ? T : never,
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c2', type: 'function', function: { name: 'b', arguments: '{}' } },
          { id: 'c3', type: 'function', function: { name: 'c', arguments: '{}' } },
        ],
      },
    ];
    const contents = build({ messages }, { upstreamModel: 'gemini-3-pro-preview' }).json.contents;
    expect(partAt(contents, 1, 0)?.thoughtSignature).toBe('c2lnMQ==');
    expect(partAt(contents, 3, 0)?.thoughtSignature).toBe('skip_thought_signature_validator');
    expect(partAt(contents, 3, 1)).toBeDefined();
    expect(partAt(contents, 3, 1)?.thoughtSignature).toBeUndefined();
    // 2.x models do not check signatures, and v1 has no such field: no placeholder there.
    const old = build({ messages }, { upstreamModel: 'gemini-2.5-flash' }).json.contents;
    expect(partAt(old, 3, 0)).toHaveProperty('functionCall');
    expect(partAt(old, 3, 0)?.thoughtSignature).toBeUndefined();
    const v1 = build({ messages }, { upstreamModel: 'gemini-3-pro-preview', other: 'v1' }).json.contents;
    expect(partAt(v1, 3, 0)).toHaveProperty('functionCall');
    expect(partAt(v1, 3, 0)?.thoughtSignature).toBeUndefined();
  });

  it('throws errors that name the bad field', () => {
    expect(() => build({ messages: [] })).toThrow(/^messages: at least one/);
    expect(() =>
      build({
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }],
      }),
    ).toThrow(/^messages\[0\]\.content\[0\]\.image_url\.url: /);
    expect(() =>
      build({
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{oops' } }],
          },
        ],
      }),
    ).toThrow(/^messages\[0\]\.tool_calls\[0\]\.function\.arguments: not valid JSON/);
    expect(() => build({ messages: [{ role: 'tool', tool_call_id: 'nope', content: 'x' }] })).toThrow(
      /^messages\[0\]\.tool_call_id: /,
    );
    expect(() => build({ messages: [{ role: 'narrator' as 'user', content: 'x' }] })).toThrow(/^messages\[0\]\.role: /);
  });
});

describe('gemini buildChat: tools', () => {
  const weather = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Weather for a city',
      strict: true,
      parameters: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: {
          city: { type: 'string', minLength: 1 },
          unit: { type: ['string', 'null'], enum: ['c', 'f', null] },
          when: { type: 'string', format: 'date-time' },
          email: { type: 'string', format: 'email' },
          days: { type: 'integer', enum: [1, 3, 7], exclusiveMinimum: 0 },
          place: { $ref: '#/$defs/Place' },
        },
        required: ['city', 'ghost'],
        $defs: { Place: { type: 'object', properties: { lat: { type: 'number' } }, additionalProperties: false } },
      },
    },
  };

  it('declares functions with schemas cleaned of what Gemini rejects', () => {
    const { json } = build({ tools: [weather] });
    expect(json.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: {
              type: 'OBJECT',
              properties: {
                city: { type: 'STRING', minLength: 1 },
                unit: { type: 'STRING', enum: ['c', 'f'], nullable: true },
                when: { type: 'STRING', format: 'date-time' },
                email: { type: 'STRING' },
                days: { type: 'INTEGER', description: 'Allowed values: 1, 3, 7.' },
                place: { type: 'OBJECT', properties: { lat: { type: 'NUMBER' } } },
              },
              required: ['city'],
            },
          },
        ],
      },
    ]);
  });

  it('leaves out the parameters of a function without arguments', () => {
    const { json } = build({
      tools: [{ type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } }],
    });
    expect(json.tools).toEqual([{ functionDeclarations: [{ name: 'now' }] }]);
  });

  it('turns googleSearch / codeExecution / urlContext pseudo-functions into built-in tools', () => {
    const { json } = build({
      tools: [
        weather,
        { type: 'function', function: { name: 'googleSearch' } },
        { type: 'function', function: { name: 'codeExecution', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'urlContext' } },
      ],
    });
    const tools = json.tools as Json[];
    expect(tools.slice(1)).toEqual([{ googleSearch: {} }, { codeExecution: {} }, { urlContext: {} }]);
    expect(((tools[0] as Json).functionDeclarations as Json[]).map((declaration) => declaration.name)).toEqual([
      'get_weather',
    ]);
  });

  it('maps every tool_choice', () => {
    const config = (tool_choice: ChatRequest['tool_choice']) =>
      build({ tools: [weather], tool_choice }).json.toolConfig;
    expect(config('auto')).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(config('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(config('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(config({ type: 'function', function: { name: 'get_weather' } })).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
    expect(build({ tool_choice: 'auto' }).json.toolConfig).toBeUndefined();
  });
});

describe('gemini buildChat: generation config', () => {
  it('maps sampling fields, limits and stops', () => {
    const { json } = build({
      temperature: 0.3,
      top_p: 0.9,
      top_k: 20,
      max_tokens: 100,
      max_completion_tokens: 200,
      stop: 'END',
      n: 2,
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
    });
    expect(json.generationConfig).toEqual({
      temperature: 0.3,
      topP: 0.9,
      topK: 20,
      maxOutputTokens: 200,
      stopSequences: ['END'],
      candidateCount: 2,
      seed: 7,
      presencePenalty: 0.1,
      frequencyPenalty: 0.2,
    });
    expect((build({ max_tokens: 64, stop: ['a', 'b'] }).json.generationConfig as Json).stopSequences).toEqual([
      'a',
      'b',
    ]);
    expect((build({ max_tokens: 64 }).json.generationConfig as Json).maxOutputTokens).toBe(64);
    expect(() => build({ temperature: 'hot' as unknown as number })).toThrow(/^temperature: /);
  });

  it('asks for JSON, with a cleaned schema for json_schema', () => {
    expect(build({ response_format: { type: 'json_object' } }).json.generationConfig).toEqual({
      responseMimeType: 'application/json',
    });
    const { json } = build({
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'person',
          strict: true,
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, age: { type: 'integer' } },
            required: ['name', 'age'],
            additionalProperties: false,
          },
        },
      },
    });
    expect(json.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        properties: { name: { type: 'STRING' }, age: { type: 'INTEGER' } },
        required: ['name', 'age'],
      },
    });
  });

  it('maps reasoning_effort to a thinking budget and shows the thoughts', () => {
    const thinking = (reasoning_effort: string) =>
      (build({ reasoning_effort: reasoning_effort as ChatRequest['reasoning_effort'] }).json.generationConfig as Json)
        .thinkingConfig;
    expect(thinking('minimal')).toEqual({ thinkingBudget: 512, includeThoughts: true });
    expect(thinking('low')).toEqual({ thinkingBudget: 1024, includeThoughts: true });
    expect(thinking('medium')).toEqual({ thinkingBudget: 8192, includeThoughts: true });
    expect(thinking('high')).toEqual({ thinkingBudget: 24576, includeThoughts: true });
    expect(thinking('none')).toEqual({ thinkingBudget: 0 });
    expect(build({}).json.generationConfig).toBeUndefined();
    const exact = build({ reasoning: { max_tokens: 3000 } }).json.generationConfig as Json;
    expect(exact.thinkingConfig).toEqual({ thinkingBudget: 3000, includeThoughts: true });
  });
});

describe('gemini parseChat', () => {
  it('reads a plain text answer and its usage', () => {
    expect(parse('response-text.json')).toEqual({
      id: 'chatcmpl-test1',
      object: 'chat.completion',
      created: 1_750_000_000,
      model: 'gemini-2.0-flash',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content:
              'AI learns patterns from data to make predictions or decisions without being explicitly programmed for every case.',
          },
          finish_reason: 'stop',
        },
      ],
      // The per-modality counts go into the details, priced by kind (billing/quota.ts).
      usage: {
        prompt_tokens: 8,
        completion_tokens: 21,
        total_tokens: 29,
        prompt_tokens_details: { text_tokens: 8 },
        completion_tokens_details: { text_tokens: 21 },
      },
    });
  });

  it('reads cached prompt tokens', () => {
    expect(parse('response-cached.json').usage).toEqual({
      prompt_tokens: 69120,
      completion_tokens: 11,
      total_tokens: 69131,
      prompt_tokens_details: { cached_tokens: 65536, text_tokens: 69120 },
    });
  });

  it('reads a function call as a tool call finishing for tool_calls', () => {
    const answer = parse('response-function-call.json');
    expect(answer.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_test1_0',
            type: 'function',
            function: {
              name: 'schedule_meeting',
              arguments: '{"attendees":["Bob","Alice"],"date":"2025-03-27","time":"10:00","topic":"Q3 planning"}',
            },
          },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('reads parallel calls with distinct ids, the thought signature, and thoughts in the usage', () => {
    const answer = parse('response-parallel-function-calls.json');
    const calls = answer.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => [call.id, call.function.name, call.function.arguments])).toEqual([
      ['call_test1_0', 'power_disco_ball', '{"power":true}'],
      ['call_test1_1', 'start_music', '{"energetic":true,"loud":true}'],
      ['call_test1_2', 'dim_lights', '{"brightness":0.5}'],
    ]);
    expect(calls[0]).toMatchObject({
      extra_content: { google: { thought_signature: 'CiwB0e2Kb1BhcmFsbGVsU2lnbmF0dXJl' } },
    });
    expect(calls[1]).not.toHaveProperty('extra_content');
    expect(answer.usage).toEqual({
      prompt_tokens: 226,
      completion_tokens: 169,
      total_tokens: 395,
      completion_tokens_details: { reasoning_tokens: 132 },
    });
  });

  it('puts thought parts in reasoning_content and counts thoughts as completion', () => {
    const answer = parse('response-thinking.json');
    const message = answer.choices[0]?.message;
    expect(message?.reasoning_content).toMatch(/^\*\*Defining Occam's Razor\*\*/);
    expect(message?.content).toMatch(/^Occam's Razor says/);
    expect(message?.content).not.toContain('Defining');
    expect(answer.usage).toEqual({
      prompt_tokens: 15,
      completion_tokens: 997,
      total_tokens: 1012,
      prompt_tokens_details: { text_tokens: 15 },
      completion_tokens_details: { reasoning_tokens: 945 },
    });
  });

  it('maps MAX_TOKENS to length', () => {
    expect(parse('response-max-tokens.json').choices[0]?.finish_reason).toBe('length');
  });

  it('maps every filter reason to content_filter', () => {
    for (const reason of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']) {
      const body = { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: reason }] };
      const answer = geminiAdapter.parseChat(Buffer.from(JSON.stringify(body)), context());
      expect(answer.choices[0]?.finish_reason, reason).toBe('content_filter');
    }
    for (const reason of ['STOP', 'OTHER', 'LANGUAGE', 'MALFORMED_FUNCTION_CALL']) {
      const body = { candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason: reason }] };
      expect(geminiAdapter.parseChat(Buffer.from(JSON.stringify(body)), context()).choices[0]?.finish_reason).toBe(
        'stop',
      );
    }
  });

  it('reads a candidate blocked for safety as an empty filtered answer', () => {
    const answer = parse('response-candidate-safety.json');
    expect(answer.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
    ]);
    expect(answer.usage).toEqual({ prompt_tokens: 12, completion_tokens: 0, total_tokens: 12 });
  });

  it('reads a blocked prompt (no candidates) as an empty filtered answer', () => {
    const answer = parse('response-prompt-blocked.json');
    expect(answer.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' },
    ]);
    expect(answer.usage?.prompt_tokens).toBe(9);
  });

  it('shows code execution as Markdown and bills tool-use prompt tokens as prompt', () => {
    const answer = parse('response-code-execution.json');
    const content = answer.choices[0]?.message.content ?? '';
    expect(content).toContain("I'll compute the sum of the first 50 primes.");
    expect(content).toContain('```python\nprimes = []');
    expect(content).toContain('```output\n5117\n');
    expect(content).toMatch(/is 5117\.$/);
    expect(answer.usage).toEqual({ prompt_tokens: 278, completion_tokens: 142, total_tokens: 420 });
  });

  it('reads several candidates as several choices', () => {
    const body = {
      candidates: [
        { content: { parts: [{ text: 'A' }], role: 'model' }, finishReason: 'STOP', index: 0 },
        { content: { parts: [{ text: 'B' }], role: 'model' }, finishReason: 'MAX_TOKENS', index: 1 },
      ],
    };
    const answer = geminiAdapter.parseChat(Buffer.from(JSON.stringify(body)), context());
    expect(answer.choices.map((choice) => [choice.index, choice.message.content, choice.finish_reason])).toEqual([
      [0, 'A', 'stop'],
      [1, 'B', 'length'],
    ]);
  });

  it('throws an Error naming the problem for malformed answers', () => {
    expect(() => geminiAdapter.parseChat(Buffer.from('<html>'), context())).toThrow(/answer is not JSON/);
    expect(() => geminiAdapter.parseChat(Buffer.from('[]'), context())).toThrow(/not a JSON object/);
    expect(() => geminiAdapter.parseChat(Buffer.from('{"candidates":[]}'), context())).toThrow(/no candidates/);
    expect(() => geminiAdapter.parseChat(fixture('error-500-internal.json'), context())).toThrow(
      /^INTERNAL: An internal error/,
    );
  });
});

/** Everything a list of chunks says, put back together. */
function collect(chunks: ChatChunk[]) {
  let content = '';
  let reasoning = '';
  const calls: Json[] = [];
  const finishes: unknown[] = [];
  let usage: unknown;
  let roles = 0;
  for (const chunk of chunks) {
    expect(chunk.object).toBe('chat.completion.chunk');
    expect(chunk.id).toBe('chatcmpl-test1');
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.delta.role) roles += 1;
      content += choice.delta.content ?? '';
      reasoning += choice.delta.reasoning_content ?? '';
      for (const call of choice.delta.tool_calls ?? []) calls.push(call as unknown as Json);
      if (choice.finish_reason) finishes.push(choice.finish_reason);
    }
  }
  return { content, reasoning, calls, finishes, usage, roles };
}

describe('gemini decodeStream', () => {
  it('turns text events into content deltas, then a finish chunk, then usage', () => {
    const chunks = decodeAll(geminiAdapter.decodeStream(context({ stream: true })), fixture('stream-text.sse'));
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: 'AI' });
    expect(chunks[0]?.model).toBe('gemini-2.0-flash');
    const result = collect(chunks);
    expect(result.content).toBe(
      'AI learns patterns from data — like a student 📚 studying examples, then makes predictions.',
    );
    expect(result.finishes).toEqual(['stop']);
    expect(result.roles).toBe(1);
    const last = chunks[chunks.length - 1];
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 19,
      total_tokens: 27,
      prompt_tokens_details: { text_tokens: 8 },
      completion_tokens_details: { text_tokens: 19 },
    });
    expect(chunks[chunks.length - 2]?.choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'stop' });
  });

  it('gives the same chunks whatever the byte boundaries, even inside UTF-8 characters', () => {
    const bytes = fixture('stream-text.sse');
    const whole = decodeAll(geminiAdapter.decodeStream(context()), bytes);
    for (const size of [1, 2, 3, 7, 64]) {
      expect(decodeAll(geminiAdapter.decodeStream(context()), bytes, size), `size ${size}`).toEqual(whole);
    }
  });

  it('streams thoughts as reasoning and each whole function call as one delta', () => {
    const chunks = decodeAll(geminiAdapter.decodeStream(context()), fixture('stream-thinking-function-call.sse'), 5);
    const result = collect(chunks);
    expect(result.reasoning).toMatch(/^\*\*Checking the weather\*\*/);
    expect(result.content).toBe('Let me look that up.');
    expect(result.calls).toEqual([
      {
        index: 0,
        id: 'call_test1_0',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' },
        extra_content: { google: { thought_signature: 'CiIB0e2Kb1N0cmVhbVNpZ25hdHVyZQ==' } },
      },
      {
        index: 1,
        id: 'call_test1_1',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Zürich","unit":"celsius"}' },
      },
    ]);
    expect(result.finishes).toEqual(['tool_calls']);
    expect(result.usage).toEqual({
      prompt_tokens: 71,
      completion_tokens: 110,
      total_tokens: 181,
      prompt_tokens_details: { cached_tokens: 32 },
      completion_tokens_details: { reasoning_tokens: 68 },
    });
  });

  it('finishes a stream stopped by a safety filter with content_filter', () => {
    const result = collect(decodeAll(geminiAdapter.decodeStream(context()), fixture('stream-safety.sse')));
    expect(result.content).toBe('Here is how');
    expect(result.finishes).toEqual(['content_filter']);
  });

  it('answers a blocked prompt with an empty content_filter choice', () => {
    const chunks = decodeAll(geminiAdapter.decodeStream(context()), fixture('stream-prompt-blocked.sse'));
    expect(chunks.map((chunk) => chunk.choices)).toEqual([
      [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      [{ index: 0, delta: {}, finish_reason: 'content_filter' }],
      [],
    ]);
    expect(chunks[2]?.usage).toEqual({ prompt_tokens: 7, completion_tokens: 0, total_tokens: 7 });
  });

  it('holds back a half-received event; a stream cut inside it fails at the end, naming the cut', () => {
    const bytes = fixture('stream-text.sse');
    const cut = bytes.indexOf('studying');
    const decoder = geminiAdapter.decodeStream(context());
    const seen = collect(decoder.push(bytes.subarray(0, cut)));
    expect(seen.content).toBe('AI learns patterns from data — like a student 📚');
    expect(seen.finishes).toEqual([]);
    expect(() => decoder.end()).toThrow(/^Gemini stream ended inside an event/);
  });

  it('closes the open choice when a stream ends between events without a finish reason', () => {
    const bytes = fixture('stream-text.sse');
    const boundary = bytes.lastIndexOf('data: ');
    const decoder = geminiAdapter.decodeStream(context());
    expect(collect(decoder.push(bytes.subarray(0, boundary))).finishes).toEqual([]);
    // end() closes the open choice; the counts seen so far leave the output out, so no usage is
    // reported and the relay counts the text that came through.
    const after = decoder.end();
    expect(after.map((chunk) => chunk.choices[0]?.finish_reason ?? null)).toEqual(['stop']);
    expect(after.some((chunk) => chunk.usage)).toBe(false);
  });

  it('reads an event left without its blank line when the stream closes', () => {
    const decoder = geminiAdapter.decodeStream(context());
    const body = 'data: {"candidates":[{"content":{"parts":[{"text":"Hi"}],"role":"model"},"finishReason":"STOP"}]}';
    expect(decoder.push(Buffer.from(body))).toEqual([]);
    expect(collect(decoder.end())).toMatchObject({ content: 'Hi', finishes: ['stop'] });
  });

  it('throws on an error event and on a malformed event', () => {
    const failing = geminiAdapter.decodeStream(context());
    const error = 'data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\n\n';
    expect(() => failing.push(Buffer.from(error))).toThrow(/^UNAVAILABLE: The model is overloaded\./);
    const broken = geminiAdapter.decodeStream(context());
    expect(() => broken.push(Buffer.from('data: {"candidates":[\n\n'))).toThrow(/stream event is not JSON/);
  });
});

describe('gemini parseError', () => {
  const error = (name: string, status: number) => geminiAdapter.parseError(status, fixture(name));

  it('keeps "API key not valid" and INVALID_ARGUMENT, typed as an authentication error', () => {
    expect(error('error-400-api-key-invalid.json', 400)).toEqual({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      type: 'authentication_error',
      code: 'INVALID_ARGUMENT',
    });
  });

  it('maps the other statuses', () => {
    expect(error('error-400-invalid-argument.json', 400)).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      code: 'INVALID_ARGUMENT',
    });
    expect(error('error-401-unauthenticated.json', 401)).toMatchObject({
      type: 'authentication_error',
      code: 'UNAUTHENTICATED',
    });
    expect(error('error-403-permission-denied.json', 403)).toMatchObject({
      status: 403,
      type: 'authentication_error',
      code: 'PERMISSION_DENIED',
    });
    expect(error('error-404-model-not-found.json', 404)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(error('error-429-resource-exhausted.json', 429)).toEqual({
      status: 429,
      message: expect.stringMatching(/^You exceeded your current quota/),
      type: 'rate_limit_error',
      code: 'RESOURCE_EXHAUSTED',
    });
    expect(error('error-500-internal.json', 500)).toMatchObject({
      status: 500,
      type: 'server_error',
      code: 'INTERNAL',
    });
    expect(error('error-503-unavailable.json', 503)).toEqual({
      status: 503,
      message: 'The model is overloaded. Please try again later.',
      type: 'server_error',
      code: 'UNAVAILABLE',
    });
  });

  it('reads the list form and non-JSON bodies, and masks keys', () => {
    const listed = Buffer.from(`[${fixture('error-429-resource-exhausted.json').toString()}]`);
    expect(geminiAdapter.parseError(429, listed).type).toBe('rate_limit_error');
    const html = geminiAdapter.parseError(502, Buffer.from('<html>Bad Gateway</html>'));
    expect(html).toEqual({ status: 502, message: '<html>Bad Gateway</html>' });
    const leaky = {
      error: {
        code: 400,
        message: 'Bad request to /v1beta/models/x:generateContent?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW&alt=sse',
        status: 'INVALID_ARGUMENT',
      },
    };
    const masked = geminiAdapter.parseError(400, Buffer.from(JSON.stringify(leaky)));
    expect(masked.message).toBe('Bad request to /v1beta/models/x:generateContent?key=***&alt=sse');
    expect(maskSecrets('bare AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW here')).toBe('bare AIza*** here');
    expect(geminiAdapter.parseError(500, Buffer.from('')).message).toBe('HTTP 500');
  });
});

describe('toGeminiSchema', () => {
  it('inlines allOf members, turns oneOf into anyOf and survives recursive refs', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        properties: {
          both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }] },
          either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
          maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          fixed: { const: 'yes' },
          node: { $ref: '#/definitions/Node' },
        },
        definitions: { Node: { type: 'object', properties: { next: { $ref: '#/definitions/Node' } } } },
      }),
    ).toMatchObject({
      type: 'OBJECT',
      properties: {
        both: { type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['a'] },
        either: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
        maybe: { type: 'STRING', nullable: true },
        fixed: { enum: ['yes'] },
        node: { type: 'OBJECT', properties: { next: { type: 'OBJECT' } } },
      },
    });
  });
});
