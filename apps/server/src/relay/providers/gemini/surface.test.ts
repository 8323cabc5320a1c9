import { describe, expect, it } from 'vitest';
import { fixtureJson, sseEvents, wire } from '../../../../test/providers/gemini/test-support.js';
import type { ChatChunk, ChatCompletion, Json } from '../types.js';
import { GEMINI_MIME, GEMINI_SAFETY, GEMINI_SIGNATURE, GEMINI_THINKING, getExtra } from './common.js';
import { geminiSurface } from './surface.js';

const toChat = (body: Json) => geminiSurface.toChat(body, 'gemini-2.5-flash');

describe('gemini surface toChat', () => {
  it('reads a multi-turn conversation with images, function calls and their responses', () => {
    const request = toChat(fixtureJson('request-multi-turn-tools.json'));
    expect(request.model).toBe('gemini-2.5-flash');
    expect(request.stream).toBeUndefined();
    expect(wire(request.messages)).toEqual([
      {
        role: 'system',
        content: [
          { type: 'text', text: 'You are a lighting system assistant.' },
          { type: 'text', text: 'Answer briefly.' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Turn the lights down to a romantic level, like in this picture.' },
          {
            type: 'image_url',
            image_url: {
              url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
            },
          },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0',
            type: 'function',
            function: { name: 'set_light_values', arguments: '{"brightness":25,"color_temp":"warm"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: '{"brightness":25,"colorTemperature":"warm"}' },
      { role: 'assistant', content: 'The lights are now at 25% brightness with a warm color temperature.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And what about the room in this photo?' },
          {
            type: 'image_url',
            image_url: { url: 'https://generativelanguage.googleapis.com/v1beta/files/abc-123' },
          },
        ],
      },
    ]);
    const call = request.messages[2]?.tool_calls?.[0];
    expect(call && getExtra(call, GEMINI_SIGNATURE)).toBe('CiQB0e2Kb3R0aG91Z2h0LXNpZ25hdHVyZS1leGFtcGxl');
    // The signature rides in memory only: an OpenAI upstream never sees it.
    expect(JSON.stringify(request)).not.toContain('CiQB0e2K');
    const filePart = (request.messages[5]?.content as object[] | undefined)?.[1];
    expect(filePart && getExtra(filePart, GEMINI_MIME)).toBe('image/jpeg');
  });

  it('reads tools, tool config and generation config', () => {
    const request = toChat(fixtureJson('request-multi-turn-tools.json'));
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'set_light_values',
          description: 'Sets the brightness and color temperature of a light.',
          parameters: {
            type: 'object',
            properties: {
              brightness: {
                type: 'integer',
                description: 'Light level from 0 to 100. Zero is off and 100 is full brightness',
              },
              color_temp: {
                type: 'string',
                format: 'enum',
                enum: ['daylight', 'cool', 'warm'],
                description: 'Color temperature of the light fixture, which can be `daylight`, `cool` or `warm`.',
              },
            },
            required: ['brightness', 'color_temp'],
          },
        },
      },
      {
        type: 'function',
        function: {
          name: 'get_current_time',
          description: 'Returns the current local time.',
          parameters: { type: 'object', properties: {} },
        },
      },
    ]);
    expect(request.tool_choice).toEqual({ type: 'function', function: { name: 'set_light_values' } });
    expect(request).toMatchObject({
      temperature: 0.7,
      top_p: 0.95,
      top_k: 40,
      max_tokens: 2048,
      stop: ['END'],
      n: 1,
      seed: 42,
      presence_penalty: 0.5,
      frequency_penalty: 0.25,
      reasoning_effort: 'low',
    });
    expect(getExtra(request, GEMINI_THINKING)).toEqual({ thinkingBudget: 1024, includeThoughts: true });
    expect(getExtra(request, GEMINI_SAFETY)).toHaveLength(2);
  });

  it('maps function-calling modes to tool_choice', () => {
    const choice = (functionCallingConfig: Json) =>
      toChat({
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [{ functionDeclarations: [{ name: 'f' }, { name: 'g' }] }],
        toolConfig: { functionCallingConfig },
      }).tool_choice;
    expect(choice({ mode: 'AUTO' })).toBe('auto');
    expect(choice({ mode: 'NONE' })).toBe('none');
    expect(choice({ mode: 'ANY' })).toBe('required');
    expect(choice({ mode: 'ANY', allowedFunctionNames: ['f', 'g'] })).toBe('required');
    expect(choice({ mode: 'ANY', allowedFunctionNames: ['g'] })).toEqual({ type: 'function', function: { name: 'g' } });
    expect(() => choice({ mode: 'SOMETIMES' })).toThrow(/^toolConfig\.functionCallingConfig\.mode: /);
  });

  it('turns built-in tools into parameterless pseudo-functions', () => {
    const request = toChat(fixtureJson('request-builtin-tools.json'));
    expect(request.tools?.map((tool) => [tool.function.name, tool.function.parameters])).toEqual([
      ['googleSearch', { type: 'object', properties: {} }],
      ['codeExecution', { type: 'object', properties: {} }],
      ['urlContext', { type: 'object', properties: {} }],
    ]);
  });

  it('reads structured output as a json_schema response format', () => {
    const request = toChat(fixtureJson('request-structured-output.json'));
    expect(request.messages).toEqual([
      { role: 'user', content: 'List a few popular cookie recipes, and include the amounts of ingredients.' },
    ]);
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'response',
        schema: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              recipeName: { type: 'string' },
              ingredients: { type: 'array', items: { type: 'string' } },
              rating: { type: ['number', 'null'] },
            },
            propertyOrdering: ['recipeName', 'ingredients', 'rating'],
          },
        },
      },
    });
    const plain = toChat({
      contents: [{ parts: [{ text: 'x' }] }],
      generationConfig: { responseMimeType: 'application/json' },
    });
    expect(plain.response_format).toEqual({ type: 'json_object' });
  });

  it('accepts the snake_case field names of the REST examples', () => {
    const request = toChat(fixtureJson('request-snake-case.json'));
    expect(request.messages).toEqual([
      { role: 'system', content: 'You are a cat. Your name is Neko.' },
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQ==' } },
          { type: 'text', text: 'Caption this image.' },
        ],
      },
    ]);
    expect(request).toMatchObject({
      max_tokens: 500,
      stop: ['Title'],
      reasoning_effort: 'minimal',
      tool_choice: 'none',
    });
    expect(request.tools?.[0]?.function.name).toBe('get_weather');
  });

  it('maps thinking budgets to the nearest effort and thinking levels by name', () => {
    const effort = (thinkingConfig: Json) =>
      toChat({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { thinkingConfig } }).reasoning_effort;
    expect(effort({ thinkingBudget: 0 })).toBe('minimal');
    expect(effort({ thinkingBudget: 600 })).toBe('minimal');
    expect(effort({ thinkingBudget: 2048 })).toBe('low');
    expect(effort({ thinkingBudget: 4096 })).toBe('medium');
    expect(effort({ thinkingBudget: 16000 })).toBe('high');
    expect(effort({ thinkingBudget: 32768 })).toBe('high');
    expect(effort({ thinkingBudget: -1 })).toBeUndefined();
    expect(effort({ thinkingLevel: 'HIGH' })).toBe('high');
    expect(effort({ thinkingLevel: 'low' })).toBe('low');
  });

  it('pairs parallel calls with their responses by name, in order, and by id when given', () => {
    const request = toChat({
      contents: [
        { role: 'user', parts: [{ text: 'Weather?' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { name: 'weather', args: { city: 'Paris' } } },
            { functionCall: { name: 'weather', args: { city: 'Rome' } } },
            { functionCall: { id: 'fc-9', name: 'time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'fc-9', name: 'time', response: { result: '10:00' } } },
            { functionResponse: { name: 'weather', response: { temp: 20 } } },
            { functionResponse: { name: 'weather', response: { temp: 25 } } },
            { text: 'Summarise.' },
          ],
        },
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          { id: 'fc-9', type: 'function', function: { name: 'time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'fc-9', content: '10:00' },
      { role: 'tool', tool_call_id: 'call_0', content: '{"temp":20}' },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":25}' },
      { role: 'user', content: 'Summarise.' },
    ]);
  });

  it('keeps thoughts of earlier model turns as reasoning_content and maps other media', () => {
    const request = toChat({
      contents: [
        {
          role: 'user',
          parts: [
            { inlineData: { mimeType: 'audio/mpeg', data: 'SUQz' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
            { fileData: { mimeType: 'video/mp4', fileUri: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' } },
          ],
        },
        { role: 'model', parts: [{ text: 'Hmm.', thought: true }, { text: 'It is a talk.' }] },
      ],
    });
    const audio = (request.messages[0]?.content as object[] | undefined)?.[0];
    expect(audio && getExtra(audio, GEMINI_MIME)).toBe('audio/mpeg');
    expect(wire(request.messages)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } },
          { type: 'file', file: { file_id: 'https://www.youtube.com/watch?v=9hE5-98ZeCg' } },
        ],
      },
      { role: 'assistant', content: 'It is a talk.', reasoning_content: 'Hmm.' },
    ]);
  });

  it('rejects bad bodies with errors that start with the field path', () => {
    expect(() => toChat({})).toThrow(/^contents: /);
    expect(() => toChat({ contents: [] })).toThrow(/^contents: /);
    expect(() => toChat({ contents: ['hi'] })).toThrow(/^contents\[0\]: /);
    expect(() => toChat({ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] })).toThrow(
      /^contents\[0\]\.role: must be "user" or "model"/,
    );
    expect(() => toChat({ contents: [{ role: 'user', parts: [] }] })).toThrow(/^contents\[0\]\.parts: /);
    expect(() => toChat({ contents: [{ role: 'user' }] })).toThrow(/^contents\[0\]\.parts: /);
    expect(() => toChat({ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png' } }] }] })).toThrow(
      /^contents\[0\]\.parts\[0\]\.inlineData\.data: /,
    );
    expect(() => toChat({ contents: [{ role: 'user', parts: [{ mystery: 1 }] }] })).toThrow(
      /^contents\[0\]\.parts\[0\]: unsupported part/,
    );
    expect(() =>
      toChat({ contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }),
    ).toThrow(/^contents\[0\]\.parts\[0\]\.functionResponse: no earlier functionCall named "f"/);
    expect(() => toChat({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { temperature: 'warm' } })).toThrow(
      /^generationConfig\.temperature: expected a number/,
    );
    expect(() => toChat({ contents: [{ parts: [{ text: 'x' }] }], tools: [{ googleMaps: {} }] })).toThrow(
      /^tools\[0\]: unsupported tool/,
    );
    expect(() => toChat({ contents: [{ parts: [{ text: 'x' }] }], systemInstruction: 5 })).toThrow(
      /^systemInstruction: /,
    );
  });
});

const completion = (
  message: ChatCompletion['choices'][number]['message'],
  finish: ChatCompletion['choices'][number]['finish_reason'],
): ChatCompletion => ({
  id: 'chatcmpl-abc',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, message, finish_reason: finish }],
  usage: {
    prompt_tokens: 100,
    completion_tokens: 50,
    total_tokens: 150,
    prompt_tokens_details: { cached_tokens: 40 },
    completion_tokens_details: { reasoning_tokens: 20 },
  },
});

describe('gemini surface fromChat', () => {
  it('writes a GenerateContentResponse with thoughts, text and usage', () => {
    const answer = geminiSurface.fromChat(
      completion({ role: 'assistant', content: 'Paris.', reasoning_content: 'Capital of France.' }, 'stop'),
      'gemini-2.5-pro',
    );
    expect(answer).toEqual({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Capital of France.', thought: true }, { text: 'Paris.' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 100,
        candidatesTokenCount: 30,
        totalTokenCount: 150,
        thoughtsTokenCount: 20,
        cachedContentTokenCount: 40,
      },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'chatcmpl-abc',
    });
  });

  it('writes tool calls as functionCall parts (finishing with STOP)', () => {
    const answer = geminiSurface.fromChat(
      completion(
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } },
            { id: 'call_2', type: 'function', function: { name: 'time', arguments: '' } },
          ],
        },
        'tool_calls',
      ),
      'gemini-2.5-flash',
    );
    expect((answer.candidates as Json[])[0]).toEqual({
      content: {
        role: 'model',
        parts: [
          { functionCall: { name: 'weather', args: { city: 'Oslo' }, id: 'call_1' } },
          { functionCall: { name: 'time', args: {}, id: 'call_2' } },
        ],
      },
      finishReason: 'STOP',
      index: 0,
    });
  });

  it('maps every finish reason', () => {
    const reason = (finish: ChatCompletion['choices'][number]['finish_reason']) =>
      (
        (
          geminiSurface.fromChat(completion({ role: 'assistant', content: 'x' }, finish), 'm').candidates as Json[]
        )[0] as Json
      ).finishReason;
    expect(reason('stop')).toBe('STOP');
    expect(reason('length')).toBe('MAX_TOKENS');
    expect(reason('tool_calls')).toBe('STOP');
    expect(reason('function_call')).toBe('STOP');
    expect(reason('content_filter')).toBe('SAFETY');
    const filtered = geminiSurface.fromChat(completion({ role: 'assistant', content: '' }, 'content_filter'), 'm');
    expect((filtered.candidates as Json[])[0]).toEqual({ finishReason: 'SAFETY', index: 0 });
  });
});

