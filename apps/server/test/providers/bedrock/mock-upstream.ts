import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { encodeEvent, encodeException } from '../../../src/relay/providers/bedrock/eventstream.js';
import { createSigner } from '../../../src/relay/providers/bedrock/signing.js';
import type { Json } from '../../../src/relay/providers/types.js';
import { claudeAnswer, type ListeningMock, listenMock, pieces } from '../../mocks/mock-server.js';

/**
 * A local stand-in for `bedrock-runtime.<region>.amazonaws.com`, for tests: InvokeModel
 * (`/model/<id>/invoke`, `/invoke-with-response-stream`) answering as Claude, and Converse
 * (`/model/<id>/converse`, `/converse-stream`). It checks what a real endpoint checks: a SigV4
 * signature recomputed with the AWS SDK's signer over the bytes received (or a Bedrock API key as
 * bearer token), and for Claude the Bedrock body rules (`anthropic_version`, no `model`/`stream`).
 * Answers follow the request: with tools they call the first tool, else they answer `reply`.
 */

export interface BedrockBehaviour {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** When set, SigV4 calls must carry it as `x-amz-security-token`. */
  sessionToken?: string;
  apiKey: string;
  reply: string;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /** Stream: the reply in this many text deltas. */
  chunks: number;
  failWith?: { status: number; errorType: string; message: string };
  /** Stream: an exception message after the first delta. */
  streamException?: { type: string; message: string };
}

export interface BedrockRequest {
  /** The raw request path, as sent (the model id still percent-encoded). */
  path: string;
  modelId: string;
  action: string;
  headers: IncomingMessage['headers'];
  body: Json;
  auth: 'sigv4' | 'bearer';
}

export type BedrockMock = ListeningMock<BedrockBehaviour, BedrockRequest>;

const defaults = (): BedrockBehaviour => ({
  region: 'us-east-1',
  accessKeyId: 'AKIAMOCKBEDROCK00001',
  secretAccessKey: 'mock/SecretAccessKey+0123456789abcdefghij',
  apiKey: 'ABSKbW9jay1iZWRyb2NrLWtleQ==',
  reply: 'Hello from the Bedrock mock.',
  usage: { input: 31, output: 11, cacheRead: 7, cacheWrite: 4 },
  chunks: 3,
});

const SIGNATURE_MISMATCH =
  'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.';

