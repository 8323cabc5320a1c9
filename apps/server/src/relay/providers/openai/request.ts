import { type OpenAiLayout, providerByType } from '../../../domain/channel-types/registry.js';
import { mapModel } from '../../../domain/model-mapping.js';
import { copyOwn, ownCopy } from '../../../platform/own-copy.js';
import type { RouterChannel } from '../../routing/router.js';
import { type MultipartForm, withField } from '../../transport/multipart.js';
import { addChannelParameters } from '../channel-parameters.js';
import { zhipuTokens } from '../zhipu/token.js';

/**
 * Builds the upstream request for OpenAI and every OpenAI-compatible vendor. Pure: no I/O.
 */
export interface PreparedRequest {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  /** The model name sent upstream (after the channel's mapping). */
  upstreamModel: string;
  /** The model name billed: the mapped one, unless the mapping starts with `+`. */
  billedModel: string;
}

/**
 * `path` is OpenAI's (`/v1/…`); `apiPrefix` is what the vendor puts in its place (GitHub Models
 * serves the same paths at the root).
 */
export function upstreamUrl(baseUrl: string, path: string, apiPrefix = '/v1'): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (!path.startsWith('/v1/')) return `${base}${path}`;
  // A base URL that already ends in the prefix (common for compatible vendors) is not given a second one.
  const prefix = base.endsWith('/v1') || (apiPrefix && base.endsWith(apiPrefix)) ? '' : apiPrefix;
  return `${base}${prefix}${path.slice(3)}`;
}

/** Azure's GA API version, used when the channel names none. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/** What of a channel says where an OpenAI-format call goes and how it authenticates. */
export interface TargetChannel {
  /** No type: OpenAI's own layout. */
  type?: number;
  key: string;
  other: string;
  /** The channel's plugin settings, for the layouts that read some (custom paths, vendor plugins). */
  plugin?: Record<string, unknown>;
}

export interface OpenAiTarget {
  url: string;
  headers: Record<string, string>;
  /** The model name the vendor knows (Spark's versions); usually the upstream model itself. */
  model: string;
}

/** One OpenAI-format call as a layout sees it. */
export interface TargetRequest {
  channel: TargetChannel;
  /** The channel's base URL, without a trailing slash. */
  base: string;
  /** OpenAI's path (`/v1/chat/completions`…). */
  path: string;
  /** The model to send (after the channel's mapping). */
  model: string;
  /** What the type puts in place of `/v1` (registry `apiPrefix`). */
  apiPrefix: string;
}

/**
 * How one layout (registry `openAiLayout`) addresses, authenticates and extends OpenAI-format
 * calls. Adding a vendor that speaks OpenAI's format with a twist is one entry here (or none, for
 * a plain bearer key at `{base}{apiPrefix}/…`) plus its registry entry.
 */
