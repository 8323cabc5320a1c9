import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRecord, type Json } from '@one-hub/contracts';

/**
 * The provider-neutral half of the contract suite's mock upstreams: one local node:http server per
 * provider, answering in that provider's wire format (a `Responder`, one per provider file) what
 * the scenario the test sets asks for. The server records every call, checks nothing itself
 * (the responder checks URL, credentials and body as the provider does), and does the parts that
 * are the same everywhere: errors by scenario, malformed bodies, streams cut mid-way.
 */

/** The JSON readers of the whole project, for the provider files of the suite. */
export { isRecord, type Json };

export const SCENARIOS = [
  /** A fixed reply, in `PIECES` stream pieces when streamed. */
  'text',
  /** Calls the first declared tool with `{"city":"Paris"}`. */
  'tool_call',
  /** Answers `images: N`, N the images that arrived in the provider's own image shape. */
  'image_echo',
  /** The reply, with every usage count the format has (cache reads and writes, reasoning, audio). */
  'usage_rich',
  /** The provider's own answer to bad credentials (its status: 401 for most, see each provider). */
  'error_401',
  'error_429',
  'error_500',
  /** 200 with a body that is not JSON. */
  'malformed',
  /** 200 with JSON that is not the provider's answer shape. */
  'malformed_shape',
  /** The stream starts, sends one text piece, then the socket is destroyed. */
  'cut',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

/**
 * Token counts of an answer by kind, none counted twice; each format adds them up its own way
 * (OpenAI's prompt includes cached and audio tokens, Anthropic's `input_tokens` excludes cache reads
 * and writes…). A format without a count for some kind reports none of those tokens.
 */
export interface TokenCounts {
  /** Prompt tokens read fresh: not from a cache, not audio. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  audioIn: number;
  /** Visible output: text or tool-call arguments. */
  output: number;
  reasoning: number;
  audioOut: number;
}

export const PLAIN_USAGE: TokenCounts = {
  input: 20,
  cacheRead: 0,
  cacheWrite: 0,
  audioIn: 0,
  output: 10,
  reasoning: 0,
  audioOut: 0,
};
export const RICH_USAGE: TokenCounts = {
  input: 40,
  cacheRead: 24,
  cacheWrite: 8,
  audioIn: 6,
  output: 15,
  reasoning: 9,
  audioOut: 5,
};

/** Multi-byte characters included: pieces are cut between characters, bytes may be cut anywhere. */
export const REPLY = 'Réponse du contrat — en trois morceaux ✅';
export const BACKUP_REPLY = 'Answered by the backup channel.';
export const PIECES = 3;
export const TOOL_ARGUMENTS = { city: 'Paris' };

export interface ToolCallAnswer {
  id: string;
  name: string;
  arguments: Json;
  /** The arguments' JSON text in the pieces a stream sends (formats that stream them in parts). */
  argumentPieces: string[];
}

/** What to answer, format-neutral; each responder writes it in its own wire format. */
export interface Answer {
  model: string;
  text: string;
  /** The text in stream pieces. */
  pieces: string[];
  tool?: ToolCallAnswer;
  usage: TokenCounts;
}

export interface Received {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: Buffer;
  /** The JSON body, when it is a JSON object. */
  body: Json | undefined;
}

/** A model call as the responder read it from the provider's request. */
export interface Call {
  model: string;
  stream: boolean;
  /** Names of the declared tools, in the provider's tool shape. */
  tools: string[];
  /** Images in the provider's image shape whose bytes are the type they claim. */
  images: number;
  /** Which of the provider's APIs was called (`chat`, `responses`, `invoke`, `converse`, `anthropic`…). */
  api: string;
  /** Format-specific switches read from the request (e.g. OpenAI's `stream_options.include_usage`). */
  flags?: Record<string, boolean>;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}

/** A streamed answer: frames before the first text piece, one frame per piece, frames after. */
export interface StreamFrames {
  contentType: string;
  head: Buffer[];
  pieces: Buffer[];
  tail: Buffer[];
}

export type ErrorKind = 'auth' | 'rate' | 'server';

export interface Responder {
  /** Requests that are not model calls (a token endpoint): their answer, else undefined. */
  side?(request: Received): Reply | undefined;
  /**
   * Checks URL, credentials and body as the provider does: its refusal, or what the call asks
   * (a promise when checking takes one, e.g. verifying a signed token).
   */
  read(request: Received): Call | Reply | Promise<Call | Reply>;
  whole(answer: Answer, call: Call): Json;
  stream(answer: Answer, call: Call): StreamFrames;
  /** The provider's own error answer. */
  error(kind: ErrorKind, call: Call): Reply;
}

export interface ScenarioMock {
  url: string;
  scenario: Scenario;
  /** The `text` reply of this mock. */
  reply: string;
  received: Received[];
  /** Model calls that passed the responder's checks, in order. */
  calls: Call[];
  /** Model calls the responder refused (wrong URL, credentials or body). */
  refused: Array<{ request: Received; reply: Reply }>;
  reset(): void;
  close(): Promise<void>;
}

// ---- small helpers the responders share ----

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Reply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

export const isReply = (value: Call | Reply): value is Reply => 'status' in value;

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** `text` in `count` pieces, cut between characters (never inside one). */
export function split(text: string, count: number): string[] {
  const characters = [...text];
  const size = Math.ceil(characters.length / Math.max(1, count));
  const pieces: string[] = [];
  for (let at = 0; at < characters.length; at += size) pieces.push(characters.slice(at, at + size).join(''));
  return pieces;
}

/** `png` or `jpeg` when the bytes are one, by their magic numbers. */
export function imageKind(base64: string): 'png' | 'jpeg' | undefined {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'jpeg';
  return undefined;
}

/** Whether `base64` holds an image of the MIME type it is declared as (`image/png`, `image/jpeg`). */
export const imageMatches = (mime: unknown, base64: unknown): boolean =>
  typeof mime === 'string' && typeof base64 === 'string' && `image/${imageKind(base64) ?? '?'}` === mime;

/** The names `nameOf` reads from each item of `items` (tool declarations in a provider's shape). */
export const namesOf = (items: unknown, nameOf: (item: Json) => unknown): string[] =>
  list(items)
    .map((item) => (isRecord(item) ? nameOf(item) : undefined))
    .filter((name): name is string => typeof name === 'string');

/** An image reference that would reach the model: a data URL of the type it claims, or an https address. */
export function imageArrives(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  const data = /^data:([^;,]+);base64,(.*)$/.exec(url);
  return data ? imageMatches(data[1], data[2]) : url.startsWith('https://');
}

/**
 * The usage flags of a format that reports prompt, completion and total tokens and nothing else:
 * `why` for every count it lacks (`audio` when its reason differs).
 */
export const tokensOnly = (why: string, audio = why): ProviderEntry['usage'] => ({
  cacheRead: why,
  cacheWrite: why,
  reasoning: why,
  audio,
});

/** One server-sent event. */
export const sse = (data: unknown, event?: string): Buffer =>
  Buffer.from(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

// ---- the server ----

function answerFor(scenario: Scenario, call: Call, reply: string): Answer {
  const usage = scenario === 'usage_rich' ? RICH_USAGE : PLAIN_USAGE;
  const name = call.tools[0];
  if (scenario === 'tool_call' && name) {
    return {
      model: call.model,
      text: '',
      pieces: [],
      tool: {
        id: 'call_contract_1',
        name,
        arguments: TOOL_ARGUMENTS,
        argumentPieces: ['{"city"', ': "Par', 'is"}'],
      },
      usage,
    };
  }
  const text = scenario === 'image_echo' ? `images: ${call.images}` : reply;
  return { model: call.model, text, pieces: split(text, scenario === 'image_echo' ? 1 : PIECES), usage };
}

function send(response: ServerResponse, reply: Reply): void {
  response.writeHead(reply.status, reply.headers ?? {});
  response.end(reply.body);
}

/** Writes `frames` in order, then destroys the socket once they are flushed: no clean end. */
function writeThenCut(response: ServerResponse, frames: Buffer[]): void {
  const last = frames.length - 1;
  frames.forEach((frame, index) => {
    if (index < last) response.write(frame);
    else response.write(frame, () => response.socket?.destroy());
  });
}

/** The fixed answer of a failure scenario, or undefined when the scenario answers the call. */
function failureReply(scenario: Scenario, responder: Responder, call: Call): Reply | undefined {
  switch (scenario) {
    case 'error_401':
      return responder.error('auth', call);
    case 'error_429':
      return responder.error('rate', call);
    case 'error_500':
      return responder.error('server', call);
    case 'malformed':
      return {
        status: 200,
        headers: { 'content-type': 'text/html' },
        body: '<html><body><h1>Welcome to nginx!</h1></body></html>',
      };
    case 'malformed_shape':
      return json(200, { status: 'ok', data: [{ id: 1 }], note: 'not a model answer' });
    default:
      return undefined;
  }
}

function answer(mock: ScenarioMock, responder: Responder, call: Call, response: ServerResponse): void {
  const { scenario } = mock;
  const failure = failureReply(scenario, responder, call);
  if (failure) {
    send(response, failure);
    return;
  }
  const content = answerFor(scenario, call, mock.reply);
  if (!call.stream) {
    const whole = json(200, responder.whole(content, call));
    if (scenario === 'cut') {
      const body = Buffer.from(whole.body);
      response.writeHead(200, whole.headers);
      writeThenCut(response, [body.subarray(0, body.length >> 1)]);
    } else {
      send(response, whole);
    }
    return;
  }
  const frames = responder.stream(content, call);
  response.writeHead(200, { 'content-type': frames.contentType, 'cache-control': 'no-cache' });
  if (scenario === 'cut') {
    writeThenCut(response, [...frames.head, ...frames.pieces.slice(0, 1)]);
    return;
  }
  for (const frame of [...frames.head, ...frames.pieces, ...frames.tail]) response.write(frame);
  response.end();
}

async function receive(request: IncomingMessage): Promise<Received> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const raw = Buffer.concat(parts);
  const url = request.url ?? '/';
  const at = url.indexOf('?');
  let body: Json | undefined;
  try {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    body = isRecord(parsed) ? parsed : undefined;
  } catch {
    body = undefined;
  }
  return {
    method: request.method ?? 'GET',
    url,
    path: at < 0 ? url : url.slice(0, at),
    query: new URLSearchParams(at < 0 ? '' : url.slice(at + 1)),
    headers: request.headers,
    raw,
    body,
  };
}

export async function startScenarioMock(responder: Responder, reply = REPLY): Promise<ScenarioMock> {
  const mock: Omit<ScenarioMock, 'url' | 'close'> = {
    scenario: 'text',
    reply,
    received: [],
    calls: [],
    refused: [],
    reset() {
      mock.scenario = 'text';
      mock.received.length = 0;
      mock.calls.length = 0;
      mock.refused.length = 0;
    },
  };
  const server = createServer((request, response) => {
    receive(request)
      .then(async (received) => {
        mock.received.push(received);
        const side = responder.side?.(received);
        if (side) return send(response, side);
        const call = await responder.read(received);
        if (isReply(call)) {
          mock.refused.push({ request: received, reply: call });
          return send(response, call);
        }
        mock.calls.push(call);
        answer(mock as ScenarioMock, responder, call, response);
      })
      .catch((error: unknown) => send(response, json(500, { error: { message: `mock failure: ${String(error)}` } })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(mock, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

// ---- what a provider file declares ----

export const CASES = [
  'text',
  'text stream',
  'tool_call',
  'tool_call stream',
  'image_echo',
  'usage_rich',
  'usage_rich stream',
  'error_401',
  'error_429',
  'error_500',
  'malformed',
  'malformed_shape',
  'cut',
  'anthropic sdk stream',
  'gemini sdk stream',
  'responses',
] as const;
export type CaseName = (typeof CASES)[number];

export interface ProviderSetup {
  responder: Responder;
  /** Channel fields that reach the mock at `url` (key, base URL, `other`, model mapping…). */
  channel(url: string): Json;
}

export interface ProviderEntry {
  /** The describe title. */
  name: string;
  /** Channel type id (reference §3.4). */
  type: number;
  /** The model clients ask for; the channel lists it. */
  model: string;
  /** Makes the responder (and anything it needs: keys, registered adapters). Called once per describe. */
  setup(): ProviderSetup | Promise<ProviderSetup>;
  /** The status a client sees when the provider refuses the channel's credentials. */
  authStatus: number;
  /**
   * Counts the format reports; a string says why it has none. Cache reads are counted unless
   * `cacheRead` says why not: such a format's prompt count includes them as plain prompt tokens.
   */
  usage: { cacheRead?: true | string; cacheWrite: true | string; reasoning: true | string; audio: true | string };
  /**
   * The kind cache reads bill as: `cached_tokens` (OpenAI's, default ratio 1) unless the format
   * reports them Anthropic's way, as reads apart from writes (`cached_read_tokens`, default 0.1).
   */
  cacheReadKind?: 'cached_read_tokens';
  /**
   * Why a whole answer is asked for as a stream and gathered (the vendor's non-streamed mode does
   * not answer); absent when a whole answer is asked for whole.
   */
  wholeAnswersStreamed?: string;
  /** Cases that cannot apply to this provider, and why. */
  skip?: Partial<Record<CaseName, string>>;
  /** Cases that fail because of a known relay or adapter bug, with the evidence: kept as `it.fails`. */
  knownBugs?: Partial<Record<CaseName, string>>;
}
