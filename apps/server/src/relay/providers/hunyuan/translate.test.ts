import { describe, expect, it } from 'vitest';
import { providerType } from '../../../domain/channel-types/registry.js';
import type { AdapterContext, ChatRequest } from '../types.js';
import { hunyuanAdapter } from './adapter.js';
import { hunyuanStreamDecoder, parseHunyuanChat } from './answer.js';
import { hunyuanChatBody } from './chat.js';
import { hunyuanErrorStatus, parseHunyuanError } from './errors.js';

/** The Hunyuan translation pieces on their own: request body, answers, stream and error mapping. */

const context = (overrides: Partial<AdapterContext> = {}): AdapterContext => ({
  key: 'AKIDunit|secretunit',
  channelType: providerType('hunyuan'),
  baseUrl: 'https://hunyuan.tencentcloudapi.com',
  upstreamModel: 'hunyuan-turbos-latest',
  other: '',
  plugin: {},
  headers: {},
  stream: false,
  now: 1_760_000_000,
  responseId: 'chatcmpl-hy1',
  ...overrides,
});

const tool = (name: string) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' } } });
const request = (fields: Partial<ChatRequest>): ChatRequest => ({
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  ...fields,
});
const sse = (...events: unknown[]) => Buffer.from(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(''));
const tencentError = (Code: string) =>
  Buffer.from(JSON.stringify({ Response: { Error: { Code, Message: 'no' }, RequestId: 'r' } }));

describe('Hunyuan request body', () => {
  it('joins system messages into one first message and passes Hunyuan switches', () => {
    const body = hunyuanChatBody(
      request({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'system', content: 'one' },
          { role: 'developer', content: 'two' },
        ],
        enable_enhancement: false,
        seed: 0,
        response_format: { type: 'json_object' },
      }),
      'hunyuan-lite',
      true,
    );
    expect(body).toEqual({
      Model: 'hunyuan-lite',
      Messages: [
        { Role: 'system', Content: 'one\n\ntwo' },
        { Role: 'user', Content: 'a' },
      ],
      Stream: true,
      EnableEnhancement: false,
    });
  });

  it('maps tool choices: required with one tool is that tool, with several auto', () => {
    expect(hunyuanChatBody(request({ tools: [tool('a')], tool_choice: 'required' }), 'm', false)).toMatchObject({
      ToolChoice: 'custom',
      CustomTool: { Function: { Name: 'a' } },
    });
    expect(
      hunyuanChatBody(request({ tools: [tool('a'), tool('b')], tool_choice: 'required' }), 'm', false),
    ).toMatchObject({ ToolChoice: 'auto' });
    expect(() =>
      hunyuanChatBody(
        request({ tools: [tool('a')], tool_choice: { type: 'function', function: { name: 'z' } } }),
        'm',
        false,
      ),
    ).toThrow('tool_choice.function.name: no tool is named "z"');
  });

  it('refuses content Hunyuan cannot take, naming the part', () => {
    const audio = request({
      messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }] }],
    });
    expect(() => hunyuanChatBody(audio, 'm', false)).toThrow(
      'messages[0].content[0]: Hunyuan takes text and image_url parts only',
    );
  });

  it('refuses a key that is neither an API key nor SecretId|SecretKey', () => {
    expect(() => hunyuanAdapter.buildChat(request({}), context({ key: 'a|b|c' }))).toThrow('SecretId|SecretKey');
  });

  it('sends the region when the channel names one', async () => {
    const call = await hunyuanAdapter.buildChat(request({}), context({ other: 'ap-guangzhou' }));
    expect(call.url).toBe('https://hunyuan.tencentcloudapi.com/');
    expect(call.headers).toMatchObject({ 'x-tc-region': 'ap-guangzhou', 'x-tc-timestamp': '1760000000' });
    expect(call.headers.authorization).toContain(
      '/2025-10-09/hunyuan/tc3_request, SignedHeaders=content-type;host;x-tc-action,',
    );
  });

  it('sends single API keys to the OpenAI-compatible API', async () => {
    const call = await hunyuanAdapter.buildChat(request({}), context({ key: 'sk-single' }));
    expect(call.url).toBe('https://api.hunyuan.cloud.tencent.com/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer sk-single');
  });
});

