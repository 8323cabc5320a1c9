import type { RouterChannel } from '../../routing/router.js';
import { type MultipartForm, withField } from '../../transport/multipart.js';
import { providerByType } from '../registry.js';

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

export function mapModel(channel: RouterChannel, requested: string): { upstreamModel: string; billedModel: string } {
  const mapped = channel.model_mapping[requested];
  if (!mapped) return { upstreamModel: requested, billedModel: requested };
  if (mapped.startsWith('+')) return { upstreamModel: mapped.slice(1), billedModel: requested };
  return { upstreamModel: mapped, billedModel: mapped };
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

/**
 * Where an OpenAI-format call goes and how it authenticates, by channel type: Azure addresses a
 * deployment (named like the model) with an `api-version` and an `api-key` header; Azure's v1
 * API keeps OpenAI's paths under `/openai`; everyone else is OpenAI's own layout with a bearer key.
 */
export function openAiTarget(
  channel: { type?: number; key: string; other: string },
  baseUrl: string,
  path: string,
  upstreamModel: string,
): { url: string; headers: Record<string, string> } {
  const base = baseUrl.replace(/\/+$/, '');
  // No type: OpenAI's own layout.
  const provider = channel.type === undefined ? undefined : providerByType(channel.type);
  const layout = provider?.openAiLayout ?? 'bearer';
  if (layout === 'azure' && path === '/v1/responses') {
    // Azure's Responses API is not per deployment: the v1 path, the deployment named in `model`.
    return { url: `${base}/openai/v1/responses`, headers: { 'api-key': channel.key } };
  }
  if (layout === 'azure') {
    const version = encodeURIComponent(channel.other.trim() || AZURE_DEFAULT_API_VERSION);
    const deployment = encodeURIComponent(upstreamModel);
    return {
      url: `${base}/openai/deployments/${deployment}${path.replace(/^\/v1/, '')}?api-version=${version}`,
      headers: { 'api-key': channel.key },
    };
  }
  if (layout === 'azure-v1') {
    const version = encodeURIComponent(channel.other.trim() || 'preview');
    return { url: `${base}/openai${path}?api-version=${version}`, headers: { 'api-key': channel.key } };
  }
  return {
    url: upstreamUrl(baseUrl, path, provider?.apiPrefix ?? '/v1'),
    headers: { authorization: `Bearer ${channel.key}` },
  };
}

export function prepareOpenAiRequest(
  channel: RouterChannel,
  baseUrl: string,
  path: string,
  body: Record<string, unknown>,
  requestedModel: string,
): PreparedRequest & { body: string } {
  const { upstreamModel, billedModel } = mapModel(channel, requestedModel);
  const outgoing: Record<string, unknown> = { ...body, ...channel.custom_parameter, model: upstreamModel };
  if (outgoing.stream === true && (path === '/v1/chat/completions' || path === '/v1/completions')) {
    // Always ask for usage so billing never depends on the client's choice.
    const options = typeof body.stream_options === 'object' && body.stream_options !== null ? body.stream_options : {};
    outgoing.stream_options = { ...options, include_usage: true };
  } else {
    delete outgoing.stream_options;
  }
  const target = openAiTarget(channel, baseUrl, path, upstreamModel);
  return {
    url: target.url,
    headers: { ...channel.model_headers, 'content-type': 'application/json', ...target.headers },
    body: JSON.stringify(outgoing),
    upstreamModel,
    billedModel,
  };
}

/**
 * A multipart request goes upstream as the client sent it, boundary and all; only the `model`
 * field is rewritten (or added) when the channel maps the model to another name. Custom
 * parameters are JSON-only and are not merged into forms.
 */
export function prepareOpenAiMultipartRequest(
  channel: RouterChannel,
  baseUrl: string,
  path: string,
  form: MultipartForm,
  requestedModel: string,
): PreparedRequest {
  const { upstreamModel, billedModel } = mapModel(channel, requestedModel);
  const sent = form.fields.model;
  const unchanged = sent === undefined ? upstreamModel === requestedModel : sent === upstreamModel;
  const target = openAiTarget(channel, baseUrl, path, upstreamModel);
  return {
    url: target.url,
    headers: { ...channel.model_headers, 'content-type': form.contentType, ...target.headers },
    body: unchanged ? form.raw : withField(form, 'model', upstreamModel),
    upstreamModel,
    billedModel,
  };
}

/** The upstream request for a relay input, whatever its encoding. */
export function prepareRequest(
  channel: RouterChannel,
  baseUrl: string,
  path: string,
  input: { model: string; fields: Record<string, unknown>; form?: MultipartForm },
): PreparedRequest {
  return input.form
    ? prepareOpenAiMultipartRequest(channel, baseUrl, path, input.form, input.model)
    : prepareOpenAiRequest(channel, baseUrl, path, input.fields, input.model);
}
