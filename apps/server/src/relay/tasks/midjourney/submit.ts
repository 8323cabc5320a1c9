import type { RelayHttpReply, RelayHttpRequest } from '../../../http/relay-front.js';
import { AppError } from '../../../platform/errors.js';
import type { RelayCaller } from '../../access/keys.js';
import { callerOf } from '../admission.js';
import { bodyObject, clientHookAddress } from '../body.js';
import { runSubmission, type TaskCharge, type TaskSubmission } from '../submission.js';
import { billedModel, FREE_ACTIONS, type MjMode, resolveAction } from './actions.js';
import type { MidjourneyDeps } from './deps.js';
import { MJ_CODE_NO_ACCOUNT, MJ_CODE_UNKNOWN, proxyRefusal, proxyUnreachable } from './errors.js';
import { notifyHookFor } from './links.js';
import { callProxy } from './proxy-client.js';
import type { MidjourneyRow } from './repo.js';
import { keptProperties } from './view.js';

/**
 * Submitting a task (reference §4.15): the action decides the billed model
 * (`mj_[turbo_|relax_]<action>`), the price is reserved, the proxy asked, and the price charged
 * only when the proxy took the task (HTTP 200 with code 1, 21 or 22; 21 is answered as 1 except
 * for the modal-opening actions, whose client must learn a modal waits). A fast task refused for
 * want of an account (code 3) is handed back and submitted again in relax mode. An action on an
 * earlier task goes to the channel that holds it.
 *
 * The proxy is always called at `/mj/…`: a plain midjourney-proxy knows no mode prefix. A mode the
 * client chose (`/mj-relax/mj/…`) or the relax retry is passed on as `accountFilter.modes`, which
 * the proxies that know modes read and the others ignore.
 */

export const MIDJOURNEY_CHANNEL_TYPE = 34;
const ACCEPTED_CODES = new Set([1, 21, 22]);

/** Where each submit endpoint lives on the proxy. */
export function proxySubmitPath(endpoint: string): string {
  return endpoint === 'swap' ? '/mj/insight-face/swap' : `/mj/submit/${endpoint}`;
}

export interface SubmitTarget {
  mode: MjMode;
  /** False for the plain `/mj` prefix: the proxy's own default mode, billed as fast. */
  explicitMode: boolean;
  endpoint: string;
}

interface ProxySubmitAnswer {
  code?: unknown;
  description?: unknown;
  result?: unknown;
  properties?: unknown;
}

/**
 * The client's notifyHook stays here (the proxy must not call arbitrary addresses, and the row must
 * be updated before the client hears of it); the proxy is told to call this server instead, at an
 * address signed for the channel that takes the task (links.ts).
 */
function forProxy(deps: MidjourneyDeps, body: Record<string, unknown>, channelId: number): Record<string, unknown> {
  const { notifyHook: _clientHook, ...rest } = body;
  const hook = notifyHookFor(deps, channelId);
  return hook ? { ...rest, notifyHook: hook } : rest;
}

/** The client's account filter with the mode it asked for (or the relax retry's). */
function withMode(sent: Record<string, unknown>, target: SubmitTarget): Record<string, unknown> {
  if (!target.explicitMode) return sent;
  const filter = sent.accountFilter && typeof sent.accountFilter === 'object' ? sent.accountFilter : {};
  return { ...sent, accountFilter: { ...filter, modes: [target.mode.toUpperCase()] } };
}

/**
 * A notifyHook naming a private, loopback or link-local address outright is refused before anything
 * is charged (unless MjNotifyAllowPrivate): the gateway would post the task there. A name that
 * resolves to such an address is refused by the same guard when the post connects (tracker.ts).
 */
function refusePrivateHook(deps: MidjourneyDeps, body: Record<string, unknown>): void {
  const hook = clientHookAddress(body.notifyHook);
  if (hook === undefined) return;
  let url: URL;
  try {
    url = new URL(hook);
  } catch {
    throw AppError.badRequest('notifyHook is not a valid URL');
  }
  if (deps.guards.hooks.refusesLiteral(url)) {
    throw AppError.badRequest('notifyHook points to a private or loopback address, which the gateway does not call');
  }
}

export async function submitTask(
  deps: MidjourneyDeps,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  target: SubmitTarget,
): Promise<unknown> {
  const caller = callerOf(request);
  const body = bodyObject(request.body);
  refusePrivateHook(deps, body);
  const { action, taskId } = resolveAction(target.endpoint, body);
  let bound: MidjourneyRow | undefined;
  if (taskId !== undefined) {
    bound = await deps.repo.findOwned(caller.user.id, taskId);
    if (!bound) throw AppError.notFound(`task ${taskId} does not exist`);
    // Buttons act on a finished image; a modal completes a task that is waiting for it.
    if (action !== 'MODAL' && bound.status !== 'SUCCESS') {
      throw AppError.badRequest(`task ${taskId} has not succeeded (status ${bound.status || 'unknown'})`);
    }
  }
  const context = { caller, action, bound, body };
  const first = await attempt(deps, request, reply, target, context);
  if (first !== 'retry-relax') return first;
  return attempt(deps, request, reply, { ...target, mode: 'relax', explicitMode: true }, context);
}

