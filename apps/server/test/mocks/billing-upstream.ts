import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for a vendor's account endpoints and the calls channel tests make, in the
 * vendors' documented shapes: OpenAI (chat, embeddings, images, models, dashboard billing
 * subscription and usage), DeepSeek `/user/balance`, Moonshot `/v1/users/me/balance` and
 * SiliconFlow `/v1/user/info` and Stability `/v1/user/balance`. Tests steer it through `behaviour` and read `received`.
 */
export interface BillingMockBehaviour {
  /** Accepted API key; anything else gets OpenAI's 401. */
  apiKey: string;
  /** Wait before answering, to test slow channels. */
  delayMs: number;
  /** Answer every call with this status and OpenAI error body instead. */
  failWith?: { status: number; message: string; type?: string; code?: string };
  /**
   * Chat answers ignore `response_format` and `tools` and accept invalid `max_tokens`, as a
   * careless relay might; otherwise JSON mode gets JSON, tools get a tool call, and a
   * non-positive `max_tokens` gets OpenAI's 400.
   */
  sloppyChat: boolean;
  /** Chat requests with image URLs fetch them first, as a vision model's provider does. */
  fetchImages: boolean;
  /** What each image fetch answered: its status and content type. */
  fetchedImages: Array<{ url: string; status: number; contentType: string }>;
  models: string[];
  hardLimitUsd: number;
  /** OpenAI reports usage in cents. */
  totalUsageCents: number;
  deepSeekBalances: Array<{ currency: string; total_balance: string }>;
  moonshotAvailable: number;
  siliconFlowTotal: string;
  /** Stability's `credits` (a credit is one US cent). */
  stabilityCredits: number;
}

export interface BillingMockRequest {
  method: string;
  /** Path with its query string. */
  url: string;
  authorization: string | undefined;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface BillingMock {
  url: string;
  behaviour: BillingMockBehaviour;
  received: BillingMockRequest[];
  /** Requests whose caller hung up before the answer was sent. */
  abandoned: number;
  reset(): void;
  close(): Promise<void>;
}

const defaults = (): BillingMockBehaviour => ({
  apiKey: 'sk-billing-test',
  delayMs: 0,
  sloppyChat: false,
  fetchImages: false,
  fetchedImages: [],
  models: ['gpt-4o-mini', 'gpt-4o', 'text-embedding-3-small', 'gpt-4o-mini'],
  hardLimitUsd: 120,
  totalUsageCents: 2550,
  deepSeekBalances: [
    { currency: 'CNY', total_balance: '110.00' },
    { currency: 'USD', total_balance: '15.25' },
  ],
  moonshotAvailable: 49.58894,
  siliconFlowTotal: '88.88',
  stabilityCredits: 633.6,
});

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function chatMessage(body: Record<string, unknown>, behaviour: BillingMockBehaviour): Record<string, unknown> {
  if (behaviour.sloppyChat) return { role: 'assistant', content: 'hi' };
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name?: string } }>) : [];
  const tool = tools[0]?.function?.name;
  if (tool) {
    const call = { id: 'call_mock', type: 'function', function: { name: tool, arguments: '{"city":"Paris"}' } };
    return { role: 'assistant', content: null, tool_calls: [call] };
  }
  const format = body.response_format as { type?: string } | undefined;
  if (format?.type === 'json_object') return { role: 'assistant', content: '{"ok": true}' };
  return { role: 'assistant', content: 'hi' };
}

/** OpenAI refuses a non-positive max_tokens with a 400 before generating anything. */
function invalidChat(path: string, body: Record<string, unknown>, behaviour: BillingMockBehaviour): boolean {
  if (behaviour.sloppyChat || !path.endsWith('/chat/completions')) return false;
  return typeof body.max_tokens === 'number' && body.max_tokens < 1;
}

function answer(path: string, body: Record<string, unknown>, behaviour: BillingMockBehaviour): unknown {
  const created = Math.floor(Date.now() / 1000);
  if (path.endsWith('/chat/completions')) {
    const message = chatMessage(body, behaviour);
    return {
      id: 'chatcmpl-mock',
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
    };
  }
  if (path.endsWith('/embeddings')) {
    return {
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.1, -0.2, 0.3] }],
      model: body.model,
      usage: { prompt_tokens: 1, total_tokens: 1 },
    };
  }
  if (path.endsWith('/images/generations')) return { created, data: [{ url: 'https://images.example.com/cat.png' }] };
  if (path.endsWith('/models')) {
    return {
      object: 'list',
      data: behaviour.models.map((id) => ({ id, object: 'model', created, owned_by: 'system' })),
    };
  }
  return undefined;
}

