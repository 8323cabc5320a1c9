import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isRecord, type Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, pieces, sendJson } from '../../mocks/mock-server.js';

/**
 * A local stand-in for Tencent Hunyuan, for the end-to-end tests. It checks what Tencent Cloud
 * checks and answers in its formats:
 *
 * - `POST /` is the native API 3.0. The `Authorization` header must be a TC3-HMAC-SHA256
 *   signature of this very request by a known SecretId: the mock rebuilds the canonical request
 *   from the headers the client listed as signed (content-type and host at least) and the body,
 *   derives the key from the SecretKey, the UTC date of `X-TC-Timestamp` and the service
 *   `hunyuan`, and compares (written here from Tencent's documentation, apart from the gateway's
 *   signer). `X-TC-Version` must be 2023-09-01. Every refusal is HTTP 200 with
 *   `{"Response": {"Error": {Code, Message}, "RequestId"}}`, as Tencent answers.
 * - `X-TC-Action: ChatCompletions` takes the documented PascalCase body only (Model, Messages with
 *   Role/Content/Contents/ToolCalls/ToolCallId, a system message only first, Tools whose
 *   Parameters is a JSON string, ToolChoice none/auto/custom with CustomTool, Stream…). With tools
 *   and no tool result yet it calls the first (or the custom) tool with `{"city":"Paris"}`;
 *   otherwise it answers `reply`. Whole (`Response.Choices[].Message`) or as events of
 *   `Choices[].Delta`, the usage so far on each.
 * - `X-TC-Action: GetEmbedding` takes `Input` or `InputList`; text i gets `vector(i)`.
 * - `POST /v1/chat/completions` and `/v1/embeddings` are the OpenAI-compatible API of single API
 *   keys (`Authorization: Bearer <apiKey>`, 401 OpenAI-style otherwise).
 */

export interface HunyuanBehaviour {
  secretId: string;
  secretKey: string;
  apiKey: string;
  reply: string;
  chunks: number;
  usage: { prompt: number; completion: number };
  /** A Tencent error code (and message) to answer every native call with. */
  failWith?: { code: string; message: string };
}

export interface HunyuanRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Json;
  /** The body exactly as received (the signature covers it). */
  raw: string;
}

export type HunyuanMock = ListeningMock<HunyuanBehaviour, HunyuanRequest>;

export const hunyuanDefaults = (): HunyuanBehaviour => ({
  secretId: 'AKIDmockHunyuan0123456789abcdefEXAMPLE',
  secretKey: 'mockSecretKey0123456789abcdefEXAMPLE',
  apiKey: 'sk-hunyuan-mock-5f0e1d2c3b4a',
  reply: '你好！我是腾讯混元 — ready. ✅',
  chunks: 4,
  usage: { prompt: 23, completion: 11 },
});

export const vector = (index: number): number[] => [0.25, -0.5, index + 0.125, 0.1];

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Tencent's check of a TC3 signature, from its documentation; the refusal code, or undefined. */
export function signatureProblem(behaviour: HunyuanBehaviour, request: HunyuanRequest): string | undefined {
  const header = String(request.headers.authorization ?? '');
  const match =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return 'AuthFailure.InvalidAuthorization';
  const [, secretId, date, service, signedHeaders, signature] = match as unknown as string[];
  if (secretId !== behaviour.secretId) return 'AuthFailure.SecretIdNotFound';
  const timestamp = Number(request.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp)) return 'MissingParameter';
  if (Math.abs(Date.now() / 1000 - timestamp) > 300) return 'AuthFailure.SignatureExpire';
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date || service !== 'hunyuan') {
    return 'AuthFailure.SignatureFailure';
  }
  const names = (signedHeaders as string).split(';');
  if (!names.includes('content-type') || !names.includes('host')) return 'AuthFailure.SignatureFailure';
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const canonical = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${hex(request.raw)}`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/hunyuan/tc3_request\n${hex(canonical)}`;
  let key: Buffer = createHmac('sha256', `TC3${behaviour.secretKey}`)
    .update(date as string)
    .digest();
  key = createHmac('sha256', key).update('hunyuan').digest();
  key = createHmac('sha256', key).update('tc3_request').digest();
  return createHmac('sha256', key).update(toSign).digest('hex') === signature
    ? undefined
    : 'AuthFailure.SignatureFailure';
}

const tencentError = (response: ServerResponse, code: string, message = code) =>
  sendJson(response, 200, { Response: { Error: { Code: code, Message: message }, RequestId: 'req-mock-error-1' } });

