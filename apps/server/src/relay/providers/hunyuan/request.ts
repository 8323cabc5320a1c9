import { providerByType } from '../../../domain/channel-types/registry.js';
import { addChannelParameters } from '../channel-parameters.js';
import { upstreamUrl } from '../openai/request.js';
import type { AdapterContext, UpstreamCall } from '../types.js';
import { tc3Authorization } from './sign.js';

/**
 * Where a Hunyuan call goes, chosen by the channel's key: `SecretId|SecretKey` (Tencent Cloud API
 * credentials) signs calls to the native API at `https://hunyuan.tencentcloudapi.com`; a single
 * API key (from the Hunyuan console) is a bearer token of the OpenAI-compatible API at
 * `https://api.hunyuan.cloud.tencent.com/v1`. A base URL set on the channel replaces either host.
 */

export const HUNYUAN_SERVICE = 'hunyuan';
export const HUNYUAN_VERSION = '2023-09-01';
export const OPENAI_COMPATIBLE_BASE = 'https://api.hunyuan.cloud.tencent.com/v1';
const NATIVE_BASE = 'https://hunyuan.tencentcloudapi.com';

export interface TencentCredentials {
  secretId: string;
  secretKey: string;
}

/** The key's Tencent Cloud credentials; undefined for a single API key; a malformed pair is refused. */
export function hunyuanCredentials(key: string): TencentCredentials | undefined {
  if (!key.includes('|')) return undefined;
  const parts = key.split('|').map((part) => part.trim());
  const [secretId, secretKey] = parts;
  if (parts.length !== 2 || !secretId || !secretKey) {
    throw new Error('the channel key must be SecretId|SecretKey, or a Hunyuan API key');
  }
  return { secretId, secretKey };
}

const isDefaultBase = (context: AdapterContext) =>
  !context.baseUrl ||
  (context.channelType !== undefined && context.baseUrl === providerByType(context.channelType)?.defaultBaseUrl);

/** The OpenAI-compatible API's base (…/v1) for single API keys. */
export const compatibleBase = (context: AdapterContext): string =>
  isDefaultBase(context) ? OPENAI_COMPATIBLE_BASE : context.baseUrl;

/** The OpenAI-compatible URL of an OpenAI path (`/v1/embeddings`). */
export const compatibleUrl = (context: AdapterContext, path: string): string =>
  upstreamUrl(compatibleBase(context), path);

/**
 * A signed native call: `POST /` with the action, version and timestamp headers (and the region
 * when the channel names one in `other`); the signature covers content-type, host and the action.
 */
export function tencentCall(
  context: AdapterContext,
  credentials: TencentCredentials,
  action: string,
  body: Record<string, unknown>,
): UpstreamCall {
  // Signed below: the channel's parameters join the body first (channel-parameters.ts).
  if (context.parameters) addChannelParameters(body, context.parameters, context.upstreamModel, 'send');
  const payload = JSON.stringify(body);
  const base = (isDefaultBase(context) ? NATIVE_BASE : context.baseUrl).replace(/\/+$/, '');
  const url = `${base}/`;
  const contentType = 'application/json';
  const authorization = tc3Authorization({
    ...credentials,
    service: HUNYUAN_SERVICE,
    headers: { 'content-type': contentType, host: new URL(url).host, 'x-tc-action': action },
    payload,
    timestamp: context.now,
  });
  const region = context.other.trim();
  return {
    url,
    headers: {
      ...context.headers,
      'content-type': contentType,
      authorization,
      'x-tc-action': action,
      'x-tc-version': HUNYUAN_VERSION,
      'x-tc-timestamp': String(context.now),
      ...(region ? { 'x-tc-region': region } : {}),
    },
    body: payload,
    sealed: true,
  };
}
