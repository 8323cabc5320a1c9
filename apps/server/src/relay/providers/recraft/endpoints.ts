import { fieldError } from '../../../platform/errors.js';
import type { Endpoint, RelayInput } from '../../exchange/types.js';
import { hasFile } from '../../transport/multipart.js';
import { RECRAFT_FORMAT } from './adapter.js';

/**
 * Recraft's own tools under `/recraftAI/v1/…` (reference §2.1): the client's multipart form goes
 * to the same path at Recraft unchanged, to Recraft channels only, and each call is billed once as
 * the model `recraft_<last path segment>` (a `times` price: 1000 × its ratio per call).
 */

/** The route prefix in front of Recraft's own paths. */
export const RECRAFT_ROUTE_PREFIX = '/recraftAI';

/** The image tools, each `POST /v1/images/<action>` at Recraft with the image as `file`. */
const IMAGE_ACTIONS = ['vectorize', 'removeBackground', 'clarityUpscale', 'generativeUpscale'] as const;

/**
 * A call counts as one "prompt token": a `times` price ignores it, and a channel priced per token
 * by mistake still charges its input ratio rather than nothing.
 */
const ONE_CALL = 1;

function checkTool(model: string, needsFile: boolean) {
  return (input: RelayInput): void => {
    // The path names the model billed: a `model` field naming another would be billed as that one.
    if (input.model !== model) throw fieldError('model', `this path is billed as ${model}; leave model out`);
    if (needsFile && input.form && !hasFile(input.form, ['file'])) {
      throw fieldError('file', 'an image file is required');
    }
  };
}

function tool(path: string, model: string, needsFile: boolean): Endpoint {
  return {
    // Recraft's own path: where the pass-through sends it (the route adds RECRAFT_ROUTE_PREFIX).
    path,
    body: 'multipart',
    output: 'json',
    defaultModel: model,
    onlyFormat: RECRAFT_FORMAT,
    validate: checkTool(model, needsFile),
    estimatePrompt: () => ONE_CALL,
    countPrompt: () => ONE_CALL,
    usageOf: () => undefined,
  };
}

/** Recraft's tools; each is routed at RECRAFT_ROUTE_PREFIX + its path. */
export const recraftToolEndpoints: Endpoint[] = [
  ...IMAGE_ACTIONS.map((action) => tool(`/v1/images/${action}`, `recraft_${action}`, true)),
  // Creating a style: Recraft reads `style` and the reference images (`file`, `file1`…) as a form.
  tool('/v1/styles', 'recraft_styles', false),
];
