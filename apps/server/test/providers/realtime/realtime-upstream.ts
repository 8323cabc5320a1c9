import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';

/**
 * A local stand-in for OpenAI's Realtime API (and Azure OpenAI's), speaking its documented
 * WebSocket events: `session.created` on connect; `session.update` → `session.updated`;
 * `conversation.item.create` → `conversation.item.created`; `response.create` → `response.created`,
 * the output item and content part, `response.text.delta`s, their `.done` events and
 * `response.done` with `response.usage`. It checks what the gateway sends: the path, the model
 * (OpenAI: `/v1/realtime?model=`, Azure: `/openai/realtime?api-version=&deployment=`) and the key
 * (`Authorization: Bearer` or Azure's `api-key`), refusing the upgrade with a JSON error as the
 * real services do. Binary messages are echoed back as they came (not an OpenAI behaviour: it only
 * lets tests see that binary frames cross unchanged).
 */
export interface RealtimeUsageFixture {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_token_details: { cached_tokens: number; text_tokens: number; audio_tokens: number };
  output_token_details: { text_tokens: number; audio_tokens: number };
}

export interface RealtimeMockBehaviour {
  flavour: 'openai' | 'azure' | 'azure-v1';
  apiKey: string;
  /** The usage every `response.done` reports. */
  usage: RealtimeUsageFixture;
  /** Refuse every upgrade with this status and OpenAI-style error body. */
  refuse?: { status: number; code: string; message: string };
}

export interface RealtimeConnection {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Client events received on this connection, parsed. */
  events: Array<Record<string, unknown>>;
  socket?: WebSocket;
  closed?: { code: number; reason: string };
}

export interface RealtimeMock {
  url: string;
  behaviour: RealtimeMockBehaviour;
  /** Every upgrade request, accepted or not, in order. */
  connections: RealtimeConnection[];
  close(): Promise<void>;
}

export const DEFAULT_REALTIME_USAGE: RealtimeUsageFixture = {
  total_tokens: 330,
  input_tokens: 200,
  output_tokens: 130,
  input_token_details: { cached_tokens: 40, text_tokens: 120, audio_tokens: 80 },
  output_token_details: { text_tokens: 30, audio_tokens: 100 },
};

let counter = 0;
const eventId = () => `event_${++counter}`;

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { type: 'invalid_request_error', code, message, param: null } });
  socket.end(
    `HTTP/1.1 ${status} Refused\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Why the upgrade is refused, or undefined when it is what the flavour documents. */
function problem(
  behaviour: RealtimeMockBehaviour,
  connection: RealtimeConnection,
): [number, string, string] | undefined {
  const { headers, path, query } = connection;
  if (behaviour.flavour === 'openai') {
    if (headers.authorization !== `Bearer ${behaviour.apiKey}`) return [401, 'invalid_api_key', 'Incorrect API key'];
    if (path !== '/v1/realtime') return [404, 'not_found', `no route ${path}`];
    if (!query.get('model')) return [400, 'missing_model', 'model is required'];
    return undefined;
  }
  if (headers['api-key'] !== behaviour.apiKey) return [401, '401', 'Access denied due to invalid subscription key.'];
  if (behaviour.flavour === 'azure-v1') {
    if (path !== '/openai/v1/realtime' || !query.get('model')) return [404, 'DeploymentNotFound', 'no deployment'];
    return undefined;
  }
  if (path !== '/openai/realtime' || !query.get('deployment')) return [404, 'DeploymentNotFound', 'no deployment'];
  if (!query.get('api-version')) return [400, 'missing_api_version', 'api-version is required'];
  return undefined;
}

function respond(socket: WebSocket, event: Record<string, unknown>, behaviour: RealtimeMockBehaviour): void {
  const send = (value: Record<string, unknown>) => socket.send(JSON.stringify({ event_id: eventId(), ...value }));
  switch (event.type) {
    case 'session.update':
      send({ type: 'session.updated', session: event.session ?? {} });
      return;
    case 'conversation.item.create':
      send({ type: 'conversation.item.created', previous_item_id: null, item: event.item ?? {} });
      return;
    case 'response.create': {
      const id = `resp_${++counter}`;
      const item = { id: `item_${counter}`, object: 'realtime.item', type: 'message', role: 'assistant', content: [] };
      send({
        type: 'response.created',
        response: { id, object: 'realtime.response', status: 'in_progress', output: [] },
      });
      send({ type: 'response.output_item.added', response_id: id, output_index: 0, item });
      send({
        type: 'response.content_part.added',
        response_id: id,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: { type: 'text', text: '' },
      });
      for (const delta of ['Hello ', 'from realtime.']) {
        send({
          type: 'response.text.delta',
          response_id: id,
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta,
        });
      }
      send({
        type: 'response.text.done',
        response_id: id,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        text: 'Hello from realtime.',
      });
      send({
        type: 'response.output_item.done',
        response_id: id,
        output_index: 0,
        item: { ...item, status: 'completed' },
      });
      send({
        type: 'response.done',
        response: { id, object: 'realtime.response', status: 'completed', output: [item], usage: behaviour.usage },
      });
      return;
    }
    default:
      send({
        type: 'error',
        error: {
          type: 'invalid_request_error',
          code: 'unknown_event',
          message: `unknown event ${String(event.type)}`,
          param: null,
          event_id: event.event_id ?? null,
        },
      });
  }
}

export async function startRealtimeMock(overrides: Partial<RealtimeMockBehaviour> = {}): Promise<RealtimeMock> {
  const behaviour: RealtimeMockBehaviour = {
    flavour: 'openai',
    apiKey: 'sk-realtime-upstream',
    usage: DEFAULT_REALTIME_USAGE,
    ...overrides,
  };
  const connections: RealtimeConnection[] = [];
  const sockets = new WebSocketServer({ noServer: true });
  const server: Server = createServer((_request, response) => {
    response.writeHead(426, { 'content-type': 'application/json' });
    response.end('{"error":{"message":"upgrade required"}}');
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://mock');
    const connection: RealtimeConnection = {
      path: url.pathname,
      query: url.searchParams,
      headers: request.headers,
      events: [],
    };
    connections.push(connection);
    const refusal = behaviour.refuse;
    if (refusal) return refuse(socket, refusal.status, refusal.code, refusal.message);
    const wrong = problem(behaviour, connection);
    if (wrong) return refuse(socket, ...wrong);
    sockets.handleUpgrade(request, socket, head, (client) => {
      connection.socket = client;
      const model = url.searchParams.get('model') ?? url.searchParams.get('deployment');
      client.send(
        JSON.stringify({
          event_id: eventId(),
          type: 'session.created',
          session: {
            id: `sess_${++counter}`,
            object: 'realtime.session',
            model,
            modalities: ['text', 'audio'],
            voice: 'alloy',
          },
        }),
      );
      client.on('message', (data: Buffer, binary) => {
        if (binary) return client.send(data, { binary: true });
        const event = JSON.parse(data.toString()) as Record<string, unknown>;
        connection.events.push(event);
        respond(client, event, behaviour);
      });
      client.on('close', (code, reason) => {
        connection.closed = { code, reason: reason.toString() };
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    behaviour,
    connections,
    async close() {
      for (const connection of connections) connection.socket?.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
