import { isRecord, parseJson } from '@one-hub/contracts';
import { anthropicAdapter, buildAnthropicBody, parseAnthropicError } from '../anthropic/adapter.js';
import { geminiAdapter, parseGeminiError, splitModel, toGeminiRequest } from '../gemini/adapter.js';
import type {
  AdapterContext,
  ChatAdapter,
  ChatCompletion,
  ChatRequest,
  Json,
  StreamDecoder,
  UpstreamCall,
  UpstreamErrorInfo,
} from '../types.js';
import { parseServiceAccount, type ServiceAccount, type ServiceAccountTokens } from './token.js';

/**
 * Google Vertex AI (channel type `vertexai`): Gemini models and Anthropic's Claude models, both behind
 * Google Cloud's own endpoint and OAuth 2.0 access tokens of a service account.
 *
 * Channel:
 * - key: the service-account key file (JSON); the access token comes from `ServiceAccountTokens`.
 * - other: `Region|ProjectID`. Region defaults to `us-central1`; ProjectID to the key file's
 *   `project_id`. The region `global` is served by `aiplatform.googleapis.com` (no region prefix).
 * - base URL: when set, it replaces `https://{region}-aiplatform.googleapis.com` (a proxy, a test
 *   server); a base already ending in `/v1` or `/v1beta1` is used as it is.
 *
 * Calls (`POST {origin}/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{method}`):
 * - Gemini models: publisher `google`, `:generateContent` or `:streamGenerateContent?alt=sse`, body
 *   from the Gemini adapter (`toGeminiRequest`); answers, streams and errors read by it too.
 * - Claude models (name starting with `claude`): publisher `anthropic`, `:rawPredict` or
 *   `:streamRawPredict`, the Anthropic Messages body of the Anthropic adapter without `model` and
 *   with `anthropic_version: "vertex-2023-10-16"` (Anthropic's "Claude on Vertex AI" rules);
 *   answers and streams read by the Anthropic adapter. Anthropic API names are turned into Vertex
 *   ids (`claude-3-5-sonnet-20241022` → `claude-3-5-sonnet-v2@20241022`, see `claudeVertexModel`).
 * - `Authorization: Bearer <access token>`; the channel's extra headers go along.
 *
 * Errors come in two shapes: Google's `{error: {code, message, status}}` (authentication, quota,
 * unknown model: the platform's own answers, for Claude models too) and Anthropic's
 * `{type: "error", error: {type, message}}` (what Claude itself refused, e.g. `overloaded_error`).
 * `parseVertexError` tells them apart by the body, as `parseError` gets no model.
 *
 * `format` is `'openai'`: the contract's single format cannot say "Anthropic for Claude models,
 * Gemini for the others", and a native surface must never take a Vertex channel for api.anthropic.com
 * or AI Studio (it would send the key file as an API key). Same-format pass-through for Vertex goes
 * through `vertexNativeCall`, chosen per model with `vertexFormatOf`.
 */

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';
export const DEFAULT_REGION = 'us-central1';

/** Anthropic API model names (and their aliases) whose Vertex id is not just `name@date`. */
const CLAUDE_VERTEX_IDS: Record<string, string> = {
  // Claude 3.5 Sonnet v2 carries a `-v2` on Vertex that its Anthropic name does not have.
  'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022',
  'claude-3-5-sonnet-latest': 'claude-3-5-sonnet-v2@20241022',
  'claude-3-5-haiku-latest': 'claude-3-5-haiku@20241022',
  'claude-3-7-sonnet-latest': 'claude-3-7-sonnet@20250219',
  'claude-3-opus-latest': 'claude-3-opus@20240229',
  'claude-sonnet-4-0': 'claude-sonnet-4@20250514',
  'claude-opus-4-0': 'claude-opus-4@20250514',
  'claude-opus-4-1': 'claude-opus-4-1@20250805',
  'claude-sonnet-4-5': 'claude-sonnet-4-5@20250929',
  'claude-haiku-4-5': 'claude-haiku-4-5@20251001',
  'claude-opus-4-5': 'claude-opus-4-5@20251101',
};