interface AttemptContext {
  caller: RelayCaller;
  action: string;
  bound: MidjourneyRow | undefined;
  body: Record<string, unknown>;
}

/** The proxy had no account for a fast task: it was handed back, to be submitted again in relax mode. */
class RetryInRelax extends Error {}

async function attempt(
  deps: MidjourneyDeps,
  request: RelayHttpRequest,
  reply: RelayHttpReply,
  target: SubmitTarget,
  context: AttemptContext,
): Promise<unknown> {
  const billing = {
    model: billedModel(target.mode, context.action),
    ...(context.bound ? { channelId: context.bound.channel_id } : {}),
    channelTypes: [MIDJOURNEY_CHANNEL_TYPE],
  };

  try {
    const { answer, code } = await runSubmission(deps, request, reply, billing, {
      send: (submission) => send(deps, submission, target, context),
      confirmation: ({ answer }) => ({
        content: `Midjourney ${context.action} ${taskIdOf(answer)}`.trim(),
        ...(FREE_ACTIONS.has(context.action) ? { quota: 0 } : {}),
      }),
      record: ({ answer }, submission, charge) => record(deps, submission, charge, target, context, answer),
    });
    return clientAnswer(answer, code === 21 && !FREE_ACTIONS.has(context.action) ? 1 : code);
  } catch (error) {
    if (error instanceof RetryInRelax) return 'retry-relax';
    throw error;
  }
}

/** Asks the proxy; throws its refusal unless it took the task (RetryInRelax: a fast task it had no account for). */
async function send(
  deps: MidjourneyDeps,
  submission: TaskSubmission,
  target: SubmitTarget,
  context: AttemptContext,
): Promise<{ answer: ProxySubmitAnswer; code: number }> {
  const proxied = await callProxy(
    deps,
    submission.channel,
    proxySubmitPath(target.endpoint),
    withMode(forProxy(deps, context.body, submission.channel.id), target),
  );
  const answer = (proxied.body && typeof proxied.body === 'object' ? proxied.body : {}) as ProxySubmitAnswer;
  const code = typeof answer.code === 'number' ? answer.code : MJ_CODE_UNKNOWN;
  if (proxied.status !== 200 || !ACCEPTED_CODES.has(code)) {
    if (code === MJ_CODE_NO_ACCOUNT && target.mode === 'fast') throw new RetryInRelax();
    if (answer.code === undefined) throw proxyUnreachable(submission.channel.id, `answered HTTP ${proxied.status}`);
    throw proxyRefusal(code, String(answer.description ?? ''), answer.result, submission.channel);
  }
  // Without a task id the task could be neither followed nor refunded: it is not charged.
  if (context.action !== 'UPLOAD' && taskIdOf(answer) === '') {
    throw proxyUnreachable(submission.channel.id, 'accepted the task without a task id');
  }
  return { answer, code };
}

/** The proxy's answer for the client, without the gateway's signed callback address should the proxy echo it. */
function clientAnswer(answer: ProxySubmitAnswer, code: number): ProxySubmitAnswer {
  const properties = answer.properties;
  if (!properties || typeof properties !== 'object' || !('notifyHook' in properties)) return { ...answer, code };
  const { notifyHook: _callback, ...rest } = properties as Record<string, unknown>;
  return { ...answer, code, properties: rest };
}

function taskIdOf(answer: ProxySubmitAnswer): string {
  return typeof answer.result === 'string' || typeof answer.result === 'number' ? String(answer.result) : '';
}

/** Records the task the proxy took, with what it was charged (nothing for a free action). */
async function record(
  deps: MidjourneyDeps,
  submission: TaskSubmission,
  charge: TaskCharge,
  target: SubmitTarget,
  context: AttemptContext,
  answer: ProxySubmitAnswer,
): Promise<void> {
  const mjId = taskIdOf(answer);
  // An upload answers image addresses, not a task: there is nothing to follow.
  if (context.action === 'UPLOAD') return;
  const hook = clientHookAddress(context.body.notifyHook);
  const properties = (answer.properties && typeof answer.properties === 'object' ? answer.properties : {}) as Record<
    string,
    unknown
  >;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const now = Date.now();
  // Code 21: the proxy already has this task, and says how far it got.
  const known = answer.code === 21 ? text(properties.status).slice(0, 20) : '';
  await deps.repo.insert({
    code: Number(answer.code),
    user_id: context.caller.user.id,
    action: context.action,
    mj_id: mjId.slice(0, 191),
    // An action on a task keeps the task's prompt, so the list shows what it was about.
    prompt: text(context.body.prompt) || (context.bound?.prompt ?? ''),
    prompt_en: '',
    description: text(answer.description),
    state: text(context.body.state),
    submit_time: now,
    start_time: known === 'SUCCESS' ? now : 0,
    finish_time: known === 'SUCCESS' ? now : 0,
    image_url: known ? text(properties.imageUrl) : '',
    status: known || 'NOT_START',
    progress: known === 'SUCCESS' ? '100%' : '0%',
    fail_reason: '',
    channel_id: submission.channel.id,
    ...charge,
    buttons: '[]',
    properties: keptProperties(properties, hook),
    mode: target.mode,
    token_id: context.caller.token.id,
  });
}
