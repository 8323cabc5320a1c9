import { openAiAdapter } from '../openai/adapter.js';
import type { AdapterContext, ChatRequest, Json, UpstreamCall } from '../types.js';
import { isRecord } from './common.js';
import { apiVersion, splitModel } from './request.js';

/**
 * The Gemini channel's `use_openai_api` plugin: chat goes to Google's OpenAI-compatible endpoint
 * (`POST {base}/{version}/openai/chat/completions`, the key as a bearer token) instead of
 * generateContent, and its answers and streams are OpenAI's, read by the OpenAI adapter.
 */

export function usesOpenAiEndpoint(context: Pick<AdapterContext, 'plugin'>): boolean {
  const setting = context.plugin.use_openai_api;
  return isRecord(setting) && setting.enable === true;
}

const VERSION_SUFFIX = /\/v\d+(?:(?:alpha|beta)\d*)?$/;

export function openAiEndpointUrl(baseUrl: string, other: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const prefix = VERSION_SUFFIX.test(base) ? base : `${base}/${apiVersion(other)}`;
  return `${prefix}/openai/chat/completions`;
}

export function openAiEndpointCall(request: ChatRequest, context: AdapterContext): UpstreamCall {
  // top_k is not OpenAI's: the endpoint refuses fields it does not know.
  const { top_k: _topK, ...rest } = request;
  const body: Json = { ...rest, model: splitModel(context.upstreamModel).model, stream: context.stream };
  if (context.stream) body.stream_options = { include_usage: true };
  else delete body.stream_options;
  return {
    url: openAiEndpointUrl(context.baseUrl, context.other),
    headers: {
      'content-type': 'application/json',
      ...context.headers,
      authorization: `Bearer ${context.key}`,
    },
    body: JSON.stringify(body),
  };
}

export const parseOpenAiEndpointChat = openAiAdapter.parseChat;
export const decodeOpenAiEndpointStream = openAiAdapter.decodeStream;
