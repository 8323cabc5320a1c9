import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type ListeningMock, listenMock, sendJson } from '../../mocks/mock-server.js';

/**
 * A local stand-in for OpenAI's stateful APIs as OpenAI and Azure OpenAI document them, reached
 * three ways:
 *
 * - OpenAI: `/v1/<api>` with `Authorization: Bearer <key>`.
 * - Azure OpenAI: `/openai/<api>?api-version=<version>` with `api-key: <key>`.
 * - Azure OpenAI's v1 API: `/openai/v1/<api>?api-version=<version>` with `api-key: <key>`.
 *
 * A wrong credential gets 401 in OpenAI's error envelope. It serves the Files API (multipart
 * upload with `purpose` and `file`, list, retrieve, content, delete), the Batch API (create,
 * retrieve, list), vector stores (create, list), assistants (create, list; `OpenAI-Beta:
 * assistants=v2` required), assistant runs streamed as server-sent events
 * (`POST /threads/{id}/runs` with `stream: true`, which needs `OpenAI-Beta: assistants=v2`) and
 * model deletion. Every body is read as it arrives: its bytes counted and hashed, kept only up to
 * KEPT_BYTES; an upload whose file is larger is measured from the form's head and tail, so a
 * 50 MB upload takes no more memory here than in the gateway.
 */

export type Layout = 'openai' | 'azure' | 'azure-v1';

export interface StatefulBehaviour {
  apiKey: string;
  /** Told of every chunk of a request body as it arrives, with the bytes received so far. */
  onBodyBytes?: (received: number) => void;
  /** When set, a streamed run stops after its first message delta until this settles. */
  holdRun?: Promise<unknown>;
  /** When set, every call is answered with it (status and OpenAI error body). */
  failure?: { status: number; message: string };
}

export interface StatefulRequest {
  layout: Layout;
  method: string;
  /** The API path after the layout's prefix, e.g. `/files/file-1/content`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  bytes: number;
  sha256: string;
}

interface StoredFile {
  id: string;
  filename: string;
  purpose: string;
  bytes: number;
  content: Buffer | undefined;
  created_at: number;
}

export type StatefulMock = ListeningMock<StatefulBehaviour, StatefulRequest> & {
  files: Map<string, StoredFile>;
  /** Request bodies that broke off before their end (the sender went away), so far. */
  brokenBodies(): number;
};

const KEPT_BYTES = 1024 * 1024;
const defaults = (): StatefulBehaviour => ({ apiKey: 'upstream-secret-key-4b1e' });

function error(response: ServerResponse, status: number, message: string, code: string | null = null): void {
  sendJson(response, status, { error: { message, type: 'invalid_request_error', param: null, code } });
}

function layoutOf(path: string): { layout: Layout; rest: string } | undefined {
  if (path.startsWith('/v1/')) return { layout: 'openai', rest: path.slice(3) };
  if (path.startsWith('/openai/v1/')) return { layout: 'azure-v1', rest: path.slice(10) };
  if (path.startsWith('/openai/')) return { layout: 'azure', rest: path.slice(7) };
  return undefined;
}

function authorised(layout: Layout, request: IncomingMessage, query: URLSearchParams, apiKey: string): boolean {
  if (layout === 'openai') return request.headers.authorization === `Bearer ${apiKey}`;
  return request.headers['api-key'] === apiKey && query.has('api-version') && !request.headers.authorization;
}

/** The body read as it arrives: size, hash, its head and tail (all of it when small). */
interface ReadBody {
  bytes: number;
  sha256: string;
  head: Buffer;
  tail: Buffer;
  whole: Buffer | undefined;
}

function readBody(request: IncomingMessage, onBytes: ((received: number) => void) | undefined): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headBytes = 0;
    let tail = Buffer.alloc(0);
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
      if (headBytes < KEPT_BYTES) {
        head.push(chunk);
        headBytes += chunk.length;
      }
      tail = Buffer.concat([tail, chunk]).subarray(-4096);
      onBytes?.(bytes);
    });
    request.once('end', () => {
      const kept = Buffer.concat(head);
      resolve({ bytes, sha256: hash.digest('hex'), head: kept, tail, whole: bytes <= KEPT_BYTES ? kept : undefined });
    });
    request.once('error', reject);
  });
}

/**
 * A multipart upload: its text fields and its one file, the form's last part. A small form is read
 * whole; a large one from its head (the fields and the file's headers) and its closing boundary.
 */