const chunk = (
  delta: ChatChunk['choices'][number]['delta'],
  finish: ChatChunk['choices'][number]['finish_reason'] = null,
  index = 0,
): ChatChunk => ({
  id: 'chatcmpl-s',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index, delta, finish_reason: finish }],
});

describe('gemini surface encodeStream', () => {
  it('sends text deltas as parts and finishReason with usage on the last event', () => {
    const encoder = geminiSurface.encodeStream('gemini-2.5-flash');
    let out = encoder.push(chunk({ role: 'assistant', content: '' }));
    expect(out).toBe('');
    out += encoder.push(chunk({ reasoning_content: 'Thinking…' }));
    out += encoder.push(chunk({ content: 'Hello' }));
    out += encoder.push(chunk({ content: ' world' }));
    out += encoder.push(chunk({}, 'stop'));
    out += encoder.push({
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
    out += encoder.end({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
    expect(out.endsWith('\n\n')).toBe(true);
    expect(sseEvents(out)).toEqual([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Thinking…', thought: true }] }, index: 0 }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-s',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hello' }] }, index: 0 }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-s',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: ' world' }] }, index: 0 }],
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-s',
      },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-s',
      },
    ]);
  });

  it('gathers tool-call arguments split across chunks into one functionCall part per call', () => {
    const encoder = geminiSurface.encodeStream('gemini-2.5-flash');
    const pieces = [
      chunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Zü' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'rich"}' } }] }),
      chunk({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'time', arguments: '{}' } }],
      }),
      chunk({}, 'tool_calls'),
    ];
    const outputs = pieces.map((piece) => encoder.push(piece));
    // Nothing until a call is complete: the first when the second starts, the second at the finish.
    expect(outputs.slice(0, 4)).toEqual(['', '', '', '']);
    expect(sseEvents(outputs[4] ?? '')[0]?.candidates).toEqual([
      {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'weather', args: { city: 'Zürich' }, id: 'call_a' } }],
        },
        index: 0,
      },
    ]);
    expect(outputs[5]).toBe('');
    const last = sseEvents(encoder.end({ prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 }));
    expect(last).toEqual([
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'time', args: {}, id: 'call_b' } }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4, totalTokenCount: 13 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'chatcmpl-s',
      },
    ]);
  });

  it('maps finish reasons, keeps choices apart, and ends even without a finish chunk', () => {
    const encoder = geminiSurface.encodeStream('m');
    encoder.push(chunk({ content: 'A' }, null, 0));
    encoder.push(chunk({ content: 'B' }, null, 1));
    encoder.push(chunk({}, 'length', 0));
    const last = sseEvents(encoder.end(undefined))[0];
    expect(last?.candidates).toEqual([
      { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'MAX_TOKENS', index: 0 },
      { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 1 },
    ]);
    expect(last).not.toHaveProperty('usageMetadata');
  });

  it('refuses tool-call arguments that grow past the limit', () => {
    const encoder = geminiSurface.encodeStream('m');
    encoder.push(
      chunk({ tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] }),
    );
    const big = 'x'.repeat(1024 * 1024);
    expect(() => {
      for (let i = 0; i < 5; i += 1) encoder.push(chunk({ tool_calls: [{ index: 0, function: { arguments: big } }] }));
    }).toThrow(/larger than the limit/);
  });
});

describe('gemini surface errorBody', () => {
  it("writes Google's error shape with the status name for the code", () => {
    expect(geminiSurface.errorBody(400, 'contents: required')).toEqual({
      error: { code: 400, message: 'contents: required', status: 'INVALID_ARGUMENT' },
    });
    const names = [401, 403, 404, 429, 500, 503].map(
      (status) => (geminiSurface.errorBody(status, 'x').error as Json).status,
    );
    expect(names).toEqual([
      'UNAUTHENTICATED',
      'PERMISSION_DENIED',
      'NOT_FOUND',
      'RESOURCE_EXHAUSTED',
      'INTERNAL',
      'UNAVAILABLE',
    ]);
    expect((geminiSurface.errorBody(529, 'Overloaded', 'overloaded_error').error as Json).status).toBe('UNAVAILABLE');
    expect((geminiSurface.errorBody(502, 'Bad gateway').error as Json).status).toBe('INTERNAL');
  });
});
