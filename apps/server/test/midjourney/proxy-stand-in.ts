import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for midjourney-proxy (novicezk/midjourney-proxy's REST API): submit endpoints
 * under `/mj`, `/mj-fast/mj`, `/mj-turbo/mj`, `/mj-relax/mj`, a task store, list-by-condition,
 * fetch, image-seed, and the PNG a finished task's `imageUrl` points at. Every call but the image
 * needs the `mj-api-secret` it was started with. Tests steer it: `settle` finishes a task,
 * `answerNext` scripts the next submit answers (refusals, code 21, HTTP errors), `noFastAccount`
 * answers code 3 in fast mode, `failListing` breaks list-by-condition.
 */

/** A 1×1 PNG. */
export const STAND_IN_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

export interface StandInTask {
  id: string;
  action: string;
  status: string;
  progress: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  failReason: string;
  buttons: Array<Record<string, unknown>>;
  properties: Record<string, unknown>;
}

export interface StandInRequest {
  method: string;
  path: string;
  /** `fast`, `turbo`, `relax` (from a mode prefix or `accountFilter.modes`), or `''` for none. */
  mode: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

/** A scripted answer to the next submit. */
export interface ScriptedAnswer {
  status?: number;
  body?: unknown;
}

export interface MidjourneyProxyStandIn {
  baseUrl: string;
  secret: string;
  tasks: Map<string, StandInTask>;
  received: StandInRequest[];
  /** The next submits answer these, in order, instead of taking the task. */
  answerNext(...answers: ScriptedAnswer[]): void;
  /** Fast-mode submits answer code 3 (no account) while true. */
  noFastAccount: boolean;
  /** list-by-condition answers HTTP 500 while true. */
  failListing: boolean;
  /** Moves a task to IN_PROGRESS with that progress. */
  progress(mjId: string, progress: string): void;
  settle(mjId: string, outcome: 'SUCCESS' | 'FAILURE', reason?: string): void;
  close(): Promise<void>;
}

const ENDPOINT_ACTIONS: Record<string, string> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  shorten: 'SHORTEN',
  modal: 'MODAL',
  swap: 'SWAP_FACE',
};

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
}

function newTask(action: string, body: Record<string, unknown>): StandInTask {
  return {
    id: `${Date.now()}${randomInt(100_000, 999_999)}`,
    action,
    status: 'SUBMITTED',
    progress: '0%',
    prompt: typeof body.prompt === 'string' ? body.prompt : '',
    promptEn: typeof body.prompt === 'string' ? `${body.prompt} (en)` : '',
    description: '/imagine',
    state: typeof body.state === 'string' ? body.state : '',
    submitTime: Date.now(),
    startTime: 0,
    finishTime: 0,
    imageUrl: '',
    failReason: '',
    buttons: [],
    properties: { notifyHook: body.notifyHook ?? null },
  };
}

export async function startMidjourneyProxy(options: { secret?: string } = {}): Promise<MidjourneyProxyStandIn> {
  const secret = options.secret ?? 'stand-in-mj-secret';
  const tasks = new Map<string, StandInTask>();
  const received: StandInRequest[] = [];
  const scripted: ScriptedAnswer[] = [];
  let baseUrl = '';

  const submit = (endpoint: string, mode: string, body: Record<string, unknown>, response: ServerResponse) => {
    const next = scripted.shift();
    if (next) return send(response, next.status ?? 200, next.body ?? {});
    if (stand.noFastAccount && (mode === '' || mode === 'fast')) {
      return send(response, 200, { code: 3, description: '无可用的账号实例', result: null });
    }
    if (endpoint === 'upload-discord-images')
      return send(response, 200, { code: 1, description: '成功', result: [`${baseUrl}/images/upload.png`] });
    let action = ENDPOINT_ACTIONS[endpoint] ?? String(body.action ?? 'UPSCALE');
    if (endpoint === 'action' || endpoint === 'change' || endpoint === 'modal') {
      if (!tasks.has(String(body.taskId)))
        return send(response, 200, { code: 4, description: '关联任务不存在', result: null });
      if (endpoint === 'action') action = String(body.customId).includes('upsample') ? 'UPSCALE' : 'VARIATION';
    }
    const task = newTask(action, body);
    tasks.set(task.id, task);
    send(response, 200, {
      code: 1,
      description: '提交成功',
      result: task.id,
      properties: { discordInstanceId: 'stand-in' },
    });
  };

  const route = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method === 'GET' && url.pathname.startsWith('/images/')) {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': STAND_IN_PNG.length });
      return response.end(STAND_IN_PNG);
    }
    const match = /^(?:\/mj-(fast|turbo|relax))?\/mj\/(.+)$/.exec(url.pathname);
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    const modes = (body?.accountFilter as { modes?: string[] } | undefined)?.modes;
    const mode = match?.[1] ?? modes?.[0]?.toLowerCase() ?? '';
    received.push({
      method: request.method ?? '',
      path: url.pathname,
      mode,
      headers: request.headers,
      body,
    });
    if (request.headers['mj-api-secret'] !== secret)
      return send(response, 401, { code: 401, description: 'unauthorized' });
    if (!match) return send(response, 404, { error: 'not found' });
    const rest = match[2] ?? '';
    const submitMatch = /^(?:submit\/(.+)|insight-face\/(swap))$/.exec(rest);
    if (request.method === 'POST' && submitMatch) return submit(submitMatch[1] ?? 'swap', mode, body ?? {}, response);
    if (request.method === 'POST' && rest === 'task/list-by-condition') {
      const ids = Array.isArray(body?.ids) ? (body.ids as string[]) : [];
      if (stand.failListing) return send(response, 500, { error: 'listing broke' });
      return send(
        response,
        200,
        ids.flatMap((id) => (tasks.has(id) ? [tasks.get(id)] : [])),
      );
    }
    const taskMatch = /^task\/([^/]+)\/(fetch|image-seed)$/.exec(rest);
    if (request.method === 'GET' && taskMatch) {
      const task = tasks.get(taskMatch[1] as string);
      if (!task) return send(response, 404, { code: 4, description: 'task not found' });
      if (taskMatch[2] === 'image-seed') return send(response, 200, { code: 1, description: '成功', result: '424242' });
      return send(response, 200, task);
    }
    send(response, 404, { error: 'not found' });
  };

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => send(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const taskOf = (mjId: string): StandInTask => {
    const task = tasks.get(mjId);
    if (!task) throw new Error(`the stand-in has no task ${mjId}`);
    return task;
  };
  const stand: MidjourneyProxyStandIn = {
    baseUrl,
    secret,
    tasks,
    received,
    noFastAccount: false,
    failListing: false,
    answerNext: (...answers) => scripted.push(...answers),
    progress(mjId, progress) {
      const task = taskOf(mjId);
      Object.assign(task, { status: 'IN_PROGRESS', progress, startTime: task.startTime || Date.now() });
    },
    settle(mjId, outcome, reason) {
      const task = taskOf(mjId);
      const now = Date.now();
      Object.assign(task, { status: outcome, startTime: task.startTime || now, finishTime: now });
      if (outcome === 'SUCCESS') {
        Object.assign(task, {
          progress: '100%',
          imageUrl: `${baseUrl}/images/${mjId}.png`,
          buttons: [{ customId: `MJ::JOB::upsample::1::${mjId}`, emoji: '', label: 'U1', type: 2, style: 2 }],
        });
      } else task.failReason = reason ?? 'banned prompt';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return stand;
}