/**
 * An Anthropic API model name → its Vertex AI model id. Vertex writes a model's date after an `@`
 * (`claude-sonnet-4-5@20250929` for `claude-sonnet-4-5-20250929`); the known aliases map to their
 * dated ids; a name already holding an `@`, and a name without date and alias (Claude 4.6 and
 * later are published on Vertex without one), is sent as it is.
 */
export function claudeVertexModel(name: string): string {
  if (name.includes('@')) return name;
  const known = CLAUDE_VERTEX_IDS[name];
  if (known) return known;
  const dated = /^(claude-.+)-(\d{8})$/.exec(name);
  return dated ? `${dated[1]}@${dated[2]}` : name;
}

/** Which wire format a model on Vertex speaks: Anthropic's for Claude models, Gemini's otherwise. */
export function vertexFormatOf(model: string): 'anthropic' | 'gemini' {
  return /^claude/i.test(splitModel(model).model) ? 'anthropic' : 'gemini';
}

export interface VertexTarget {
  /** The API root up to and including the version, e.g. `https://us-central1-aiplatform.googleapis.com/v1`. */
  root: string;
  region: string;
  project: string;
}

/** Where a channel's calls go: `other` (`Region|ProjectID`), the key file's project, the base URL. */
export function vertexTarget(
  context: Pick<AdapterContext, 'other' | 'baseUrl'>,
  account: ServiceAccount,
): VertexTarget {
  const [regionPart = '', projectPart = ''] = (context.other ?? '').split('|').map((part) => part.trim());
  const region = regionPart || DEFAULT_REGION;
  if (!/^[a-z][a-z0-9-]*$/.test(region)) {
    throw new Error(`other: ${JSON.stringify(region)} is not a Vertex AI location (e.g. us-central1 or global)`);
  }
  const project = projectPart || account.project_id;
  if (!project) throw new Error('other: no project id: write Region|ProjectID or use a key file with project_id');
  if (!/^[A-Za-z0-9.:_-]+$/.test(project)) throw new Error(`other: ${JSON.stringify(project)} is not a project id`);
  const base = (context.baseUrl ?? '').trim().replace(/\/+$/, '');
  let root: string;
  if (base) root = /\/v1(?:beta1)?$/.test(base) ? base : `${base}/v1`;
  else if (region === 'global') root = 'https://aiplatform.googleapis.com/v1';
  else root = `https://${region}-aiplatform.googleapis.com/v1`;
  return { root, region, project };
}

/** A publisher model's method URL, e.g. `…/publishers/google/models/gemini-2.5-flash:generateContent`. */
export function vertexModelUrl(
  target: VertexTarget,
  publisher: 'google' | 'anthropic',
  model: string,
  method: string,
): string {
  // `@` separates a Claude id from its date; Google's own examples write it as it is.
  const id = encodeURIComponent(model).replace(/%40/g, '@');
  return `${target.root}/projects/${encodeURIComponent(target.project)}/locations/${target.region}/publishers/${publisher}/models/${id}:${method}`;
}

/**
 * An error body from Vertex → status, message and type: Anthropic's shape (Claude's own refusals)
 * is read by the Anthropic adapter, anything else (Google's `{error: {code, message, status}}`,
 * a proxy's page) by the Gemini adapter.
 */
export function parseVertexError(status: number, body: Buffer): UpstreamErrorInfo {
  const parsed = parseJson(body.toString('utf8'));
  if (parsed === undefined) return parseGeminiError(status, body);
  const record = isRecord(parsed) ? parsed : {};
  const error = record.error;
  const anthropicShape =
    record.type === 'error' ||
    (typeof error === 'object' &&
      error !== null &&
      typeof (error as Json).type === 'string' &&
      (error as Json).status === undefined);
  return anthropicShape ? parseAnthropicError(status, body) : parseGeminiError(status, body);
}