async function readUpload(body: ReadBody, contentType: string) {
  if (body.whole) {
    const form = await new Response(new Uint8Array(body.whole), { headers: { 'content-type': contentType } })
      .formData()
      .catch(() => undefined);
    const file = form?.get('file');
    if (!form || !(file instanceof File)) return undefined;
    const content = Buffer.from(await file.arrayBuffer());
    return { purpose: String(form.get('purpose') ?? ''), filename: file.name, bytes: content.length, content };
  }
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return undefined;
  const head = body.head.toString('latin1');
  const purpose = /name="purpose"\r\n\r\n([^\r]*)\r\n/.exec(head)?.[1] ?? '';
  const fileHeader = /name="file"; filename="([^"]*)"[\s\S]*?\r\n\r\n/.exec(head);
  const closing = `\r\n--${boundary}--\r\n`;
  if (!fileHeader || !body.tail.toString('latin1').endsWith(closing)) return undefined;
  const start = fileHeader.index + fileHeader[0].length;
  return { purpose, filename: fileHeader[1] ?? '', bytes: body.bytes - start - closing.length, content: undefined };
}

const fileObject = (file: StoredFile) => ({
  id: file.id,
  object: 'file',
  bytes: file.bytes,
  created_at: file.created_at,
  filename: file.filename,
  purpose: file.purpose,
  status: 'processed',
});

function batchObject(id: string, body: Record<string, unknown>) {
  return {
    id,
    object: 'batch',
    endpoint: body.endpoint,
    input_file_id: body.input_file_id,
    completion_window: body.completion_window,
    status: 'validating',
    created_at: 1_714_000_000,
    errors: null,
    output_file_id: null,
    error_file_id: null,
    request_counts: { total: 0, completed: 0, failed: 0 },
    metadata: body.metadata ?? null,
  };
}

/** An assistant run streamed as OpenAI documents it: the run, a message with its text in deltas, the end. */
async function streamRun(
  response: ServerResponse,
  threadId: string,
  assistantId: string,
  hold: Promise<unknown> | undefined,
): Promise<void> {
  const run = {
    id: 'run_mock_1',
    object: 'thread.run',
    created_at: 1_714_000_000,
    thread_id: threadId,
    assistant_id: assistantId,
    status: 'queued',
  };
  const message = {
    id: 'msg_mock_1',
    object: 'thread.message',
    created_at: 1_714_000_001,
    thread_id: threadId,
    run_id: run.id,
    assistant_id: assistantId,
    role: 'assistant',
    status: 'in_progress',
    content: [] as unknown[],
    attachments: [],
    metadata: {},
  };
  const text = 'Paris is the capital of France.';
  const events: Array<[string, unknown]> = [
    ['thread.run.created', run],
    ['thread.run.in_progress', { ...run, status: 'in_progress' }],
    ['thread.message.created', message],
    ...['Paris is ', 'the capital ', 'of France.'].map((value): [string, unknown] => [
      'thread.message.delta',
      {
        id: message.id,
        object: 'thread.message.delta',
        delta: { content: [{ index: 0, type: 'text', text: { value, annotations: [] } }] },
      },
    ]),
    [
      'thread.message.completed',
      { ...message, status: 'completed', content: [{ type: 'text', text: { value: text, annotations: [] } }] },
    ],
    ['thread.run.completed', { ...run, status: 'completed' }],
  ];
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (event === 'thread.message.delta' && hold) {
      await hold;
      hold = undefined;
    }
  }
  response.end('event: done\ndata: [DONE]\n\n');
}