function fail(response: ServerResponse, status: number, errorType: string, message: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'x-amzn-errortype': `${errorType}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    'x-amzn-requestid': 'mock-request-id',
  });
  response.end(JSON.stringify({ message }));
}

/** `20240101T000000Z` → a Date. */
function amzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

/** Recomputes the SigV4 signature of a request; undefined when it holds, else Bedrock's error. */
async function checkSignature(
  behaviour: BedrockBehaviour,
  request: IncomingMessage,
  path: string,
  raw: Buffer,
): Promise<{ status: number; type: string; message: string } | undefined> {
  const authorization = String(request.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!match)
    return { status: 403, type: 'IncompleteSignatureException', message: 'Authorization header is malformed' };
  const [, accessKeyId, , region, service, signedList = ''] = match;
  if (accessKeyId !== behaviour.accessKeyId) {
    return {
      status: 403,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  }
  const signed = signedList.split(';');
  for (const name of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!signed.includes(name))
      return { status: 403, type: 'InvalidSignatureException', message: `${name} is not signed` };
  }
  const token = request.headers['x-amz-security-token'];
  if ((behaviour.sessionToken ?? undefined) !== (typeof token === 'string' ? token : undefined)) {
    return {
      status: 403,
      type: 'UnrecognizedClientException',
      message: 'The security token included in the request is invalid.',
    };
  }
  if (request.headers['x-amz-content-sha256'] !== createHash('sha256').update(raw).digest('hex')) {
    return { status: 403, type: 'InvalidSignatureException', message: SIGNATURE_MISMATCH };
  }
  const date = amzDate(String(request.headers['x-amz-date'] ?? ''));
  if (!date) return { status: 403, type: 'InvalidSignatureException', message: 'x-amz-date is missing or malformed' };
  // The signed headers as received, less the ones the signer derives itself (date, body hash, token).
  const headers: Record<string, string> = {};
  for (const name of signed) {
    if (['x-amz-date', 'x-amz-content-sha256', 'x-amz-security-token'].includes(name)) continue;
    const value = request.headers[name];
    headers[name] = Array.isArray(value) ? value.join(',') : String(value ?? '');
  }
  const [host, port] = String(request.headers.host ?? '').split(':');
  const signer = createSigner(
    {
      accessKeyId: behaviour.accessKeyId,
      secretAccessKey: behaviour.secretAccessKey,
      ...(behaviour.sessionToken ? { sessionToken: behaviour.sessionToken } : {}),
    },
    region ?? '',
    { service: service ?? '' },
  );
  const expected = await signer.sign(
    {
      method: request.method ?? 'POST',
      protocol: 'http:',
      hostname: host ?? '',
      ...(port ? { port: Number(port) } : {}),
      path,
      query: {},
      headers,
      body: raw,
    },
    { signingDate: date },
  );
  if (expected.headers.authorization !== authorization) {
    return { status: 403, type: 'InvalidSignatureException', message: SIGNATURE_MISMATCH };
  }
  if (region !== behaviour.region || service !== 'bedrock') {
    return {
      status: 403,
      type: 'InvalidSignatureException',
      message: `Credential should be scoped to a valid region and service 'bedrock'`,
    };
  }
  return undefined;
}

function firstTool(body: Json, converse: boolean): string | undefined {
  if (converse) {
    const config = body.toolConfig as { tools?: Array<{ toolSpec?: { name?: string } }> } | undefined;
    return config?.tools?.[0]?.toolSpec?.name;
  }
  return (body.tools as Array<{ name?: string }> | undefined)?.[0]?.name;
}

/** Writes an event-stream message in two writes cut at an odd place, as a network may deliver it. */
function writeMessage(response: ServerResponse, message: Uint8Array): void {
  const cut = Math.min(message.length - 1, 7);
  response.write(message.subarray(0, cut));
  response.write(message.subarray(cut));
}

function claude(behaviour: BedrockBehaviour, body: Json, modelId: string, stream: boolean, response: ServerResponse) {
  const { usage } = behaviour;
  const tool = firstTool(body, false);
  const answer = claudeAnswer({
    messageId: 'msg_bdrk_mock01',
    toolUseId: 'toolu_bdrk_mock01',
    model: modelId,
    tool,
    reply: behaviour.reply,
    usage,
  });
  if (!stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer.whole));
    return;
  }
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
  const send = (type: string, data: Json) => {
    const bytes = Buffer.from(JSON.stringify({ type, ...data })).toString('base64');
    writeMessage(response, encodeEvent('chunk', { bytes, p: 'abcdefghij' }));
  };
  send('message_start', { message: answer.start });
  if (tool) {
    for (const [type, data] of answer.toolEvents) send(type, data);
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    pieces(behaviour.reply, behaviour.chunks).forEach((part, index) => {
      send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: part } });
      if (index === 0 && behaviour.streamException) {
        writeMessage(response, encodeException(behaviour.streamException.type, behaviour.streamException.message));
      }
    });
  }
  if (behaviour.streamException && !tool) {
    response.end();
    return;
  }
  for (const [type, data] of answer.closing) send(type, data);
  send('message_stop', {
    'amazon-bedrock-invocationMetrics': {
      inputTokenCount: usage.input,
      outputTokenCount: usage.output,
      invocationLatency: 321,
      firstByteLatency: 123,
    },
  });
  response.end();
}

function converse(behaviour: BedrockBehaviour, body: Json, stream: boolean, response: ServerResponse) {
  const { usage } = behaviour;
  const tool = firstTool(body, true);
  const tokenUsage = {
    inputTokens: usage.input,
    outputTokens: usage.output,
    totalTokens: usage.input + usage.output + usage.cacheRead + usage.cacheWrite,
    cacheReadInputTokens: usage.cacheRead,
    cacheWriteInputTokens: usage.cacheWrite,
  };
  if (!stream) {
    const content = tool
      ? [{ toolUse: { toolUseId: 'tooluse_mock01', name: tool, input: { city: 'Paris' } } }]
      : [{ text: behaviour.reply }];
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        output: { message: { role: 'assistant', content } },
        stopReason: tool ? 'tool_use' : 'end_turn',
        usage: tokenUsage,
        metrics: { latencyMs: 250 },
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
  const send = (type: string, data: Json) => writeMessage(response, encodeEvent(type, { ...data, p: 'abcdef' }));
  send('messageStart', { role: 'assistant' });
  if (tool) {
    send('contentBlockStart', {
      contentBlockIndex: 0,
      start: { toolUse: { toolUseId: 'tooluse_mock01', name: tool } },
    });
    for (const input of ['{"city"', ': "Par', 'is"}']) {
      send('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input } } });
    }
  } else {
    pieces(behaviour.reply, behaviour.chunks).forEach((text, index) => {
      send('contentBlockDelta', { contentBlockIndex: 0, delta: { text } });
      if (index === 0 && behaviour.streamException) {
        writeMessage(response, encodeException(behaviour.streamException.type, behaviour.streamException.message));
      }
    });
  }
  if (behaviour.streamException && !tool) {
    response.end();
    return;
  }
  send('contentBlockStop', { contentBlockIndex: 0 });
  send('messageStop', { stopReason: tool ? 'tool_use' : 'end_turn' });
  send('metadata', { usage: tokenUsage, metrics: { latencyMs: 250 } });
  response.end();
}

export async function startBedrockMock(): Promise<BedrockMock> {
  const state = { behaviour: defaults(), received: [] as BedrockRequest[] };
  const server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const raw = Buffer.concat(parts);
    const path = request.url ?? '/';
    const { behaviour } = state;
    const route = /^\/model\/([^/?]+)\/(invoke|invoke-with-response-stream|converse|converse-stream)$/.exec(path);
    if (request.method !== 'POST' || !route) {
      fail(response, 404, 'UnknownOperationException', `no route ${request.method} ${path}`);
      return;
    }
    const [, encodedId = '', action = ''] = route;
    const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''));
    if (bearer) {
      if (bearer[1] !== behaviour.apiKey) {
        fail(response, 403, 'AccessDeniedException', 'Authentication failed: Please make sure your API Key is valid.');
        return;
      }
    } else {
      const problem = await checkSignature(behaviour, request, path, raw);
      if (problem) {
        fail(response, problem.status, problem.type, problem.message);
        return;
      }
    }
    let body: Json;
    try {
      body = JSON.parse(raw.toString('utf8')) as Json;
    } catch {
      fail(response, 400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
      return;
    }
    const modelId = decodeURIComponent(encodedId);
    state.received.push({ path, modelId, action, headers: request.headers, body, auth: bearer ? 'bearer' : 'sigv4' });
    if (behaviour.failWith) {
      fail(response, behaviour.failWith.status, behaviour.failWith.errorType, behaviour.failWith.message);
      return;
    }
    if (action === 'invoke' || action === 'invoke-with-response-stream') {
      if (!modelId.includes('anthropic.claude')) {
        fail(response, 400, 'ValidationException', 'The provided model identifier is invalid.');
        return;
      }
      for (const key of ['model', 'stream']) {
        if (key in body) {
          fail(
            response,
            400,
            'ValidationException',
            `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`,
          );
          return;
        }
      }
      if (body.anthropic_version !== 'bedrock-2023-05-31') {
        fail(
          response,
          400,
          'ValidationException',
          'Malformed input request: #: required key [anthropic_version] not found',
        );
        return;
      }
      claude(behaviour, body, modelId, action !== 'invoke', response);
      return;
    }
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      fail(response, 400, 'ValidationException', 'A conversation must start with a user message.');
      return;
    }
    converse(behaviour, body, action === 'converse-stream', response);
  });
  return listenMock(server, state, defaults);
}
