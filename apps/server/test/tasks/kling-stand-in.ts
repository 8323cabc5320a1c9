import { randomUUID } from 'node:crypto';
import { jwtVerify } from 'jose';
import { listen, type ReceivedCall, type ScriptedAnswer, sendFile, sendJson } from './stand-in-http.js';

/**
 * A local stand-in for Kling's official API: `POST /v1/videos/{text2video,image2video}` and
 * `GET /v1/videos/<action>/<task_id>`, answering `{code:0, message, request_id, data}`. Every call
 * but the video files must carry `Authorization: Bearer <jwt>` signed HS256 with the secret key,
 * `iss` = the access key, within its `nbf`/`exp`; anything else is refused with Kling's 401.
 * Each query moves an unsettled task from submitted to processing; `settle` finishes it, a
 * succeeded task's video being a file this server serves.
 */

export interface KlingStandInTask {
  task_id: string;
  action: string;
  task_status: 'submitted' | 'processing' | 'succeed' | 'failed';
  task_status_msg: string;
  created_at: number;
  updated_at: number;
  body: Record<string, unknown>;
  settled?: { outcome: 'SUCCESS' | 'FAILURE'; reason: string };
}

export interface KlingApiStandIn {
  baseUrl: string;
  /** `accessKey|secretKey`, as a channel carries it. */
  key: string;
  accessKey: string;
  secretKey: string;
  tasks: Map<string, KlingStandInTask>;
  received: ReceivedCall[];
  /** Verified JWT payloads, in order. */
  tokens: Array<Record<string, unknown>>;
  answerNext(...answers: ScriptedAnswer[]): void;
  settle(taskId: string, outcome: 'SUCCESS' | 'FAILURE', reason?: string): void;
  close(): Promise<void>;
}

const MP4 = Buffer.from('\x00\x00\x00\x18ftypmp42stand-in-video');

/**
 * The JWT's claims when jose verifies it (HS256, signed with the secret key, within its `nbf` and
 * `exp`) and its issuer is the access key; undefined otherwise.
 */
export async function verifyKlingJwt(
  token: string,
  accessKey: string,
  secretKey: string,
): Promise<Record<string, unknown> | undefined> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secretKey), {
      algorithms: ['HS256'],
      issuer: accessKey,
      requiredClaims: ['exp', 'nbf'],
    });
    return payload;
  } catch {
    return undefined;
  }
}

export async function startKlingApi(
  options: { accessKey?: string; secretKey?: string } = {},
): Promise<KlingApiStandIn> {
  const accessKey = options.accessKey ?? 'stand-in-access-key';
  const secretKey = options.secretKey ?? 'stand-in-secret-key';
  const tasks = new Map<string, KlingStandInTask>();
  const received: ReceivedCall[] = [];
  const tokens: Array<Record<string, unknown>> = [];
  const scripted: ScriptedAnswer[] = [];

  const view = (task: KlingStandInTask) => ({
    task_id: task.task_id,
    task_status: task.task_status,
    task_status_msg: task.task_status_msg,
    created_at: task.created_at,
    updated_at: task.updated_at,
    ...(task.task_status === 'succeed'
      ? {
          task_result: {
            videos: [
              {
                id: `${task.task_id}-video`,
                url: `${stand.baseUrl}/videos/${task.task_id}.mp4`,
                duration: String(task.body.duration ?? '5'),
              },
            ],
          },
        }
      : {}),
  });
  const advance = (task: KlingStandInTask) => {
    if (task.task_status === 'succeed' || task.task_status === 'failed') return;
    task.updated_at = Date.now();
    if (task.settled) {
      task.task_status = task.settled.outcome === 'SUCCESS' ? 'succeed' : 'failed';
      if (task.task_status === 'failed') task.task_status_msg = task.settled.reason;
    } else task.task_status = 'processing';
  };
  const answer = (data: unknown) => ({ code: 0, message: 'SUCCEED', request_id: randomUUID(), data });

  const listening = await listen(async (request, response, call) => {
    if (call.method === 'GET' && call.path.startsWith('/videos/')) return sendFile(response, 'video/mp4', MP4);
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const claims = await verifyKlingJwt(bearer, accessKey, secretKey);
    if (!claims)
      return sendJson(response, 401, { code: 1000, message: 'Authentication failed', request_id: randomUUID() });
    tokens.push(claims);
    const submit = /^\/v1\/videos\/(text2video|image2video)$/.exec(call.path);
    if (call.method === 'POST' && submit) {
      const next = scripted.shift();
      if (next) return sendJson(response, next.status ?? 200, next.body ?? {});
      const now = Date.now();
      const task: KlingStandInTask = {
        task_id: `kt-${randomUUID()}`,
        action: submit[1] as string,
        task_status: 'submitted',
        task_status_msg: '',
        created_at: now,
        updated_at: now,
        body: call.body ?? {},
      };
      tasks.set(task.task_id, task);
      return sendJson(response, 200, answer(view(task)));
    }
    const query = /^\/v1\/videos\/(text2video|image2video)\/([^/]+)$/.exec(call.path);
    const task = query ? tasks.get(query[2] as string) : undefined;
    if (call.method === 'GET' && task && task.action === query?.[1]) {
      advance(task);
      return sendJson(response, 200, answer(view(task)));
    }
    sendJson(response, 404, { code: 1203, message: 'task not found', request_id: randomUUID() });
  }, received);

  const stand: KlingApiStandIn = {
    baseUrl: listening.baseUrl,
    key: `${accessKey}|${secretKey}`,
    accessKey,
    secretKey,
    tasks,
    received,
    tokens,
    answerNext: (...answers) => scripted.push(...answers),
    settle(taskId, outcome, reason = 'stand-in failure') {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`no stand-in Kling task ${taskId}`);
      task.settled = { outcome, reason };
    },
    close: listening.close,
  };
  return stand;
}