export async function startStatefulMock(): Promise<StatefulMock> {
  const state = { behaviour: defaults(), received: [] as StatefulRequest[] };
  const files = new Map<string, StoredFile>();
  const vectorStores: Array<Record<string, unknown>> = [];
  const assistants: Array<Record<string, unknown>> = [];
  let sequence = 0;
  let broken = 0;

  async function route(request: IncomingMessage, response: ServerResponse, call: StatefulRequest, body: ReadBody) {
    const { method, path } = call;
    const parts = path.split('/').filter(Boolean);
    const json = () =>
      body.whole && body.bytes > 0 ? (JSON.parse(body.whole.toString('utf8')) as Record<string, unknown>) : {};
    if (parts[0] === 'files') {
      const file = parts[1] ? files.get(parts[1]) : undefined;
      if (method === 'POST' && parts.length === 1) {
        const upload = await readUpload(body, request.headers['content-type'] ?? '');
        if (!upload?.purpose) return error(response, 400, "'file' and 'purpose' are required");
        const stored = { id: `file-${++sequence}`, created_at: 1_714_000_000 + sequence, ...upload };
        files.set(stored.id, stored);
        return sendJson(response, 200, fileObject(stored));
      }
      if (method === 'GET' && parts.length === 1) {
        const purpose = call.query.get('purpose');
        const data = [...files.values()].filter((each) => !purpose || each.purpose === purpose).map(fileObject);
        return sendJson(response, 200, { object: 'list', data, has_more: false });
      }
      if (!file) return error(response, 404, `No such File object: ${parts[1]}`);
      if (method === 'GET' && parts.length === 2) return sendJson(response, 200, fileObject(file));
      if (method === 'GET' && parts[2] === 'content') {
        response.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="${file.filename}"`,
        });
        return response.end(file.content ?? Buffer.alloc(0));
      }
      if (method === 'DELETE' && parts.length === 2) {
        files.delete(file.id);
        return sendJson(response, 200, { id: file.id, object: 'file', deleted: true });
      }
    }
    if (parts[0] === 'batches') {
      if (method === 'POST' && parts.length === 1) {
        const fields = json();
        if (!files.has(String(fields.input_file_id))) return error(response, 400, 'input_file_id is not a file');
        return sendJson(response, 200, batchObject(`batch_${++sequence}`, fields));
      }
      if (method === 'GET' && parts.length === 1) {
        return sendJson(response, 200, { object: 'list', data: [], has_more: false, limit: call.query.get('limit') });
      }
    }
    if (parts[0] === 'vector_stores' && method === 'POST' && parts.length === 1) {
      const fields = json();
      const store = {
        id: `vs_${++sequence}`,
        object: 'vector_store',
        name: fields.name,
        created_at: 1_714_000_000,
        status: 'completed',
        file_counts: { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: 0 },
        usage_bytes: 0,
      };
      vectorStores.push(store);
      return sendJson(response, 200, store);
    }
    if (parts[0] === 'vector_stores' && method === 'GET' && parts.length === 1) {
      return sendJson(response, 200, { object: 'list', data: vectorStores, has_more: false });
    }
    if (parts[0] === 'assistants' && parts.length === 1) {
      if (request.headers['openai-beta'] !== 'assistants=v2') return error(response, 400, 'OpenAI-Beta is required');
      if (method === 'POST') {
        const fields = json();
        if (typeof fields.model !== 'string') return error(response, 400, "'model' is required");
        const assistant = {
          id: `asst_${++sequence}`,
          object: 'assistant',
          created_at: 1_714_000_000,
          name: fields.name ?? null,
          description: null,
          model: fields.model,
          instructions: fields.instructions ?? null,
          tools: fields.tools ?? [],
          metadata: fields.metadata ?? {},
        };
        assistants.push(assistant);
        return sendJson(response, 200, assistant);
      }
      if (method === 'GET') return sendJson(response, 200, { object: 'list', data: assistants, has_more: false });
    }
    if (parts[0] === 'threads' && parts[2] === 'runs' && method === 'POST' && parts.length === 3) {
      if (request.headers['openai-beta'] !== 'assistants=v2') return error(response, 400, 'OpenAI-Beta is required');
      const fields = json();
      if (fields.stream !== true) return error(response, 400, 'only streamed runs are served here');
      return streamRun(response, parts[1] ?? '', String(fields.assistant_id), state.behaviour.holdRun);
    }
    if (parts[0] === 'models' && method === 'DELETE' && parts.length === 2) {
      return sendJson(response, 200, { id: decodeURIComponent(parts[1] ?? ''), object: 'model', deleted: true });
    }
    return error(response, 404, `Invalid URL (${method} ${path})`);
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://mock');
    const found = layoutOf(url.pathname);
    const behaviour = state.behaviour;
    readBody(request, behaviour.onBodyBytes).then(
      async (body) => {
        if (!found) return error(response, 404, 'unknown path');
        const call: StatefulRequest = {
          layout: found.layout,
          method: request.method ?? '',
          path: found.rest,
          query: url.searchParams,
          headers: request.headers,
          bytes: body.bytes,
          sha256: body.sha256,
        };
        state.received.push(call);
        if (!authorised(found.layout, request, url.searchParams, behaviour.apiKey)) {
          return error(response, 401, 'Incorrect API key provided', 'invalid_api_key');
        }
        if (behaviour.failure) return error(response, behaviour.failure.status, behaviour.failure.message);
        await route(request, response, call, body);
      },
      () => {
        broken++;
        response.destroy();
      },
    );
  });
  const mock = await listenMock(server, state, defaults);
  return Object.assign(mock, { files, brokenBodies: () => broken });
}