const CHAT_FIELDS = new Set([
  'Model',
  'Messages',
  'Stream',
  'StreamModeration',
  'TopP',
  'Temperature',
  'EnableEnhancement',
  'Tools',
  'ToolChoice',
  'CustomTool',
  'SearchInfo',
  'Citation',
  'EnableSpeedSearch',
  'EnableMultimedia',
  'EnableDeepSearch',
  'Seed',
  'ForceSearchEnhancement',
  'Stop',
  'EnableRecommendedQuestions',
  'EnableDeepRead',
]);
const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

export function chatProblem(body: Json): string | undefined {
  const unknown = Object.keys(body).find((field) => !CHAT_FIELDS.has(field));
  if (unknown) return `UnknownParameter: ${unknown}`;
  if (typeof body.Model !== 'string' || !body.Model) return 'MissingParameter: Model';
  if (!Array.isArray(body.Messages) || body.Messages.length === 0) return 'MissingParameter: Messages';
  for (const [index, message] of body.Messages.entries()) {
    if (!isRecord(message) || !ROLES.has(String(message.Role))) return `InvalidParameter: Messages[${index}].Role`;
    if (message.Role === 'system' && index !== 0) return 'InvalidParameter: system must come first';
    if (message.Role === 'tool' && typeof message.ToolCallId !== 'string') return 'InvalidParameter: ToolCallId';
    const hasContent = typeof message.Content === 'string' || Array.isArray(message.Contents);
    if (!hasContent && !Array.isArray(message.ToolCalls)) return `InvalidParameter: Messages[${index}].Content`;
    for (const part of Array.isArray(message.Contents) ? message.Contents : []) {
      if (!isRecord(part) || (part.Type !== 'text' && part.Type !== 'image_url')) return 'InvalidParameter: Contents';
      if (part.Type === 'image_url' && !(isRecord(part.ImageUrl) && typeof part.ImageUrl.Url === 'string')) {
        return 'InvalidParameter: Contents.ImageUrl';
      }
    }
  }
  for (const tool of Array.isArray(body.Tools) ? body.Tools : []) {
    const fn = isRecord(tool) && isRecord(tool.Function) ? tool.Function : undefined;
    if (!fn || typeof fn.Name !== 'string' || typeof fn.Parameters !== 'string') return 'InvalidParameter: Tools';
  }
  if (body.ToolChoice !== undefined && !['none', 'auto', 'custom'].includes(String(body.ToolChoice))) {
    return 'InvalidParameter: ToolChoice';
  }
  if (body.ToolChoice === 'custom' && !isRecord(body.CustomTool)) return 'MissingParameter: CustomTool';
  return undefined;
}

