import { describe, expect, it } from 'vitest';
import { completionFixture, fixtureJson } from '../../../../test/providers/responses/test-support.js';
import type { Json } from '../types.js';
import { responsesToChat } from './request.js';
import { responsesFromChat } from './response.js';
import { responsesErrorBody, responsesSurface } from './surface.js';

const keys = (value: unknown): string[] => Object.keys(value as Json).sort();

describe('canonical answer → Responses response object', () => {
  it('a text answer has the documented shape: same fields as OpenAI’s response, message item, usage', () => {
    const response = responsesFromChat(completionFixture('completion-text.json'), 'gpt-4.1');
    const documented = fixtureJson('response-documented-text.json');
    // Every field OpenAI documents is there (we add background and the SDK's output_text).
    expect(keys(response)).toEqual([...keys(documented), 'background', 'output_text'].sort());
    expect(response).toMatchObject({
      id: 'resp_B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      object: 'response',
      created_at: 1741569952,
      status: 'completed',
      error: null,
      incomplete_details: null,
      model: 'gpt-4.1',
      output_text: 'Hello! How can I assist you today?',
      usage: {
        input_tokens: 19,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 29,
      },
    });
    const output = response.output as Json[];
    expect(output).toEqual([
      {
        id: 'msg_B9MBs8CjcvOU2jLn4n570S5qMJKcT_0',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello! How can I assist you today?', annotations: [], logprobs: [] }],
      },
    ]);
    const documentedMessage = (documented.output as Json[])[0] as Json;
    expect(keys(output[0])).toEqual(keys(documentedMessage));
  });

  it('tool calls become function_call items after the message, with call ids, in order', () => {
    const response = responsesFromChat(completionFixture('completion-tool-calls.json'), 'gpt-4o-mini');
    const documentedCall = (fixtureJson('response-documented-function-call.json').output as Json[])[0];
    const output = response.output as Json[];
    expect(output.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call']);
    expect(output[1]).toEqual({
      id: 'fc_abc123_1',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_abc123',
      name: 'get_current_weather',
      arguments: '{\n"location": "Boston, MA"\n}',
    });
    expect(keys(output[1])).toEqual(keys(documentedCall));
    expect(output[2]).toMatchObject({ id: 'fc_abc123_2', call_id: 'call_def456', arguments: '{"location": "Tokyo"}' });
    // finish_reason tool_calls is a completed response, as OpenAI's are.
    expect(response.status).toBe('completed');
    expect(response.usage).toEqual({
      input_tokens: 82,
      input_tokens_details: { cached_tokens: 64 },
      output_tokens: 17,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 99,
    });
  });

  it('calls without text give no message item; a call without id gets one', () => {
    const completion = completionFixture('completion-tool-calls.json');
    const message = completion.choices[0]?.message;
    if (!message?.tool_calls?.[0]) throw new Error('fixture');
    message.content = null;
    message.tool_calls[0].id = '';
    const output = responsesFromChat(completion, 'm').output as Json[];
    expect(output.map((item) => item.type)).toEqual(['function_call', 'function_call']);
    expect(output[0]).toMatchObject({ id: 'fc_abc123_0', call_id: 'call_abc123_0' });
  });

  it('reasoning_content becomes a reasoning item with a summary text, before the message', () => {
    const response = responsesFromChat(completionFixture('completion-reasoning.json'), 'deepseek-reasoner');
    expect(response.output).toEqual([
      {
        id: 'rs_0d1a6c5e-deepseek_0',
        type: 'reasoning',
        summary: [
          {
            type: 'summary_text',
            text: 'Compare the tenths: 9.11 has 1 tenth, 9.8 has 8 tenths. So 9.8 is greater.',
          },
        ],
      },
      {
        id: 'msg_0d1a6c5e-deepseek_1',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [
          { type: 'output_text', text: '9.11 is smaller than 9.8, so 9.8 is greater.', annotations: [], logprobs: [] },
        ],
      },
    ]);
    // Reasoning tokens are part of the output; cache writes stay inside input_tokens.
    expect(response.usage).toEqual({
      input_tokens: 18,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 120,
      output_tokens_details: { reasoning_tokens: 98 },
      total_tokens: 138,
    });
    expect(response.output_text).toBe('9.11 is smaller than 9.8, so 9.8 is greater.');
  });

  it('finish length → incomplete, max_output_tokens; the message is incomplete too', () => {
    const response = responsesFromChat(completionFixture('completion-length.json'), 'gpt-4.1');
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect((response.output as Json[])[0]).toMatchObject({ type: 'message', status: 'incomplete' });
  });

  it('finish content_filter → incomplete, content_filter, with an empty message', () => {
    const response = responsesFromChat(completionFixture('completion-content-filter.json'), 'gemini-2.5-flash');
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'content_filter' });
    expect(response.output).toEqual([
      {
        id: 'msg_filter1_0',
        type: 'message',
        status: 'incomplete',
        role: 'assistant',
        content: [{ type: 'output_text', text: '', annotations: [], logprobs: [] }],
      },
    ]);
  });

  it.each([
    ['stop', 'completed', null],
    ['tool_calls', 'completed', null],
    ['function_call', 'completed', null],
    [null, 'completed', null],
    ['length', 'incomplete', { reason: 'max_output_tokens' }],
    ['content_filter', 'incomplete', { reason: 'content_filter' }],
  ])('finish_reason %s → status %s', (finish, status, details) => {
    const completion = completionFixture('completion-text.json');
    (completion.choices[0] as { finish_reason: unknown }).finish_reason = finish;
    const response = responsesFromChat(completion, 'm');
    expect(response.status).toBe(status);
    expect(response.incomplete_details).toEqual(details);
  });

  it('a refusal is a refusal part of the message', () => {
    const response = responsesFromChat(completionFixture('completion-refusal.json'), 'gpt-4o');
    expect((response.output as Json[])[0]).toMatchObject({
      type: 'message',
      content: [{ type: 'refusal', refusal: "I'm sorry, I cannot assist with that request." }],
    });
    expect(response.output_text).toBe('');
  });

  it('no usage reads as zeros; usage without total is summed', () => {
    const completion = completionFixture('completion-text.json');
    delete completion.usage;
    expect(responsesFromChat(completion, 'm').usage).toEqual({
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 0,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 0,
    });
    completion.usage = { prompt_tokens: 3, completion_tokens: 4 } as never;
    expect((responsesFromChat(completion, 'm').usage as Json).total_tokens).toBe(7);
  });

  it('given the canonical request, the response echoes instructions, tools, sampling and metadata', () => {
    const body = { ...fixtureJson('request-instructions.json'), ...fixtureJson('request-tools.json') };
    body.instructions = 'Talk like a pirate.';
    body.reasoning = { effort: 'low', summary: 'auto' };
    const request = responsesToChat(body, 'gpt-4.1');
    const response = responsesFromChat(completionFixture('completion-text.json'), 'gpt-4.1', request);
    expect(response).toMatchObject({
      instructions: 'Talk like a pirate.',
      metadata: { session: 'abc' },
      temperature: 0.7,
      top_p: 0.9,
      max_output_tokens: 256,
      tools: body.tools,
      tool_choice: 'auto',
      parallel_tool_calls: false,
      reasoning: { effort: 'low', summary: 'auto' },
      user: 'user-1234',
    });
    // Without it, OpenAI's defaults.
    expect(responsesFromChat(completionFixture('completion-text.json'), 'gpt-4.1')).toMatchObject({
      instructions: null,
      metadata: {},
      tools: [],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      temperature: null,
    });
  });
});

describe('errors in OpenAI’s envelope', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [429, 'rate_limit_error'],
    [500, 'server_error'],
    [503, 'server_error'],
    [529, 'server_error'],
  ])('%i → %s', (status, type) => {
    expect(responsesSurface.errorBody(status, 'boom')).toEqual({
      error: { message: 'boom', type, param: null, code: null },
    });
  });

  it('keeps an upstream type, and names the field of a 400 as param', () => {
    expect(responsesErrorBody(429, 'slow down', 'insufficient_quota')).toEqual({
      error: { message: 'slow down', type: 'insufficient_quota', param: null, code: null },
    });
    expect(responsesErrorBody(400, 'input[2].content[0].file_id: uploaded files cannot be used')).toMatchObject({
      error: { type: 'invalid_request_error', param: 'input[2].content[0].file_id' },
    });
    expect(responsesErrorBody(500, 'upstream: broke')).toMatchObject({ error: { param: null } });
  });
});
