import { AppError } from '../../../platform/errors.js';

/**
 * Which Midjourney action a request is, and so which model it is billed as
 * (`mj_[turbo_|relax_]<action>`, reference §4.15). The actions and the `customId` rules follow
 * midjourney-proxy's names: a button's `customId` is `MJ::JOB::<kind>::<index>::<hash>` (or
 * `MJ::<kind>::…` for the modal-opening ones).
 */

export type MjMode = 'fast' | 'turbo' | 'relax';

/** Actions the proxy runs without charge here (they only open a modal; the modal is billed). */
export const FREE_ACTIONS: ReadonlySet<string> = new Set(['INPAINT', 'CUSTOM_ZOOM']);

/** The submit endpoints whose action is fixed by the path. */
const PATH_ACTIONS: Readonly<Record<string, string>> = {
  imagine: 'IMAGINE',
  describe: 'DESCRIBE',
  blend: 'BLEND',
  shorten: 'SHORTEN',
  modal: 'MODAL',
  'upload-discord-images': 'UPLOAD',
  swap: 'SWAP_FACE',
};

/** The actions `/submit/change` accepts in its `action` field. */
const CHANGE_ACTIONS: ReadonlySet<string> = new Set(['UPSCALE', 'VARIATION', 'REROLL']);

const SIMPLE_CHANGE_LETTERS: Readonly<Record<string, string>> = { U: 'UPSCALE', V: 'VARIATION', R: 'REROLL' };

export function mjBadRequest(message: string): AppError {
  return AppError.badRequest(message);
}

export function billedModel(mode: MjMode, action: string): string {
  const infix = mode === 'fast' ? '' : `${mode}_`;
  return `mj_${infix}${action.toLowerCase()}`;
}

/** The action a button's `customId` stands for; a 400 naming it when it is none the gateway knows. */
export function actionOfCustomId(customId: unknown): string {
  if (typeof customId !== 'string' || customId === '') throw mjBadRequest('customId is required');
  const parts = customId.split('::');
  const kind = (parts[1] === 'JOB' ? parts[2] : parts[1]) ?? '';
  if (kind.includes('upsample')) return 'UPSCALE';
  if (kind.includes('low_variation')) return 'LOW_VARIATION';
  if (kind.includes('high_variation')) return 'HIGH_VARIATION';
  if (kind.includes('variation')) return 'VARIATION';
  if (kind.includes('pan')) return 'PAN';
  if (kind.includes('reroll')) return 'REROLL';
  if (kind === 'Outpaint') return 'ZOOM';
  if (kind === 'CustomZoom') return 'CUSTOM_ZOOM';
  if (kind === 'Inpaint') return 'INPAINT';
  throw mjBadRequest(`unknown customId action: ${customId.slice(0, 200)}`);
}

/** `content` of `/submit/simple-change`: "<taskId> U1" (U, V with 1–4; R alone). */
export function parseSimpleChange(content: unknown): { taskId: string; action: string; index?: number } {
  const match = typeof content === 'string' ? /^\s*(\S+)\s+([UVR])([1-4]?)\s*$/i.exec(content) : null;
  const letter = match?.[2]?.toUpperCase() ?? '';
  const index = match?.[3] ? Number(match[3]) : undefined;
  if (!match || (letter === 'R') !== (index === undefined)) {
    throw mjBadRequest('content must be "<taskId> U1…U4", "<taskId> V1…V4" or "<taskId> R"');
  }
  return { taskId: match[1] as string, action: SIMPLE_CHANGE_LETTERS[letter] as string, ...(index ? { index } : {}) };
}

export interface ResolvedAction {
  action: string;
  /** The earlier task this one acts on: it goes to that task's channel. */
  taskId?: string;
}

function taskIdOf(body: Record<string, unknown>): string {
  const taskId = body.taskId;
  if (typeof taskId === 'string' && taskId !== '') return taskId;
  if (typeof taskId === 'number') return String(taskId);
  throw mjBadRequest('taskId is required');
}

/** The action of a submit request from its endpoint (`imagine`, `change`, `action`, …) and body. */
export function resolveAction(endpoint: string, body: Record<string, unknown>): ResolvedAction {
  switch (endpoint) {
    case 'change': {
      const action = typeof body.action === 'string' ? body.action.toUpperCase() : '';
      if (!CHANGE_ACTIONS.has(action)) throw mjBadRequest('action must be UPSCALE, VARIATION or REROLL');
      return { action, taskId: taskIdOf(body) };
    }
    case 'simple-change': {
      const { taskId, action } = parseSimpleChange(body.content);
      return { action, taskId };
    }
    case 'action':
      return { action: actionOfCustomId(body.customId), taskId: taskIdOf(body) };
    case 'modal':
      return { action: 'MODAL', taskId: taskIdOf(body) };
    default: {
      const action = PATH_ACTIONS[endpoint];
      if (!action) throw AppError.notFound(`unknown Midjourney endpoint ${endpoint}`);
      return { action };
    }
  }
}
