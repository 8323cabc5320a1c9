import { verify } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type ListeningMock, listenMock, pieces } from '../../mocks/mock-server.js';

/**
 * A local stand-in for Google's OAuth token endpoint and Vertex AI, for the end-to-end test.
 *
 * - `POST /token` takes the jwt-bearer grant, checks the assertion's RS256 signature with the
 *   test public key and its header and claims (kid, iss, sub, aud, scope, one-hour lifetime), and
 *   issues an access token; otherwise it answers 400 `invalid_grant` as Google does.
 * - `POST /v1/projects/{project}/locations/{region}/publishers/google/models/{model}:generateContent`
 *   (or `:streamGenerateContent?alt=sse`) and `.../publishers/anthropic/models/{model}:rawPredict`
 *   (or `:streamRawPredict`) demand a bearer token it issued (401 UNAUTHENTICATED otherwise), the
 *   expected project and region (404 NOT_FOUND otherwise) and, for Claude, a body without `model`
 *   and with `anthropic_version: "vertex-2023-10-16"` whose `stream` agrees with the method
 *   (Anthropic's 400 `invalid_request_error` otherwise). Answers follow the request: with tools
 *   the first tool is called, else `reply` is answered, whole or in `chunks` pieces.
 */

export interface VertexMockOptions {
  publicKey: string;
  clientEmail: string;
  keyId: string;
  project: string;
  region: string;
}

export interface VertexMockBehaviour {
  reply: string;
  chunks: number;
  /** Claude's usage; Gemini reports input + cacheRead as its prompt, and `thoughts` besides. */
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number; thoughts: number };
  failWith?: { status: number; body: unknown };
}

export interface VertexMockRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface VertexMock extends ListeningMock<VertexMockBehaviour, VertexMockRequest> {
  tokenUrl: string;
  /** Assertions accepted (tokens issued) and refused so far. */
  tokens: { issued: string[]; refused: string[] };
}

const defaults = (): VertexMockBehaviour => ({
  reply: 'Bonjour depuis Vertex — ça marche. ✅',
  chunks: 4,
  usage: { input: 30, output: 11, cacheRead: 6, cacheWrite: 2, thoughts: 5 },
});

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Google answers JSON with an explicit charset. */
function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(value));
}

const googleError = (response: ServerResponse, code: number, status: string, message: string) =>
  json(response, code, { error: { code, message, status } });

/** Why an assertion is refused, or undefined when it is good. */
function checkAssertion(assertion: string, options: VertexMockOptions, audience: string): string | undefined {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.';
  const [head = '', payload = '', signature = ''] = parts;
  const good = verify(
    'RSA-SHA256',
    Buffer.from(`${head}.${payload}`),
    options.publicKey,
    Buffer.from(signature, 'base64url'),
  );
  if (!good) return 'Invalid JWT Signature.';
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (header.alg !== 'RS256' || header.kid !== options.keyId) return 'Invalid JWT Signature.';
  if (claims.iss !== options.clientEmail || claims.sub !== options.clientEmail)
    return 'Invalid grant: account not found';
  if (claims.aud !== audience) return 'Invalid JWT: aud is not the token endpoint';
  if (claims.scope !== SCOPE) return 'Invalid OAuth scope or ID token audience provided.';
  const now = Date.now() / 1000;
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!(Math.abs(iat - now) < 300) || exp - iat !== 3600) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  }
  return undefined;
}

function firstTool(body: Record<string, unknown>, publisher: string): string | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  if (publisher === 'anthropic') return typeof tools[0]?.name === 'string' ? tools[0].name : undefined;
  const declarations = tools.flatMap((tool) =>
    Array.isArray(tool.functionDeclarations) ? (tool.functionDeclarations as Array<{ name?: string }>) : [],
  );
  return declarations[0]?.name;
}

function claude(
  behaviour: VertexMockBehaviour,
  model: string,
  body: Record<string, unknown>,
  stream: boolean,
  response: ServerResponse,
) {
  const { usage } = behaviour;
  const tool = firstTool(body, 'anthropic');
  // Vertex reports the model by its Anthropic name (`claude-sonnet-4-5-20250929`).
  const message = {
    id: 'msg_vrtx_01MockE2e',
    type: 'message',
    role: 'assistant',
    model: model.replace('@', '-'),
    stop_sequence: null,
  };
  const startUsage = {
    input_tokens: usage.input,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: 1,
  };
  const stop = tool ? 'tool_use' : 'end_turn';
  if (!stream) {
    const content = tool
      ? [{ type: 'tool_use', id: 'toolu_vrtx_mock1', name: tool, input: { city: 'Paris' } }]
      : [{ type: 'text', text: behaviour.reply }];
    json(response, 200, {
      ...message,
      content,
      stop_reason: stop,
      usage: { ...startUsage, output_tokens: usage.output },
    });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
  const send = (type: string, data: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: startUsage } });
  send('ping', {});
  if (tool) {
    send('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_vrtx_mock1', name: tool, input: {} },
    });
    for (const piece of ['{"ci', 'ty": "Pa', 'ris"}']) {
      send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: piece } });
    }
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    for (const piece of pieces(behaviour.reply, behaviour.chunks)) {
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } });
    }
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } });
  send('message_stop', {});
  response.end();
}