function accountAnswer(path: string, behaviour: BillingMockBehaviour): unknown {
  switch (path) {
    case '/v1/dashboard/billing/subscription':
      return {
        object: 'billing_subscription',
        has_payment_method: true,
        hard_limit_usd: behaviour.hardLimitUsd,
        soft_limit_usd: behaviour.hardLimitUsd / 2,
        access_until: 0,
      };
    case '/v1/dashboard/billing/usage':
      return { object: 'list', total_usage: behaviour.totalUsageCents };
    case '/user/balance':
      return {
        is_available: true,
        balance_infos: behaviour.deepSeekBalances.map((entry) => ({
          ...entry,
          granted_balance: '0.00',
          topped_up_balance: entry.total_balance,
        })),
      };
    case '/v1/users/me/balance':
      return {
        code: 0,
        data: { available_balance: behaviour.moonshotAvailable, voucher_balance: 0, cash_balance: 0 },
        scode: '0x0',
        status: true,
      };
    case '/v1/user/info':
      return {
        code: 20000,
        message: 'OK',
        status: true,
        data: { id: 'user-1', balance: '0.88', chargeBalance: '88.00', totalBalance: behaviour.siliconFlowTotal },
      };
    case '/v1/user/balance':
      return { credits: behaviour.stabilityCredits };
    default:
      return undefined;
  }
}

/** Fetches every `image_url` of a chat request's messages, recording what came back. */
async function fetchImages(body: Record<string, unknown>, behaviour: BillingMockBehaviour): Promise<void> {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  for (const message of messages) {
    for (const part of Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : []) {
      const url = (part.image_url as { url?: unknown } | undefined)?.url;
      if (part.type !== 'image_url' || typeof url !== 'string') continue;
      const fetched = await fetch(url, { headers: { 'user-agent': 'MockVision-ImageFetcher/1.0' } });
      await fetched.arrayBuffer();
      behaviour.fetchedImages.push({
        url,
        status: fetched.status,
        contentType: fetched.headers.get('content-type') ?? '',
      });
    }
  }
}

export async function startBillingMock(): Promise<BillingMock> {
  const mock: Omit<BillingMock, 'url' | 'close'> = {
    behaviour: defaults(),
    received: [],
    abandoned: 0,
    reset() {
      mock.behaviour = defaults();
      mock.received.length = 0;
      mock.abandoned = 0;
    },
  };

  const server = createServer(async (request, response) => {
    response.once('close', () => {
      if (!response.writableFinished) mock.abandoned += 1;
    });
    const body = request.method === 'POST' ? await readJson(request) : {};
    const url = request.url ?? '/';
    mock.received.push({
      method: request.method ?? 'GET',
      url,
      authorization: request.headers.authorization,
      headers: request.headers,
      body,
    });
    const { behaviour } = mock;
    if (behaviour.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    if (request.headers.authorization !== `Bearer ${behaviour.apiKey}`) {
      // Quotes the refused key, as some vendors do, so tests can check it is masked.
      const refused = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      json(response, 401, {
        error: {
          message: `Incorrect API key provided: ${refused}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      });
      return;
    }
    if (behaviour.failWith) {
      const { status, message, type, code } = behaviour.failWith;
      json(response, status, { error: { message, type: type ?? 'server_error', code: code ?? null } });
      return;
    }
    const path = url.split('?')[0] ?? '/';
    if (behaviour.fetchImages) await fetchImages(body, behaviour);
    if (invalidChat(path, body, behaviour)) {
      json(response, 400, {
        error: {
          message: `Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got ${body.max_tokens} instead.`,
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'integer_below_min_value',
        },
      });
      return;
    }
    const result = accountAnswer(path, behaviour) ?? answer(path, body, behaviour);
    if (result === undefined) json(response, 404, { error: { message: `no route ${path}`, type: 'not_found' } });
    else json(response, 200, result);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(mock as BillingMock, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
