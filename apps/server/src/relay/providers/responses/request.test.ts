import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../../../../test/providers/responses/test-support.js';
import type { ChatRequest, Json } from '../types.js';
import { echoOf } from './common.js';
import { responsesToChat } from './request.js';

const toChat = (body: Json, model = ''): ChatRequest => responsesToChat(body, model);
const fails = (body: Json): string => {
  try {
    toChat(body);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error was thrown');
};

describe('Responses request → canonical chat request', () => {
  it('a string input is one user message; the requested model wins over the body', () => {
    const request = toChat(fixtureJson('request-text.json'), 'gpt-4.1-mapped');
    // What is sent upstream: nothing of the Responses shape leaks into it.
    expect(JSON.parse(JSON.stringify(request))).toEqual({
      model: 'gpt-4.1-mapped',
      messages: [{ role: 'user', content: 'Tell me a three sentence bedtime story about a unicorn.' }],
    });
    expect(toChat(fixtureJson('request-text.json')).model).toBe('gpt-4.1');
  });

  it('instructions become the system message; sampling, max_output_tokens and user carry over', () => {
    const request = toChat(fixtureJson('request-instructions.json'));
    expect(request.messages).toEqual([
      { role: 'system', content: 'Talk like a pirate.' },
      { role: 'user', content: 'Are semicolons optional in JavaScript?' },
    ]);
    expect(request.temperature).toBe(0.7);
    expect(request.top_p).toBe(0.9);
    expect(request.max_tokens).toBe(256);
    expect(request.user).toBe('user-1234');
    // metadata and store are kept aside for the answer, never sent upstream.
    const sent = JSON.parse(JSON.stringify(request)) as Json;
    expect(sent).not.toHaveProperty('metadata');
    expect(sent).not.toHaveProperty('store');
    expect(sent).not.toHaveProperty('instructions');
    expect(echoOf(request)).toMatchObject({
      instructions: 'Talk like a pirate.',
      metadata: { session: 'abc' },
      temperature: 0.7,
      top_p: 0.9,
      max_output_tokens: 256,
      user: 'user-1234',
      store: false,
    });
  });

  it('multi-turn with reasoning, function calls, parallel calls and their outputs', () => {
    const request = toChat(fixtureJson('request-multi-turn-tools.json'));
    expect(request.messages).toEqual([
      { role: 'system', content: 'You are a helpful weather assistant.' },
      { role: 'system', content: 'Answer in one sentence.' },
      { role: 'user', content: "What's the weather like in Paris today?" },
      {
        role: 'assistant',
        content: null,
        reasoning_content: '**Checking the weather**\n\nI need the get_weather tool for Paris.',
        tool_calls: [
          {
            id: 'call_12345xyz',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"latitude":48.8566,"longitude":2.3522}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_12345xyz', content: '{"temperature": 14}' },
      { role: 'assistant', content: 'It is currently 14°C in Paris.' },
      { role: 'user', content: 'And in Bogotá and Tokyo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_bogota',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"latitude":4.711,"longitude":-74.0721}' },
          },
          {
            id: 'call_tokyo',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"latitude":35.6762,"longitude":139.6503}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_bogota', content: '{"temperature": 17}' },
      { role: 'tool', tool_call_id: 'call_tokyo', content: '{"temperature": 22}' },
    ]);
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Get current temperature for provided coordinates in celsius.',
          parameters: {
            type: 'object',
            properties: { latitude: { type: 'number' }, longitude: { type: 'number' } },
            required: ['latitude', 'longitude'],
            additionalProperties: false,
          },
          strict: true,
        },
      },
    ]);
    expect(request.reasoning_effort).toBe('medium');
  });

  it('an assistant message followed by function calls is one chat message with text and calls', () => {
    const request = toChat({
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'raw thought' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Checking.',
        reasoning_content: 'raw thought',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
  });

  it('a reasoning item no assistant item follows is dropped; encrypted-only reasoning is dropped', () => {
    const request = toChat({
      model: 'm',
      input: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'lost' }] },
        { role: 'user', content: 'hi' },
        { type: 'reasoning', summary: [], encrypted_content: 'gAAAA' },
        { role: 'assistant', content: 'hello' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
  });

  it('images by URL and data URL, detail levels, and files by data', () => {
    const request = toChat(fixtureJson('request-images.json'));
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: "what's in this image?" },
          {
            type: 'image_url',
            image_url: {
              url: 'https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg',
              detail: 'auto',
            },
          },
          {
            type: 'image_url',
            image_url: {
              url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
              detail: 'low',
            },
          },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQKJcfsj6IK', filename: 'draconomicon.pdf' },
          },
        ],
      },
    ]);
  });

  it('"original" detail becomes "high"; audio parts and image tool outputs carry over', () => {
    const request = toChat({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: 'https://x/y.png', detail: 'original' },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
        { type: 'function_call', call_id: 'c', name: 'shot', arguments: '' },
        {
          type: 'function_call_output',
          call_id: 'c',
          output: [
            { type: 'input_text', text: 'screenshot:' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
          ],
        },
      ],
    });
    expect(request.messages[0]?.content).toEqual([
      { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'high' } },
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
    ]);
    expect(request.messages[1]?.tool_calls?.[0]?.function.arguments).toBe('');
    expect(request.messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'c',
      content: [
        { type: 'text', text: 'screenshot:' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
  });

  it('flat function tools become nested chat tools; tool_choice and parallel_tool_calls carry over', () => {
    const request = toChat(fixtureJson('request-tools.json'));
    expect(request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_current_weather',
          description: 'Get the current weather in a given location',
          parameters: {
            type: 'object',
            properties: {
              location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
              unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
            },
            required: ['location', 'unit'],
          },
        },
      },
      {
        type: 'function',
        function: {
          name: 'get_forecast',
          description: 'Five-day forecast',
          parameters: { type: 'object', properties: { location: { type: 'string' } } },
          strict: false,
        },
      },
    ]);
    expect(request.tool_choice).toBe('auto');
    expect(request.parallel_tool_calls).toBe(false);
  });

  it.each([
    ['none', 'none'],
    ['auto', 'auto'],
    ['required', 'required'],
    [
      { type: 'function', name: 'get_forecast' },
      { type: 'function', function: { name: 'get_forecast' } },
    ],
  ])('tool_choice %j → %j', (choice, expected) => {
    const body = { ...fixtureJson('request-tools.json'), tool_choice: choice };
    expect(toChat(body).tool_choice).toEqual(expected);
  });

  it('allowed_tools narrows the tools and uses its mode', () => {
    const body = {
      ...fixtureJson('request-tools.json'),
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'get_forecast' }] },
    };
    const request = toChat(body);
    expect(request.tool_choice).toBe('required');
    expect(request.tools?.map((tool) => tool.function.name)).toEqual(['get_forecast']);
    expect(() =>
      toChat({
        ...body,
        tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'x' }] },
      }),
    ).toThrow(/^tool_choice\.tools: none of the allowed tools/);
  });

  it('a tool_choice without tools is not sent (chat upstreams refuse it)', () => {
    const request = toChat({ model: 'm', input: 'hi', tool_choice: 'required' });
    expect(request).not.toHaveProperty('tool_choice');
    expect(request).not.toHaveProperty('tools');
  });

  it('json_schema structured output → response_format; json_object and text', () => {
    const request = toChat(fixtureJson('request-structured-output.json'));
    expect(request.messages).toEqual([
      { role: 'system', content: 'Extract the event information.' },
      { role: 'user', content: 'Alice and Bob are going to a science fair on Friday.' },
    ]);
    expect(request.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'calendar_event',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            date: { type: 'string' },
            participants: { type: 'array', items: { type: 'string' } },
          },
          required: ['name', 'date', 'participants'],
          additionalProperties: false,
        },
        strict: true,
      },
    });
    expect(toChat({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } }).response_format).toEqual({
      type: 'json_object',
    });
    expect(toChat({ model: 'm', input: 'x', text: { format: { type: 'text' }, verbosity: 'low' } })).not.toHaveProperty(
      'response_format',
    );
  });

  it.each([
    ['minimal', 'minimal'],
    ['low', 'low'],
    ['medium', 'medium'],
    ['high', 'high'],
    ['xhigh', 'high'],
    ['none', undefined],
  ])('reasoning.effort %s → reasoning_effort %s', (effort, expected) => {
    expect(toChat({ model: 'm', input: 'x', reasoning: { effort } }).reasoning_effort).toBe(expected);
  });

  it('multiple text parts stay a list; one text part becomes a string', () => {
    const request = toChat({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'a' },
            { type: 'input_text', text: 'b' },
          ],
        },
        { role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
        {
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'x', annotations: [] },
            { type: 'output_text', text: 'y', annotations: [] },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      { role: 'system', content: 'rules' },
      { role: 'assistant', content: 'xy' },
    ]);
  });
});