function gemini(
  behaviour: VertexMockBehaviour,
  model: string,
  body: Record<string, unknown>,
  stream: boolean,
  response: ServerResponse,
) {
  const { usage } = behaviour;
  const tool = firstTool(body, 'google');
  const usageMetadata = {
    promptTokenCount: usage.input + usage.cacheRead,
    candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.cacheRead + usage.output + usage.thoughts,
    trafficType: 'ON_DEMAND',
    cachedContentTokenCount: usage.cacheRead,
    thoughtsTokenCount: usage.thoughts,
  };
  const envelope = { modelVersion: model, createTime: '2025-06-20T10:00:00.000000Z', responseId: 'mockVertexE2e' };
  const candidate = (parts: unknown[], finishReason?: string) => ({
    content: { role: 'model', parts },
    ...(finishReason ? { finishReason } : {}),
  });
  const parts = tool ? [{ functionCall: { name: tool, args: { city: 'Paris' } } }] : [{ text: behaviour.reply }];
  if (!stream) {
    json(response, 200, { candidates: [candidate(parts, 'STOP')], usageMetadata, ...envelope });
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const events = tool ? [parts] : pieces(behaviour.reply, behaviour.chunks).map((text) => [{ text }]);
  events.forEach((eventParts, index) => {
    const last = index === events.length - 1;
    const event = {
      candidates: [candidate(eventParts, last ? 'STOP' : undefined)],
      usageMetadata: last ? usageMetadata : { trafficType: 'ON_DEMAND' },
      ...envelope,
    };
    response.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
  });
  response.end();
}

const MODEL_PATH =
  /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)(\?.*)?$/;

export async function startVertexMock(options: VertexMockOptions): Promise<VertexMock> {
  const state = {
    behaviour: defaults(),
    received: [] as VertexMockRequest[],
    tokens: { issued: [] as string[], refused: [] as string[] },
  };
  let origin = '';
  const server = createServer(async (request, response) => {
    const pieces: Buffer[] = [];
    for await (const piece of request) pieces.push(piece as Buffer);
    const text = Buffer.concat(pieces).toString('utf8');
    const path = request.url ?? '/';

    if (path === '/token') {
      const form = new URLSearchParams(text);
      const type = request.headers['content-type'] ?? '';
      const assertion = form.get('assertion') ?? '';
      const refusal = !type.startsWith('application/x-www-form-urlencoded')
        ? 'Bad Request'
        : form.get('grant_type') !== GRANT
          ? 'Invalid grant_type'
          : checkAssertion(assertion, options, `${origin}/token`);
      if (refusal) {
        state.tokens.refused.push(refusal);
        json(response, 400, { error: 'invalid_grant', error_description: refusal });
        return;
      }
      const token = `ya29.mock-${state.tokens.issued.length + 1}`;
      state.tokens.issued.push(token);
      json(response, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      return;
    }

    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    state.received.push({ path, headers: request.headers, body });
    const target = MODEL_PATH.exec(path);
    if (!target) {
      googleError(response, 404, 'NOT_FOUND', `The requested URL ${path} was not found on this server.`);
      return;
    }
    const [, project, region, publisher, rawModel = '', method, query = ''] = target;
    const model = decodeURIComponent(rawModel);
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!bearer || !state.tokens.issued.includes(bearer)) {
      googleError(
        response,
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
      return;
    }
    if (project !== options.project || region !== options.region) {
      googleError(
        response,
        404,
        'NOT_FOUND',
        `Publisher Model \`projects/${project}/locations/${region}/publishers/${publisher}/models/${model}\` was not found or your project does not have access to it.`,
      );
      return;
    }
    const { behaviour } = state;
    if (behaviour.failWith) {
      json(response, behaviour.failWith.status, behaviour.failWith.body);
      return;
    }
    if (publisher === 'anthropic') {
      const stream = method === 'streamRawPredict';
      const problem =
        method !== 'rawPredict' && !stream
          ? `unknown method ${method}`
          : 'model' in body
            ? 'model: Extra inputs are not permitted'
            : body.anthropic_version !== 'vertex-2023-10-16'
              ? 'anthropic_version: vertex-2023-10-16 is required'
              : (body.stream === true) !== stream
                ? 'stream: must agree with the method'
                : undefined;
      if (problem) {
        json(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: problem } });
        return;
      }
      claude(behaviour, model, body, stream, response);
      return;
    }
    const stream = method === 'streamGenerateContent';
    if (
      (method !== 'generateContent' && !stream) ||
      (stream && query !== '?alt=sse') ||
      !Array.isArray(body.contents)
    ) {
      googleError(response, 400, 'INVALID_ARGUMENT', `Invalid request for ${method}${query}`);
      return;
    }
    gemini(behaviour, model, body, stream, response);
  });
  const mock = await listenMock(server, state, defaults);
  origin = mock.url;
  // Assigned onto the mock, not spread: `behaviour` is a getter that must keep reading `state`.
  return Object.assign(mock, { tokenUrl: `${origin}/token`, tokens: state.tokens });
}