/** The channel's extra headers, less any Authorization of theirs: ours carries the token. */
function callHeaders(context: AdapterContext, token: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(context.headers ?? {})) {
    if (name.toLowerCase() !== 'authorization') headers[name] = value;
  }
  headers.authorization = `Bearer ${token}`;
  return headers;
}

/** Gemini's `toGeminiRequest` only reads the API version to decide on thought-signature placeholders:
 * AI Studio's `v1` has no such field, Vertex's `v1` has it (Gemini 3 demands it), so the answer is
 * that of a version that has the field. */
const SIGNATURE_AWARE_VERSION = 'v1beta';

/** A Claude body for Vertex: the model goes in the URL, the version in the body. */
function claudeBody(body: Json, stream: boolean): Json {
  const { model: _model, anthropic_version: _version, stream: _stream, ...rest } = body;
  return { anthropic_version: VERTEX_ANTHROPIC_VERSION, ...rest, ...(stream ? { stream: true } : {}) };
}

export interface VertexAdapter extends ChatAdapter {
  /**
   * Same format in and out (an Anthropic client to a Claude model, a Gemini client to a Gemini
   * model): the client's body, unchanged but for what Vertex wants (for Claude: no `model`,
   * `anthropic_version` set), wrapped into the Vertex call. Throws when the format is not the
   * model's (see `vertexFormatOf`).
   */
  vertexNativeCall(format: 'anthropic' | 'gemini', body: Json, context: AdapterContext): Promise<UpstreamCall>;
}

export function createVertexAdapter(tokens: ServiceAccountTokens): VertexAdapter {
  const isClaude = (context: AdapterContext) => vertexFormatOf(context.upstreamModel) === 'anthropic';

  return {
    format: 'openai',

    async buildChat(request: ChatRequest, context: AdapterContext): Promise<UpstreamCall> {
      const account = parseServiceAccount(context.key);
      const target = vertexTarget(context, account);
      const { model, thinking } = splitModel(context.upstreamModel);
      let url: string;
      let body: Json;
      // The body first: a request Vertex cannot take fails before a token is asked for.
      if (isClaude(context)) {
        body = claudeBody(
          buildAnthropicBody(request, context.upstreamModel, context.stream, context.settings),
          context.stream,
        );
        const method = context.stream ? 'streamRawPredict' : 'rawPredict';
        url = vertexModelUrl(target, 'anthropic', claudeVertexModel(model), method);
      } else {
        body = toGeminiRequest(request, model, thinking, context.plugin, SIGNATURE_AWARE_VERSION, context.settings);
        const method = context.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
        url = vertexModelUrl(target, 'google', model, method);
      }
      const token = await tokens.accessToken(account);
      return { url, headers: callHeaders(context, token), body: JSON.stringify(body) };
    },

    parseChat(body: Buffer, context: AdapterContext): ChatCompletion {
      return isClaude(context) ? anthropicAdapter.parseChat(body, context) : geminiAdapter.parseChat(body, context);
    },

    decodeStream(context: AdapterContext): StreamDecoder {
      return isClaude(context) ? anthropicAdapter.decodeStream(context) : geminiAdapter.decodeStream(context);
    },

    parseError: parseVertexError,

    async vertexNativeCall(format, body, context): Promise<UpstreamCall> {
      const { model } = splitModel(context.upstreamModel);
      const family = vertexFormatOf(model);
      if (family !== format) {
        throw new Error(
          `model: ${model} on Vertex AI takes ${family === 'anthropic' ? 'Anthropic' : 'Gemini'} requests`,
        );
      }
      const account = parseServiceAccount(context.key);
      const target = vertexTarget(context, account);
      let url: string;
      let payload: Json;
      if (format === 'anthropic') {
        payload = claudeBody(body, context.stream);
        const method = context.stream ? 'streamRawPredict' : 'rawPredict';
        url = vertexModelUrl(target, 'anthropic', claudeVertexModel(model), method);
      } else {
        payload = body;
        const method = context.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
        url = vertexModelUrl(target, 'google', model, method);
      }
      const token = await tokens.accessToken(account);
      return { url, headers: callHeaders(context, token), body: JSON.stringify(payload) };
    },
  };
}
