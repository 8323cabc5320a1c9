import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { type ListeningMock, listenMock, sendJson } from '../../mocks/mock-server.js';
import { hasBearer, multipartForm, readWhole } from '../mock-request.js';

/**
 * A local stand-in for Stability AI's Stable Image API (v2beta), as its reference describes it:
 * `POST /v2beta/stable-image/generate/{ultra,core,sd3}` with `Authorization: Bearer <key>` and a
 * multipart/form-data body (`prompt` required; `negative_prompt`, `aspect_ratio` from 21:9 … 9:21,
 * `seed`, `output_format` png|jpeg|webp, `style_preset`; sd3 also `model`). With
 * `Accept: application/json` the answer is `{image: <base64>, finish_reason, seed}`; errors are
 * `{id, name, errors: [text]}` (400 bad_request, 401 unauthorized, 402 payment_required,
 * 403 content_moderation). Forms are read with the platform's own parser, not the gateway's.
 *
 * Made to order: a prompt containing "forbidden" is refused by moderation (403); one containing
 * "filtered" gives a 200 whose finish_reason is CONTENT_FILTERED (the n-th call when `filterCall`
 * is n). The image is 8 PNG signature bytes followed by a digest of the fields, so a test can tell
 * which request made it.
 */

export const STABILITY_SERVICES = new Set(['ultra', 'core', 'sd3']);
export const SD3_MODELS = new Set([
  'sd3.5-large',
  'sd3.5-large-turbo',
  'sd3.5-medium',
  'sd3.5-flash',
  'sd3-large',
  'sd3-large-turbo',
  'sd3-medium',
]);
const ASPECT_RATIOS = new Set(['21:9', '16:9', '3:2', '5:4', '1:1', '4:5', '2:3', '9:16', '9:21']);
const OUTPUT_FORMATS = new Set(['png', 'jpeg', 'webp']);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface StabilityBehaviour {
  apiKey: string;
  /** Answers 402 (no credits left) to every call. */
  outOfCredits: boolean;
  /** The generation (counted from 1 since the last reset) that comes back CONTENT_FILTERED. */
  filterCall: number | undefined;
}

export interface StabilityRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form's text fields. */
  fields: Record<string, string>;
  /** Names of file parts (none are expected). */
  files: string[];
}

export type StabilityMock = ListeningMock<StabilityBehaviour, StabilityRequest>;

const defaults = (): StabilityBehaviour => ({
  apiKey: 'sk-stability-mock-5e21',
  outOfCredits: false,
  filterCall: undefined,
});

/** The image the mock makes for these fields. */
export function mockImage(fields: Record<string, string>): Buffer {
  const digest = createHash('sha256').update(JSON.stringify(fields)).digest();
  return Buffer.concat([PNG_SIGNATURE, digest]);
}

async function readForm(raw: Buffer, contentType: string): Promise<Pick<StabilityRequest, 'fields' | 'files'>> {
  const form = await multipartForm(raw, contentType);
  const fields: Record<string, string> = {};
  const files: string[] = [];
  for (const [name, value] of form?.entries() ?? []) {
    if (typeof value === 'string') fields[name] = value;
    else files.push(name);
  }
  return { fields, files };
}

const failure = (name: string, ...errors: string[]) => ({ id: 'a1b2c3d4e5f6', name, errors });

export async function startStabilityMock(): Promise<StabilityMock> {
  const state = { behaviour: defaults(), received: [] as StabilityRequest[] };
  const server = createServer(async (request, response) => {
    const { method, path, contentType, raw } = await readWhole(request);
    const form = contentType.startsWith('multipart/form-data')
      ? await readForm(raw, contentType)
      : { fields: {}, files: [] };
    state.received.push({ method, path, headers: request.headers, ...form });
    const bad = (...errors: string[]) => sendJson(response, 400, failure('bad_request', ...errors));
    if (!hasBearer(request, state.behaviour.apiKey)) {
      return sendJson(response, 401, failure('unauthorized', 'authorization: invalid or missing header value'));
    }
    const service = /^\/v2beta\/stable-image\/generate\/(\w+)$/.exec(path)?.[1];
    if (method !== 'POST' || !service || !STABILITY_SERVICES.has(service)) {
      return sendJson(response, 404, failure('not_found', `${method} ${path} was not found`));
    }
    if (state.behaviour.outOfCredits) {
      return sendJson(response, 402, failure('payment_required', 'lacking sufficient credits for this request'));
    }
    if (!contentType.startsWith('multipart/form-data')) return bad('content-type: must be multipart/form-data');
    if (request.headers.accept !== 'application/json') return bad('accept: this mock answers application/json only');
    const { fields } = form;
    if (!fields.prompt) return bad('prompt: cannot be empty');
    if (fields.aspect_ratio !== undefined && !ASPECT_RATIOS.has(fields.aspect_ratio)) {
      return bad(`aspect_ratio: must be one of ${[...ASPECT_RATIOS].join(', ')}`);
    }
    if (fields.output_format !== undefined && !OUTPUT_FORMATS.has(fields.output_format)) {
      return bad('output_format: must be one of png, jpeg, webp');
    }
    if (fields.seed !== undefined && !/^\d+$/.test(fields.seed)) return bad('seed: must be an integer');
    if (service === 'sd3') {
      if (fields.model !== undefined && !SD3_MODELS.has(fields.model))
        return bad(`model: unknown model ${fields.model}`);
    } else if (fields.model !== undefined) {
      return bad('model: not accepted by this service');
    }
    if (fields.prompt.includes('forbidden')) {
      return sendJson(
        response,
        403,
        failure('content_moderation', 'Your request was flagged by our content moderation system.'),
      );
    }
    const seed = Number(fields.seed ?? 1234);
    const generation = state.received.filter((received) => received.path.startsWith('/v2beta/')).length;
    if (fields.prompt.includes('filtered') || state.behaviour.filterCall === generation) {
      return sendJson(response, 200, {
        image: mockImage({ blurred: 'yes' }).toString('base64'),
        finish_reason: 'CONTENT_FILTERED',
        seed,
      });
    }
    return sendJson(response, 200, { image: mockImage(fields).toString('base64'), finish_reason: 'SUCCESS', seed });
  });
  return listenMock(server, state, defaults);
}
