import { providerType } from '../../../src/domain/channel-types/registry.js';
import { chatProblem, hunyuanDefaults, signatureProblem } from '../../providers/hunyuan/mock-upstream.js';
import {
  type Answer,
  type ErrorKind,
  imageArrives,
  isRecord,
  type Json,
  json,
  list,
  namesOf,
  type ProviderEntry,
  type Received,
  type Reply,
  type Responder,
  sse,
  type TokenCounts,
  tokensOnly,
} from '../scenario-mock.js';

/**
 * Tencent Hunyuan's native API 3.0 (channel type `hunyuan` with a `SecretId|SecretKey` key), as
 * hunyuan.tencentcloudapi.com answers it: `POST /` with `X-TC-Action: ChatCompletions`,
 * `X-TC-Version: 2023-09-01`, `X-TC-Timestamp` and a TC3-HMAC-SHA256 `Authorization` over the
 * request (checked by the end-to-end mock's verifier, written from Tencent's documentation). The
 * body is PascalCase: `Model`, `Messages` of `{Role, Content}` or `Contents` of `{Type: "text",
 * Text}` and `{Type: "image_url", ImageUrl: {Url}}` parts, `Tools` of `{Type, Function: {Name,
 * Parameters (a JSON string)}}`, `Stream`. The answer is `{"Response": {Id, Created, Note, Choices:
 * [{Message: {Role, Content, ToolCalls?}, FinishReason}], Usage, RequestId}}`; a stream is events
 * of the same fields without the envelope, `Delta` for `Message`, with the usage so far on every
 * event. Usage is `{PromptTokens, CompletionTokens, TotalTokens}` only. Every failure is HTTP 200
 * with `{"Response": {"Error": {Code, Message}, RequestId}}`: `AuthFailure.*` for credentials,
 * `RequestLimitExceeded` for the request rate, `InternalError` for Tencent's own.
 */

const CREDENTIALS = hunyuanDefaults();
const ACTION = 'ChatCompletions';
const VERSION = '2023-09-01';
const CREATED = 1_760_000_000;
const ID = 'c0ntract-hy-6b1f-4d2e-9a3c-0e7d5f8a2b41';
const NOTE = '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记';

const failure = (code: string, message: string): Reply =>
  json(200, { Response: { Error: { Code: code, Message: message }, RequestId: 'c0ntract-req-e5a1-47b0-8f3d' } });

function hunyuanError(kind: ErrorKind): Reply {
  if (kind === 'auth') {
    return failure(
      'AuthFailure.SecretIdNotFound',
      'The SecretId is not found, please ensure that your SecretId is correct.',
    );
  }
  if (kind === 'rate') return failure('RequestLimitExceeded', 'Your current request rate has exceeded the limit.');
  return failure(
    'InternalError',
    'An internal error has occurred. Retry your request, but if the problem persists, contact us.',
  );
}

/** Hunyuan counts prompt and completion tokens only: cached prompt tokens are plain ones there. */
function hunyuanUsage(counts: TokenCounts, completion = counts.output): Json {
  const prompt = counts.input + counts.cacheRead;
  return { PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion };
}

/** Images as `Contents` parts whose URL is a data URL of the type it claims, or an https address. */
function countImages(messages: unknown): number {
  let count = 0;
  for (const message of list(messages)) {
    for (const part of list(isRecord(message) ? message.Contents : undefined)) {
      const url =
        isRecord(part) && part.Type === 'image_url' && isRecord(part.ImageUrl) ? part.ImageUrl.Url : undefined;
      if (imageArrives(url)) count++;
    }
  }
  return count;
}

const toolCall = (answer: Answer, args: string, named: boolean): Json => ({
  Id: answer.tool?.id ?? '',
  Type: 'function',
  Function: named ? { Name: answer.tool?.name ?? '', Arguments: args } : { Arguments: args },
});