interface LayoutSpec {
  /** Where the call goes; undefined when the channel does not serve `path` (another channel may). */
  url?(request: TargetRequest): string | undefined;
  /** The headers that authenticate the call; a promise where a token is made or fetched first. */
  auth?(request: TargetRequest): Record<string, string> | Promise<Record<string, string>>;
  /** The model name the vendor knows the requested one by. */
  model?(request: TargetRequest): string;
  /** Adds what the channel's plugin settings ask for to a JSON body (changed in place). */
  extend?(body: Record<string, unknown>, request: TargetRequest): void;
  /**
   * The vendor ends every stream with usage and does not document `stream_options`: the option
   * is not sent (an unknown parameter must not risk a refusal).
   */
  streamUsageAlways?: true;
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const CHAT = '/v1/chat/completions';

/**
 * Custom channels' `plugin.customize` keys: the reference's relay modes, each an OpenAI path.
 * A mode set to a path is sent there (after the base URL); set to `disable`, the channel does not
 * serve it.
 */
const RELAY_MODE_PATHS: Record<string, string> = {
  1: '/v1/chat/completions',
  2: '/v1/completions',
  3: '/v1/embeddings',
  4: '/v1/moderations',
  5: '/v1/images/generations',
  6: '/v1/images/edits',
  7: '/v1/images/variations',
  8: '/v1/edits',
  9: '/v1/audio/speech',
  10: '/v1/audio/transcriptions',
  11: '/v1/audio/translations',
  13: '/v1/rerank',
  16: '/v1/responses',
};

function customizedPath(plugin: Record<string, unknown> | undefined, path: string): string | undefined {
  const customize = plugin?.customize;
  if (!isObject(customize)) return undefined;
  for (const [mode, value] of Object.entries(customize)) {
    if (RELAY_MODE_PATHS[mode] === path && typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
}

/** Spark's versions (the reference's `other`, and `SparkDesk-<version>` model names) by HTTP API model. */
const SPARK_MODELS: Record<string, string> = {
  'v1.1': 'lite',
  'v2.1': 'generalv2',
  'v3.1': 'generalv3',
  'v3.1-128k': 'pro-128k',
  'v3.5': 'generalv3.5',
  'max-32k': 'max-32k',
  'v4.0': '4.0Ultra',
};

/** The Spark model of a requested name: `SparkDesk[-<version>]` by its version (else the channel's), others as they are. */
export function sparkModel(model: string, other: string): string {
  const match = /^SparkDesk(?:-(.+))?$/i.exec(model);
  if (!match) return model;
  const version = (match[1] ?? other.trim()) || 'v3.5';
  return SPARK_MODELS[version.toLowerCase()] ?? version;
}

/**
 * Spark's HTTP key: the reference stores the WebSocket credentials `APPID|APISecret|APIKey`, which
 * the HTTP API takes as `APIKey:APISecret`; anything else (the console's APIPassword, or
 * `APIKey:APISecret` itself) is sent as it is.
 */
export function sparkBearer(key: string): string {
  const parts = key.split('|').map((part) => part.trim());
  if (parts.length === 3 && parts.every((part) => part)) return `${parts[2]}:${parts[1]}`;
  return key;
}

const layouts: Record<OpenAiLayout, LayoutSpec> = {
  bearer: {},
  azure: {
    url({ channel, base, path, model }) {
      // Azure's Responses API is not per deployment: the v1 path, the deployment named in `model`.
      if (path === '/v1/responses') return `${base}/openai/v1/responses`;
      const version = encodeURIComponent(channel.other.trim() || AZURE_DEFAULT_API_VERSION);
      return `${base}/openai/deployments/${encodeURIComponent(model)}${path.replace(/^\/v1/, '')}?api-version=${version}`;
    },
    auth: ({ channel }) => ({ 'api-key': channel.key }),
  },
  'azure-v1': {
    url({ channel, base, path }) {
      return `${base}/openai${path}?api-version=${encodeURIComponent(channel.other.trim() || 'preview')}`;
    },
    auth: ({ channel }) => ({ 'api-key': channel.key }),
  },
  // Custom channels: `plugin.customize` sends a relay mode to another path, or turns it off.
  custom: {
    url({ channel, base, path, apiPrefix }) {
      const custom = customizedPath(channel.plugin, path);
      if (custom === undefined) return upstreamUrl(base, path, apiPrefix);
      if (custom.toLowerCase() === 'disable') return undefined;
      return `${base}${custom.startsWith('/') ? '' : '/'}${custom}`;
    },
  },
  // OpenRouter: the channel's routing preference (`plugin.other.provider`) unless the client gave one.
  openrouter: {
    extend(body, { channel }) {
      const other = channel.plugin?.other;
      if (isObject(other) && isObject(other.provider) && body.provider === undefined) body.provider = other.provider;
    },
  },
  // Zhipu BigModel v4: a JWT signed with the key's secret; the channel's knowledge base and web
  // search become the documented `retrieval` and `web_search` tools of chat requests.
  zhipu: {
    streamUsageAlways: true,
    auth: async ({ channel }) => bearer(await zhipuTokens.bearer(channel.key)),
    extend(body, { channel, path }) {
      if (path !== CHAT) return;
      const tools = Array.isArray(body.tools) ? [...body.tools] : [];
      const given = new Set(tools.map((tool: unknown) => (isObject(tool) ? tool.type : undefined)));
      for (const kind of ['retrieval', 'web_search']) {
        const settings = channel.plugin?.[kind];
        if (isObject(settings) && !given.has(kind)) tools.push({ type: kind, [kind]: settings });
      }
      if (tools.length > 0) body.tools = tools;
    },
  },
  // Alibaba DashScope's compatible mode: the channel's `other` is the X-DashScope-Plugin header;
  // `plugin.enable_search` / `plugin.search_options` turn on web search unless the client says.
  dashscope: {
    auth: ({ channel }) => ({
      ...bearer(channel.key),
      ...(channel.other.trim() ? { 'x-dashscope-plugin': channel.other.trim() } : {}),
    }),
    extend(body, { channel, path }) {
      if (path !== CHAT) return;
      for (const field of ['enable_search', 'search_options']) {
        const value = channel.plugin?.[field];
        if (value !== undefined && body[field] === undefined) body[field] = value;
      }
    },
  },
  // iFlytek Spark's HTTP API: x1 is served under /v2, the other models under /v1.
  xunfei: {
    streamUsageAlways: true,
    url({ base, path, model }) {
      const version = path === CHAT && /^x1/i.test(model) ? '/v2' : '/v1';
      return `${base.replace(/\/v[12]$/, '')}${version}${path.slice(3)}`;
    },
    auth: ({ channel }) => bearer(sparkBearer(channel.key)),
    model: ({ channel, model }) => sparkModel(model, channel.other),
  },
  // Baidu Qianfan's v2 API with a console API key (`bce-v3/…`); older keys go to the v1 API (baidu/).
  qianfan: {},
};

function targetRequest(channel: TargetChannel, baseUrl: string, path: string, model: string) {
  const provider = channel.type === undefined ? undefined : providerByType(channel.type);
  const spec = layouts[provider?.openAiLayout ?? 'bearer'];
  const request: TargetRequest = {
    channel,
    base: baseUrl.replace(/\/+$/, ''),
    path,
    model,
    apiPrefix: provider?.apiPrefix ?? '/v1',
  };
  return { spec, request: { ...request, model: spec.model?.(request) ?? model } };
}

const urlOf = (spec: LayoutSpec, request: TargetRequest) =>
  spec.url ? spec.url(request) : upstreamUrl(request.base, request.path, request.apiPrefix);

/**
 * Where an OpenAI-format call goes and how it authenticates, by the channel type's layout:
 * Azure addresses a deployment (named like the model) with an `api-version` and an `api-key`
 * header; Azure's v1 API keeps OpenAI's paths under `/openai`; vendors with a twist have their
 * entry in `layouts`; everyone else is OpenAI's own layout with a bearer key. For layouts whose
 * credentials need a token made first (Zhipu) use `resolveOpenAiTarget`; this one throws for them.
 */
export function openAiTarget(
  channel: TargetChannel,
  baseUrl: string,
  path: string,
  upstreamModel: string,
): { url: string; headers: Record<string, string> } {
  const { spec, request } = targetRequest(channel, baseUrl, path, upstreamModel);
  const url = urlOf(spec, request);
  if (url === undefined) throw new Error(`the channel does not serve ${path}`);
  const headers = spec.auth ? spec.auth(request) : bearer(channel.key);
  if (headers instanceof Promise) throw new Error('this channel type authenticates with a token: resolve it first');
  return { url, headers };
}

/**
 * `openAiTarget` for every layout, tokens included, with the model name the vendor knows;
 * undefined when the channel does not serve `path` (a custom channel's disabled mode).
 */
export function resolveOpenAiTarget(
  channel: TargetChannel,
  baseUrl: string,
  path: string,
  upstreamModel: string,
): OpenAiTarget | undefined | Promise<OpenAiTarget | undefined> {
  const { spec, request } = targetRequest(channel, baseUrl, path, upstreamModel);
  const url = urlOf(spec, request);
  if (url === undefined) return undefined;
  const headers = spec.auth ? spec.auth(request) : bearer(channel.key);
  // Most layouts sign with the key as it is: no promise for them.
  if (headers instanceof Promise) return headers.then((made) => ({ url, headers: made, model: request.model }));
  return { url, headers, model: request.model };
}

/**
 * Adds what the channel's layout asks for from its plugin settings to an outgoing JSON body, and
 * drops `stream_options` for vendors that always report usage and do not take it.
 */
export function extendOpenAiBody(channel: TargetChannel, path: string, body: Record<string, unknown>): void {
  const { spec, request } = targetRequest(channel, '', path, String(body.model ?? ''));
  if (spec.streamUsageAlways) delete body.stream_options;
  spec.extend?.(body, request);
}

type PreparedJson = (PreparedRequest & { body: string }) | undefined;

/** The OpenAI-format call for a JSON body; a promise only where the layout makes a token first. */
export function prepareOpenAiRequest(
  channel: RouterChannel,
  baseUrl: string,
  path: string,
  body: Record<string, unknown>,
  requestedModel: string,
): PreparedJson | Promise<PreparedJson> {
  const { upstreamModel, billedModel } = mapModel(channel, requestedModel);
  const target = resolveOpenAiTarget(channel, baseUrl, path, upstreamModel);
  return target instanceof Promise
    ? target.then((resolved) => jsonRequest(channel, path, body, billedModel, resolved))
    : jsonRequest(channel, path, body, billedModel, target);
}

function jsonRequest(
  channel: RouterChannel,
  path: string,
  body: Record<string, unknown>,
  billedModel: string,
  target: OpenAiTarget | undefined,
): PreparedJson {
  if (!target) return undefined;
  // A copy built property by property, as `{ ...body, model }` would be (a client's "__proto__" key
  // stays an own property), but with maps V8 shares between requests (platform/own-copy.ts).
  const outgoing = ownCopy(body);
  outgoing.model = target.model;
  // Before the usage flag below, so billing keeps its counts whatever the channel's parameters say.
  addChannelParameters(outgoing, channel.custom_parameter, target.model, 'send');
  if (outgoing.stream === true && (path === '/v1/chat/completions' || path === '/v1/completions')) {
    // Always ask for usage so billing never depends on the client's choice.
    const options = typeof body.stream_options === 'object' && body.stream_options !== null ? body.stream_options : {};
    const withUsage = ownCopy(options as Record<string, unknown>);
    withUsage.include_usage = true;
    outgoing.stream_options = withUsage;
  } else {
    delete outgoing.stream_options;
  }
  extendOpenAiBody(channel, path, outgoing);
  return {
    url: target.url,
    headers: callHeaders(channel.model_headers, 'application/json', target.headers),
    body: JSON.stringify(outgoing),
    upstreamModel: target.model,
    billedModel,
  };
}

/**
 * The channel's own headers, the content type, then the target's (its authentication), a later one
 * taking an earlier one's value in its place, as `{ ...base, 'content-type': type, ...target }`
 * does, with maps shared between calls (platform/own-copy.ts).
 */
export function callHeaders(
  base: Record<string, string> | undefined,
  contentType: string,
  target: Record<string, string>,
): Record<string, string> {
  const headers = copyOwn<Record<string, string>>({}, base);
  headers['content-type'] = contentType;
  return copyOwn(headers, target);
}

/**
 * A multipart request goes upstream as the client sent it, boundary and all; only the `model`
 * field is rewritten (or added) when the channel maps the model to another name. Custom
 * parameters are JSON-only and are not merged into forms.
 */
export async function prepareOpenAiMultipartRequest(
  channel: RouterChannel,
  baseUrl: string,
  path: string,
  form: MultipartForm,
  requestedModel: string,
): Promise<PreparedRequest | undefined> {
  const { upstreamModel: mapped, billedModel } = mapModel(channel, requestedModel);
  const target = await resolveOpenAiTarget(channel, baseUrl, path, mapped);
  if (!target) return undefined;
  const upstreamModel = target.model;
  const sent = form.fields.model;
  const unchanged = sent === undefined ? upstreamModel === requestedModel : sent === upstreamModel;
  return {
    url: target.url,
    headers: callHeaders(channel.model_headers, form.contentType, target.headers),
    body: unchanged ? form.raw : withField(form, 'model', upstreamModel),
    upstreamModel,
    billedModel,
  };
}

/**
 * The upstream request for a relay input, whatever its encoding; undefined when the channel does
 * not serve `path` (another channel may). Throws when a token cannot be made.
 */
export function prepareRequest(
  channel: RouterChannel,
  baseUrl: string,
  path: string,
  input: { model: string; fields: Record<string, unknown>; form?: MultipartForm },
): PreparedRequest | undefined | Promise<PreparedRequest | undefined> {
  return input.form
    ? prepareOpenAiMultipartRequest(channel, baseUrl, path, input.form, input.model)
    : prepareOpenAiRequest(channel, baseUrl, path, input.fields, input.model);
}
