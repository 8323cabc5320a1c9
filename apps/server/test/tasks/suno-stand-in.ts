import { randomUUID } from 'node:crypto';
import { listen, type ReceivedCall, type ScriptedAnswer, sendFile, sendJson } from './stand-in-http.js';

/**
 * A local stand-in for a Suno-API deployment (the proxy One Hub's Suno channels point at):
 * `POST /suno/submit/{music,lyrics}` answers `{code:"success", data:<task id>}`, `POST /suno/fetch
 * {ids}` and `GET /suno/fetch/:id` answer task DTOs. Each fetch moves an unsettled task one step
 * (SUBMITTED → QUEUED → IN_PROGRESS, progress rising); `settle` finishes it. A finished music task
 * holds two clips whose audio_url/image_url this server serves. Every call but the files needs
 * `Authorization: Bearer <key>`.
 */

export interface SunoStandInTask {
  task_id: string;
  action: 'MUSIC' | 'LYRICS';
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  data: unknown;
  settled?: { outcome: 'SUCCESS' | 'FAILURE'; reason: string };
}

export interface SunoApiStandIn {
  baseUrl: string;
  key: string;
  tasks: Map<string, SunoStandInTask>;
  received: ReceivedCall[];
  /** The next submits answer these, in order, instead of taking the task. */
  answerNext(...answers: ScriptedAnswer[]): void;
  /** `/suno/fetch` answers HTTP 500 while true. */
  failFetch: boolean;
  settle(taskId: string, outcome: 'SUCCESS' | 'FAILURE', reason?: string): void;
  close(): Promise<void>;
}

const MP3 = Buffer.from('ID3stand-in-audio');
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);

function seconds(): number {
  return Math.floor(Date.now() / 1000);
}

export async function startSunoApi(options: { key?: string } = {}): Promise<SunoApiStandIn> {
  const key = options.key ?? 'stand-in-suno-key';
  const tasks = new Map<string, SunoStandInTask>();
  const received: ReceivedCall[] = [];
  const scripted: ScriptedAnswer[] = [];

  const clips = (task: SunoStandInTask) =>
    [1, 2].map((n) => ({
      id: `${task.task_id}-clip-${n}`,
      title: 'stand-in song',
      status: 'complete',
      audio_url: `${stand.baseUrl}/files/${task.task_id}-${n}.mp3`,
      image_url: `${stand.baseUrl}/files/${task.task_id}-${n}.jpg`,
      user_id: 'suno-account-user-id',
      metadata: { duration: 120 },
    }));

  /** One step forward for an unsettled task; a settled one reaches its outcome. */
  const advance = (task: SunoStandInTask) => {
    if (task.status === 'SUCCESS' || task.status === 'FAILURE') return;
    if (task.settled) {
      task.status = task.settled.outcome;
      task.finish_time = seconds();
      task.start_time ||= task.finish_time;
      if (task.status === 'SUCCESS') {
        task.progress = '100%';
        task.data =
          task.action === 'MUSIC'
            ? clips(task)
            : { id: task.task_id, text: 'la la la', title: 'lyrics', status: 'complete' };
      } else task.fail_reason = task.settled.reason;
      return;
    }
    if (task.status === 'SUBMITTED') task.status = 'QUEUED';
    else {
      task.status = 'IN_PROGRESS';
      task.start_time ||= seconds();
      task.progress = `${Math.min(90, Number.parseInt(task.progress, 10) + 30)}%`;
    }
  };
  const dto = ({ settled: _settled, ...task }: SunoStandInTask) => task;

  const listening = await listen((request, response, call) => {
    if (call.method === 'GET' && call.path.startsWith('/files/')) {
      return sendFile(
        response,
        call.path.endsWith('.mp3') ? 'audio/mpeg' : 'image/jpeg',
        call.path.endsWith('.mp3') ? MP3 : JPG,
      );
    }
    if (request.headers.authorization !== `Bearer ${key}`) {
      return sendJson(response, 401, { code: 'unauthorized', message: 'invalid key', data: null });
    }
    const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(call.path);
    if (call.method === 'POST' && submit) {
      const next = scripted.shift();
      if (next) return sendJson(response, next.status ?? 200, next.body ?? {});
      const task: SunoStandInTask = {
        task_id: randomUUID(),
        action: submit[1] === 'music' ? 'MUSIC' : 'LYRICS',
        status: 'SUBMITTED',
        fail_reason: '',
        submit_time: seconds(),
        start_time: 0,
        finish_time: 0,
        progress: '0%',
        data: null,
      };
      tasks.set(task.task_id, task);
      return sendJson(response, 200, { code: 'success', message: '', data: task.task_id });
    }
    if (call.path.startsWith('/suno/fetch') && stand.failFetch) {
      return sendJson(response, 500, { code: 'fetch_failed', message: 'stand-in told to fail', data: null });
    }
    if (call.method === 'POST' && call.path === '/suno/fetch') {
      const ids = Array.isArray(call.body?.ids) ? (call.body.ids as string[]) : [];
      const found = ids.flatMap((id) => {
        const task = tasks.get(id);
        if (!task) return [];
        advance(task);
        return [dto(task)];
      });
      return sendJson(response, 200, { code: 'success', message: '', data: found });
    }
    const one = /^\/suno\/fetch\/([^/]+)$/.exec(call.path);
    const task = one ? tasks.get(one[1] as string) : undefined;
    if (call.method === 'GET' && task) {
      advance(task);
      return sendJson(response, 200, { code: 'success', message: '', data: dto(task) });
    }
    sendJson(response, 404, { code: 'not_found', message: `no route ${call.method} ${call.path}`, data: null });
  }, received);

  const stand: SunoApiStandIn = {
    baseUrl: listening.baseUrl,
    key,
    tasks,
    received,
    failFetch: false,
    answerNext: (...answers) => scripted.push(...answers),
    settle(taskId, outcome, reason = 'stand-in failure') {
      const task = tasks.get(taskId);
      if (!task) throw new Error(`no stand-in Suno task ${taskId}`);
      task.settled = { outcome, reason };
    },
    close: listening.close,
  };
  return stand;
}