function hunyuanAnswer(answer: Answer): Json {
  const { tool } = answer;
  const message = tool
    ? { Role: 'assistant', Content: '', ToolCalls: [toolCall(answer, JSON.stringify(tool.arguments), true)] }
    : { Role: 'assistant', Content: answer.text };
  return {
    Response: {
      Id: ID,
      Created: CREATED,
      Note: NOTE,
      Choices: [{ Index: 0, Message: message, FinishReason: tool ? 'tool_calls' : 'stop' }],
      Usage: hunyuanUsage(answer.usage),
      RequestId: ID,
    },
  };
}

/**
 * One event per text piece (or per arguments piece, after one naming the tool), each with the
 * usage so far; a last event with an empty delta says the finish reason and carries the total.
 */
function hunyuanStream(answer: Answer) {
  const { tool } = answer;
  const event = (delta: Json, finish: string, done: number) =>
    sse({
      Note: NOTE,
      Choices: [{ Index: 0, Delta: { Role: 'assistant', Content: '', ...delta }, FinishReason: finish }],
      Created: CREATED,
      Id: ID,
      Usage: hunyuanUsage(answer.usage, Math.min(done, answer.usage.output)),
    });
  const head = tool ? [event({ ToolCalls: [toolCall(answer, '', true)] }, '', 1)] : [];
  const pieces = tool
    ? tool.argumentPieces.map((part, index) => event({ ToolCalls: [toolCall(answer, part, false)] }, '', index + 2))
    : answer.pieces.map((text, index) => event({ Content: text }, '', index + 1));
  const tail = [event({}, tool ? 'tool_calls' : 'stop', answer.usage.output)];
  return { contentType: 'text/event-stream', head, pieces, tail };
}

function hunyuanResponder(): Responder {
  return {
    read(request: Received) {
      if (request.method !== 'POST' || request.path !== '/') {
        return failure('InvalidAction', `The requested path ${request.path} is not supported.`);
      }
      const raw = request.raw.toString('utf8');
      const refusal = signatureProblem(CREDENTIALS, { path: request.path, headers: request.headers, body: {}, raw });
      if (refusal) return failure(refusal, `The provided credentials could not be validated (${refusal}).`);
      if (request.headers['x-tc-version'] !== VERSION) {
        return failure('InvalidParameter', `The Version ${String(request.headers['x-tc-version'])} is not supported.`);
      }
      const action = request.headers['x-tc-action'];
      if (action !== ACTION) return failure('InvalidAction', `The action ${String(action)} is not supported.`);
      const { body } = request;
      const problem = body ? chatProblem(body) : 'MissingParameter: a JSON body is required';
      if (!body || problem) return failure(problem?.split(':')[0] ?? 'InvalidParameter', problem ?? 'invalid body');
      const tools = namesOf(body.Tools, (tool) => (isRecord(tool.Function) ? tool.Function.Name : undefined));
      return {
        model: String(body.Model),
        stream: body.Stream === true,
        tools,
        images: countImages(body.Messages),
        api: 'chat',
      };
    },
    whole: (answer) => hunyuanAnswer(answer),
    stream: (answer) => hunyuanStream(answer),
    error: (kind) => hunyuanError(kind),
  };
}

const ONLY_TOKENS = "Hunyuan's usage is PromptTokens, CompletionTokens and TotalTokens only";

export const hunyuanProvider: ProviderEntry = {
  name: 'Tencent Hunyuan (API 3.0, SecretId|SecretKey)',
  type: providerType('hunyuan'),
  model: 'hunyuan-turbos-latest',
  setup: () => ({
    responder: hunyuanResponder(),
    channel: (url) => ({ key: `${CREDENTIALS.secretId}|${CREDENTIALS.secretKey}`, base_url: url }),
  }),
  authStatus: 502,
  usage: tokensOnly(ONLY_TOKENS, `${ONLY_TOKENS}, and ChatCompletions takes no audio`),
};