describe('Hunyuan answers', () => {
  it('reads a whole answer with reasoning and a content-filter finish', () => {
    const body = Buffer.from(
      JSON.stringify({
        Response: {
          Choices: [
            { FinishReason: 'sensitive', Message: { Role: 'assistant', Content: 'x', ReasoningContent: 'think' } },
          ],
          Usage: { PromptTokens: 3, CompletionTokens: 2, TotalTokens: 5 },
        },
      }),
    );
    const completion = parseHunyuanChat(body, context());
    expect(completion.choices[0]).toMatchObject({
      message: { content: 'x', reasoning_content: 'think' },
      finish_reason: 'content_filter',
    });
    expect(completion.usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });

  it('merges streamed tool calls by id and sends the last usage once', () => {
    const decoder = hunyuanStreamDecoder(context({ stream: true }));
    const usage = (done: number) => ({ PromptTokens: 4, CompletionTokens: done, TotalTokens: 4 + done });
    const call = (fields: object) => ({
      Choices: [{ Delta: { Role: 'assistant', ToolCalls: [fields] }, FinishReason: '' }],
    });
    const chunks = [
      ...decoder.push(
        sse({ ...call({ Id: 'c1', Type: 'function', Function: { Name: 'f', Arguments: '' } }), Usage: usage(1) }),
      ),
      ...decoder.push(sse({ ...call({ Id: 'c1', Function: { Arguments: '{"a":' } }), Usage: usage(2) })),
      ...decoder.push(sse({ ...call({ Id: 'c1', Function: { Arguments: '1}' } }), Usage: usage(3) })),
      ...decoder.push(sse({ Choices: [{ Delta: { Content: '' }, FinishReason: 'tool_calls' }], Usage: usage(5) })),
      ...decoder.end(),
    ];
    const calls = chunks.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls).toEqual([
      { index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '' } },
      { index: 0, function: { arguments: '{"a":' } },
      { index: 0, function: { arguments: '1}' } },
    ]);
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason).map((c) => c.choices[0]?.finish_reason)).toEqual([
      'tool_calls',
    ]);
    expect(chunks.filter((chunk) => chunk.usage).map((chunk) => chunk.usage)).toEqual([
      { prompt_tokens: 4, completion_tokens: 5, total_tokens: 9 },
    ]);
  });

  it('raises ErrorMsg events and a refusal document instead of events', () => {
    const failing = hunyuanStreamDecoder(context({ stream: true }));
    expect(() => failing.push(sse({ ErrorMsg: { Code: 4001, Msg: '请求模型超时' } }))).toThrow('请求模型超时 (4001)');
    const refused = hunyuanStreamDecoder(context({ stream: true }));
    expect(refused.push(tencentError('LimitExceeded'))).toEqual([]);
    expect(() => refused.end()).toThrow('no (LimitExceeded)');
  });
});

describe('Tencent Cloud errors', () => {
  it.each([
    ['AuthFailure.SignatureFailure', 401, 'authentication_error'],
    ['AuthFailure.SignatureExpire', 500, 'api_error'],
    ['LimitExceeded', 429, 'rate_limit_error'],
    ['RequestLimitExceeded', 429, 'rate_limit_error'],
    ['InvalidParameterValue.Model', 400, 'invalid_request_error'],
    ['ResourceInsufficient.ChargeResourceExhaust', 402, 'insufficient_quota'],
    ['FailedOperation.ServiceNotActivated', 403, 'permission_error'],
    ['InternalError', 502, 'api_error'],
  ])('maps %s to %i', (code, status, type) => {
    expect(hunyuanErrorStatus(tencentError(code))).toBe(status);
    expect(parseHunyuanError(200, tencentError(code))).toEqual({ status, message: `no (${code})`, type, code });
  });

  it('reads success answers as no error, and OpenAI-style errors of the compatible API', () => {
    expect(hunyuanErrorStatus(Buffer.from('{"Response":{"Choices":[]}}'))).toBeUndefined();
    expect(
      parseHunyuanError(401, Buffer.from('{"error":{"message":"bad key","type":"invalid_request_error"}}')),
    ).toMatchObject({
      status: 401,
      message: 'bad key',
    });
  });
});
