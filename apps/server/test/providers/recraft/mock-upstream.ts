import { createServer, type IncomingMessage } from 'node:http';
import type { Json } from '@one-hub/contracts';
import { type ListeningMock, listenMock, sendJson } from '../../mocks/mock-server.js';
import { hasBearer, jsonObject, multipartForm, readWhole } from '../mock-request.js';

/**
 * A local stand-in for Recraft's API (`external.api.recraft.ai`), as its documentation describes it.
 * Every call needs `Authorization: Bearer <key>` (401 `{code, message}` otherwise); errors are
 * `{code, message}` with a 4xx status.
 *
 * - `POST /v1/images/generations` (JSON, OpenAI's shape): `prompt` required, `model` one of
 *   Recraft's, `n` 1–6; answers `{created, credits, data: [{image_id, url}]}`.
 * - `POST /v1/images/{vectorize,removeBackground,clarityUpscale,generativeUpscale}`: a multipart
 *   form with the image as `file`; answers `{image: {image_id, url}, credits}`.
 * - `POST /v1/styles`: a multipart form with `style` and at least one image file; answers `{id}`.
 * - `GET /v1/users/me`: the account, with `credits` (API units, 1000 to the dollar).
 *
 * Forms are read with the platform's own multipart parser, not the gateway's.
 */

export const RECRAFT_MODELS = new Set(['recraftv3', 'recraft20b', 'recraftv2']);
const TOOLS = new Set(['vectorize', 'removeBackground', 'clarityUpscale', 'generativeUpscale']);

export interface RecraftBehaviour {
  apiKey: string;
  credits: number;
}

export interface RecraftFile {
  field: string;
  filename: string;
  type: string;
  bytes: Buffer;
}

export interface RecraftRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The JSON body, or the text fields of a form. */
  body: Json;
  files: RecraftFile[];
}

export type RecraftMock = ListeningMock<RecraftBehaviour, RecraftRequest>;

const defaults = (): RecraftBehaviour => ({ apiKey: 'recraft-mock-token-8d1f', credits: 12_345 });

async function readForm(raw: Buffer, contentType: string): Promise<{ body: Json; files: RecraftFile[] }> {
  const form = await multipartForm(raw, contentType);
  const body: Json = {};
  const files: RecraftFile[] = [];
  if (!form) return { body, files };
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') body[field] = value;
    else files.push({ field, filename: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return { body, files };
}

const imageUrl = (id: string) => `https://img.recraft.ai/mock/${id}.png`;

export async function startRecraftMock(): Promise<RecraftMock> {
  const state = { behaviour: defaults(), received: [] as RecraftRequest[] };
  const server = createServer(async (request, response) => {
    const { method, path, contentType, raw } = await readWhole(request);
    let read: { body: Json; files: RecraftFile[] } = { body: {}, files: [] };
    if (contentType.startsWith('multipart/form-data')) read = await readForm(raw, contentType);
    else {
      const body = jsonObject(raw);
      if (!body) return sendJson(response, 400, { code: 'invalid_json', message: 'the body is not JSON' });
      read.body = body;
    }
    state.received.push({ method, path, headers: request.headers, ...read });
    const invalid = (message: string) => sendJson(response, 400, { code: 'invalid_request', message });
    if (!hasBearer(request, state.behaviour.apiKey)) {
      return sendJson(response, 401, { code: 'not_authenticated', message: 'Invalid or missing API token' });
    }
    const { body, files } = read;
    if (method === 'GET' && path === '/v1/users/me') {
      return sendJson(response, 200, {
        id: 'user-1',
        name: 'Mock User',
        email: 'mock@example.com',
        credits: state.behaviour.credits,
      });
    }
    if (method !== 'POST') return sendJson(response, 404, { code: 'not_found', message: `${method} ${path}` });
    if (path === '/v1/images/generations') {
      if (!contentType.startsWith('application/json')) return invalid('send JSON');
      if (typeof body.prompt !== 'string' || !body.prompt) return invalid('prompt is required');
      if (body.model !== undefined && !RECRAFT_MODELS.has(String(body.model))) return invalid('unknown model');
      const n = body.n === undefined ? 1 : body.n;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 6) return invalid('n must be from 1 to 6');
      return sendJson(response, 200, {
        created: 1_760_000_000,
        credits: 40 * n,
        data: Array.from({ length: n }, (_, index) => ({ image_id: `img-${index}`, url: imageUrl(`img-${index}`) })),
      });
    }
    const tool = /^\/v1\/images\/(\w+)$/.exec(path)?.[1];
    if (tool && TOOLS.has(tool)) {
      if (!contentType.startsWith('multipart/form-data')) return invalid('send a multipart form');
      const file = files.find((part) => part.field === 'file');
      if (!file || file.bytes.length === 0) return invalid('file is required');
      return sendJson(response, 200, { image: { image_id: `${tool}-1`, url: imageUrl(`${tool}-1`) }, credits: 10 });
    }
    if (path === '/v1/styles') {
      if (!contentType.startsWith('multipart/form-data')) return invalid('send a multipart form');
      if (typeof body.style !== 'string' || !body.style) return invalid('style is required');
      if (files.length === 0) return invalid('at least one image is required');
      return sendJson(response, 200, { id: '229b2a75-05e4-4580-85f9-b47ee521a00d' });
    }
    return sendJson(response, 404, { code: 'not_found', message: `no route ${path}` });
  });
  return listenMock(server, state, defaults);
}