describe('Responses request refusals name the field', () => {
  it('built-in tools cannot be served by a chat upstream', () => {
    expect(fails(fixtureJson('request-builtin-tools.json'))).toMatch(
      /^tools\[0\]\.type: built-in tool "web_search_preview" cannot be served/,
    );
    for (const type of ['web_search', 'file_search', 'computer_use_preview', 'code_interpreter', 'mcp', 'custom']) {
      expect(fails({ model: 'm', input: 'x', tools: [{ type }] })).toContain(`"${type}"`);
    }
    expect(fails({ model: 'm', input: 'x', tool_choice: { type: 'web_search_preview' } })).toMatch(
      /^tool_choice\.type: "web_search_preview" names a built-in tool/,
    );
  });

  it('stored state: previous_response_id, conversation, prompt, background, item references', () => {
    expect(fails({ model: 'm', input: 'x', previous_response_id: 'resp_1' })).toMatch(
      /^previous_response_id: this channel keeps no stored responses/,
    );
    expect(fails({ model: 'm', input: 'x', conversation: 'conv_1' })).toMatch(/^conversation: /);
    expect(fails({ model: 'm', input: 'x', prompt: { id: 'pmpt_1' } })).toMatch(/^prompt: /);
    expect(fails({ model: 'm', input: 'x', background: true })).toMatch(/^background: /);
    expect(fails({ model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] })).toMatch(
      /^input\[0\]\.type: item references need stored responses/,
    );
    // Harmless values are accepted.
    expect(() =>
      toChat({ model: 'm', input: 'x', previous_response_id: null, background: false, store: true }),
    ).not.toThrow();
  });

  it('file ids and file URLs are refused with what to send instead', () => {
    expect(
      fails({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] }),
    ).toMatch(/^input\[0\]\.content\[0\]\.file_id: uploaded files cannot be used.*image_url/);
    expect(
      fails({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] }),
    ).toMatch(/^input\[0\]\.content\[0\]\.file_id: /);
    expect(
      fails({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://x/a.pdf' }] }] }),
    ).toMatch(/^input\[0\]\.content\[0\]\.file_url: /);
  });

  it('built-in tool call items in the input are refused by type', () => {
    expect(fails({ model: 'm', input: [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }] })).toMatch(
      /^input\[0\]\.type: "web_search_call" items belong to built-in tools/,
    );
    expect(fails({ model: 'm', input: [{ type: 'teleport' }] })).toMatch(
      /^input\[0\]\.type: unsupported input item "teleport"/,
    );
  });

  it.each([
    [{ input: 'x' }, /^model: /],
    [{ model: 'm' }, /^input: /],
    [{ model: 'm', input: [] }, /^input: /],
    [{ model: 'm', input: 42 }, /^input: /],
    [{ model: 'm', input: ['hi'] }, /^input\[0\]: an input item object/],
    [{ model: 'm', input: [{ role: 'robot', content: 'x' }] }, /^input\[0\]\.role: /],
    [{ model: 'm', input: [{ role: 'user', content: [] }] }, /^input\[0\]\.content: /],
    [{ model: 'm', input: [{ role: 'user', content: [{ type: 'input_text' }] }] }, /^input\[0\]\.content\[0\]\.text: /],
    [
      { model: 'm', input: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] },
      /^input\[0\]\.content\[0\]\.type: /,
    ],
    [
      { model: 'm', input: [{ role: 'system', content: [{ type: 'input_image', image_url: 'https://x' }] }] },
      /^input\[0\]\.content\[0\]\.type: system and developer messages take text only/,
    ],
    [
      { model: 'm', input: [{ role: 'assistant', content: [{ type: 'input_image' }] }] },
      /^input\[0\]\.content\[0\]\.type: /,
    ],
    [{ model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, /^input\[0\]\.call_id: /],
    [{ model: 'm', input: [{ type: 'function_call', call_id: 'c', arguments: '{}' }] }, /^input\[0\]\.name: /],
    [
      { model: 'm', input: [{ type: 'function_call', call_id: 'c', name: 'f', arguments: 5 }] },
      /^input\[0\]\.arguments: /,
    ],
    [{ model: 'm', input: [{ type: 'function_call_output', output: 'x' }] }, /^input\[0\]\.call_id: /],
    [{ model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: 5 }] }, /^input\[0\]\.output: /],
    [
      { model: 'm', input: [{ type: 'reasoning', summary: [{ type: 'summary_text' }] }] },
      /^input\[0\]\.summary\[0\]\.text: /,
    ],
    [{ model: 'm', input: 'x', instructions: 5 }, /^instructions: /],
    [{ model: 'm', input: 'x', max_output_tokens: 0 }, /^max_output_tokens: /],
    [{ model: 'm', input: 'x', temperature: 'hot' }, /^temperature: /],
    [{ model: 'm', input: 'x', top_p: 'x' }, /^top_p: /],
    [{ model: 'm', input: 'x', stream: 'yes' }, /^stream: /],
    [{ model: 'm', input: 'x', tools: {} }, /^tools: /],
    [{ model: 'm', input: 'x', tools: [{ type: 'function' }] }, /^tools\[0\]\.name: /],
    [{ model: 'm', input: 'x', tools: [{ type: 'function', name: 'f', parameters: [] }] }, /^tools\[0\]\.parameters: /],
    [{ model: 'm', input: 'x', tool_choice: 'sometimes' }, /^tool_choice: /],
    [{ model: 'm', input: 'x', tool_choice: { type: 'function' } }, /^tool_choice\.name: /],
    [{ model: 'm', input: 'x', parallel_tool_calls: 'no' }, /^parallel_tool_calls: /],
    [{ model: 'm', input: 'x', reasoning: { effort: 'huge' } }, /^reasoning\.effort: /],
    [{ model: 'm', input: 'x', text: { format: { type: 'yaml' } } }, /^text\.format\.type: /],
    [{ model: 'm', input: 'x', text: { format: { type: 'json_schema', schema: {} } } }, /^text\.format\.name: /],
    [{ model: 'm', input: 'x', text: { format: { type: 'json_schema', name: 'n' } } }, /^text\.format\.schema: /],
    [{ model: 'm', input: 'x', metadata: 'x' }, /^metadata: /],
    [{ model: 'm', input: 'x', user: 5 }, /^user: /],
  ])('%j is refused', (body, message) => {
    expect(fails(body as Json)).toMatch(message);
  });
});