function chat(behaviour: HunyuanBehaviour, body: Json, response: ServerResponse): void {
  const messages = body.Messages as Json[];
  const tools = Array.isArray(body.Tools) ? (body.Tools as Json[]) : [];
  const chosen = isRecord(body.CustomTool) ? body.CustomTool : tools[0];
  const toolName = isRecord(chosen) && isRecord(chosen.Function) ? chosen.Function.Name : undefined;
  const calling = typeof toolName === 'string' && messages.at(-1)?.Role !== 'tool' && body.ToolChoice !== 'none';
  const { prompt, completion } = behaviour.usage;
  const usage = (done: number) => ({ PromptTokens: prompt, CompletionTokens: done, TotalTokens: prompt + done });
  const call = { Id: 'call_hy_mock1', Type: 'function', Function: { Name: toolName, Arguments: '{"city":"Paris"}' } };
  const common = { Created: 1760000000, Id: 'hy-mock-0d1e', Note: '以上内容为AI生成，不代表开发者立场' };
  if (body.Stream !== true) {
    const message = calling
      ? { Role: 'assistant', Content: '', ToolCalls: [call] }
      : { Role: 'assistant', Content: behaviour.reply };
    const choices = [{ FinishReason: calling ? 'tool_calls' : 'stop', Message: message }];
    sendJson(response, 200, { Response: { ...common, Choices: choices, Usage: usage(completion), RequestId: 'r1' } });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (delta: Json, finish: string, done: number) =>
    response.write(
      `data: ${JSON.stringify({ ...common, Choices: [{ Delta: delta, FinishReason: finish }], Usage: usage(done) })}\n\n`,
    );
  if (calling) {
    send(
      { Role: 'assistant', Content: '', ToolCalls: [{ ...call, Function: { Name: toolName, Arguments: '' } }] },
      '',
      1,
    );
    for (const fragment of ['{"ci', 'ty":"Pa', 'ris"}']) {
      send(
        {
          Role: 'assistant',
          Content: '',
          ToolCalls: [{ Id: call.Id, Type: 'function', Function: { Arguments: fragment } }],
        },
        '',
        2,
      );
    }
    send({ Role: 'assistant', Content: '' }, 'tool_calls', completion);
  } else {
    const parts = pieces(behaviour.reply, behaviour.chunks);
    for (const [index, text] of parts.entries()) send({ Role: 'assistant', Content: text }, '', index + 1);
    send({ Role: 'assistant', Content: '' }, 'stop', completion);
  }
  response.end();
}

function embedding(body: Json, response: ServerResponse): void {
  const texts = typeof body.Input === 'string' ? [body.Input] : body.InputList;
  if (!Array.isArray(texts) || texts.length === 0 || texts.length > 200) {
    tencentError(response, 'InvalidParameter', 'Input or InputList is required');
    return;
  }
  const tokens = texts.reduce((total: number, text) => total + String(text).length, 0);
  sendJson(response, 200, {
    Response: {
      Data: texts.map((_text, index) => ({ Embedding: vector(index), Index: index, Object: 'embedding' })),
      Usage: { PromptTokens: tokens, TotalTokens: tokens },
      RequestId: 'r2',
    },
  });
}

function native(behaviour: HunyuanBehaviour, request: HunyuanRequest, response: ServerResponse) {
  const refusal = signatureProblem(behaviour, request);
  if (refusal) return tencentError(response, refusal, `The provided credentials could not be validated (${refusal}).`);
  if (request.headers['x-tc-version'] !== '2023-09-01') return tencentError(response, 'InvalidParameter', 'version');
  if (behaviour.failWith) return tencentError(response, behaviour.failWith.code, behaviour.failWith.message);
  const action = request.headers['x-tc-action'];
  if (action === 'GetEmbedding') return embedding(request.body, response);
  if (action !== 'ChatCompletions') return tencentError(response, 'InvalidAction', `no action ${String(action)}`);
  const problem = chatProblem(request.body);
  if (problem) return tencentError(response, problem.split(':')[0] as string, problem);
  chat(behaviour, request.body, response);
}

/** The OpenAI-compatible API of single API keys. */
function compatible(behaviour: HunyuanBehaviour, request: HunyuanRequest, response: ServerResponse): void {
  if (request.headers.authorization !== `Bearer ${behaviour.apiKey}`) {
    sendJson(response, 401, {
      error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
    });
    return;
  }
  const { prompt, completion } = behaviour.usage;
  const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  if (request.path === '/v1/embeddings') {
    const input = Array.isArray(request.body.input) ? request.body.input : [request.body.input];
    sendJson(response, 200, {
      object: 'list',
      model: request.body.model,
      data: input.map((_text, index) => ({ object: 'embedding', index, embedding: vector(index) })),
      usage: { prompt_tokens: prompt, total_tokens: prompt },
    });
    return;
  }
  const base = { id: 'chatcmpl-hy-compat', created: 1760000000, model: request.body.model };
  if (request.body.stream !== true) {
    const choices = [{ index: 0, message: { role: 'assistant', content: behaviour.reply }, finish_reason: 'stop' }];
    sendJson(response, 200, { ...base, object: 'chat.completion', choices, usage });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (delta: Json, finish: string | null, withUsage = false) =>
    response.write(
      `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }], ...(withUsage ? { usage } : {}) })}\n\n`,
    );
  for (const text of pieces(behaviour.reply, behaviour.chunks)) chunk({ role: 'assistant', content: text }, null);
  chunk({}, 'stop', true);
  response.end('data: [DONE]\n\n');
}

export async function startHunyuanMock(): Promise<HunyuanMock> {
  const state = { behaviour: hunyuanDefaults(), received: [] as HunyuanRequest[] };
  const server = createServer((incoming, response) => {
    const parts: Buffer[] = [];
    incoming.on('data', (part: Buffer) => parts.push(part));
    incoming.on('end', () => {
      const raw = Buffer.concat(parts).toString('utf8');
      let body: Json = {};
      try {
        const parsed: unknown = JSON.parse(raw);
        if (isRecord(parsed)) body = parsed;
      } catch {
        // Refused below as a missing body.
      }
      const path = (incoming.url ?? '/').split('?')[0] ?? '/';
      const request: HunyuanRequest = { path, headers: incoming.headers, body, raw };
      state.received.push(request);
      if (incoming.method !== 'POST') return sendJson(response, 405, { message: 'method not allowed' });
      if (path === '/') return native(state.behaviour, request, response);
      if (path === '/v1/chat/completions' || path === '/v1/embeddings') {
        return compatible(state.behaviour, request, response);
      }
      sendJson(response, 404, { message: 'not found' });
    });
  });
  return listenMock(server, state, hunyuanDefaults);
}
