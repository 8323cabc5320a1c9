import type { UpstreamCall } from './types.js';

/**
 * A channel's "other parameters" (`custom_parameter`, reference §5.1): a JSON object merged into
 * the top level of the JSON body sent upstream, whatever the provider. Its control keys are never
 * sent: `overwrite: true` lets the channel's values replace the client's (otherwise a value is
 * only added where the body has none); `per_model: true` takes the values from the member named
 * after the request's model (no member, nothing is added); `pre_add: true` merges them into the
 * client's request before it is translated instead of into the body sent (pre-add.ts). `stream`
 * is never set from here: the client decides whether it streams.
 */

const CONTROL_KEYS = new Set(['stream', 'overwrite', 'per_model', 'pre_add']);

export type ParameterStage = 'send' | 'entry';

/** Whether the channel's parameters join the client's request before translation (`pre_add`). */
export const isPreAdded = (parameters: Record<string, unknown>): boolean => parameters.pre_add === true;

/** Whether a channel has parameters to merge at all. */
export function hasParameters(parameters: Record<string, unknown> | undefined): parameters is Record<string, unknown> {
  if (!parameters) return false;
  for (const _ in parameters) return true;
  return false;
}

/**
 * Merges the channel's parameters into `body` in place, at `stage`: 'send' (the body the adapter
 * built) unless they are pre-added, 'entry' (the client's body) only when they are. `model` picks
 * the member under `per_model`.
 */
export function addChannelParameters(
  body: Record<string, unknown>,
  parameters: Record<string, unknown>,
  model: string,
  stage: ParameterStage,
): void {
  if (isPreAdded(parameters) !== (stage === 'entry')) return;
  const overwrite = parameters.overwrite === true;
  const values = parameters.per_model === true ? modelValues(parameters, model) : parameters;
  for (const [key, value] of Object.entries(values)) {
    if (CONTROL_KEYS.has(key)) continue;
    if (overwrite || !Object.hasOwn(body, key)) body[key] = value;
  }
}

function modelValues(parameters: Record<string, unknown>, model: string): Record<string, unknown> {
  if (!Object.hasOwn(parameters, model)) return {};
  const values = parameters[model];
  return isPlainObject(values) ? values : {};
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The call with the channel's parameters merged into its JSON body. A body that is not a JSON
 * object (a multipart form, SSML, audio) is sent as built; so is a `sealed` one (signed: its
 * adapter merged the parameters before signing). `model` is the upstream model, used under
 * `per_model` when the body names none.
 */
export function withChannelParameters(
  call: UpstreamCall,
  parameters: Record<string, unknown> | undefined,
  model: string,
): UpstreamCall {
  if (call.sealed || !hasParameters(parameters) || isPreAdded(parameters) || !isJsonCall(call)) return call;
  let body: unknown;
  try {
    body = JSON.parse(typeof call.body === 'string' ? call.body : call.body.toString('utf8'));
  } catch {
    return call;
  }
  if (!isPlainObject(body)) return call;
  addChannelParameters(body, parameters, typeof body.model === 'string' ? body.model : model, 'send');
  const text = JSON.stringify(body);
  return { ...call, body: typeof call.body === 'string' ? text : Buffer.from(text, 'utf8') };
}

function isJsonCall(call: UpstreamCall): boolean {
  if (call.body.length === 0) return false;
  for (const [name, value] of Object.entries(call.headers)) {
    if (name.toLowerCase() === 'content-type') return value.toLowerCase().includes('json');
  }
  return false;
}
