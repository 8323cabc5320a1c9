import { isRecord, type Json } from '@one-hub/contracts';
import { fieldError } from '../../platform/errors.js';
import {
  countChatPromptTokens,
  countInputTokens,
  countRerankTokens,
  countTextTokens,
  estimateChatPromptTokens,
  estimateInputTokens,
  estimateRerankTokens,
} from '../billing/metering.js';
import { bodyUsage, openAiUsage, parsedJson } from '../exchange/endpoint.js';
import { openAiStreamError } from '../exchange/event-stream.js';
import { speaksOpenAi } from '../exchange/exchange.js';
import type { Endpoint, RelayInput, StreamFormat, SurfaceBinding } from '../exchange/types.js';
import { openAiStreamEncoder, openAiSurface } from '../providers/openai/adapter.js';
import { scanChatChunk } from './chat-chunk-scan.js';
import { mediaEndpoints } from './media.js';
import { responsesEndpoint } from './responses.js';

/** The OpenAI endpoints of the relay, each described as data for the pipeline. */

/** The text of one chat or completion choice, whole (`message`) or streamed (`delta`). */
function choiceText(choice: unknown): string {
  if (!isRecord(choice)) return '';
  let text = typeof choice.text === 'string' ? choice.text : '';
  const part = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
  if (!part) return text;
  for (const field of ['content', 'reasoning_content', 'refusal'] as const) {
    if (typeof part[field] === 'string') text += part[field];
  }
  if (Array.isArray(part.tool_calls)) text += JSON.stringify(part.tool_calls);
  return text;
}

const choicesText = (body: Json): string => (Array.isArray(body.choices) ? body.choices : []).map(choiceText).join('');

const clientAskedUsage = (input: RelayInput) =>
  isRecord(input.fields.stream_options) && input.fields.stream_options.include_usage === true;

/** Chat and legacy completion chunks; the usage chunk exists because we asked for it. */
const chatStream: StreamFormat = {
  usageOf: (chunk) => openAiUsage(chunk.usage),
  textOf: choicesText,
  quickText: scanChatChunk,
  rewrite(chunk, input) {
    if (!chunk.usage || clientAskedUsage(input)) return undefined;
    if (!Array.isArray(chunk.choices) || chunk.choices.length === 0) return null;
    const { usage: _notAsked, ...rest } = chunk;
    return rest;
  },
  // Only a usage field is taken out; a key spelled with escapes (`\u0075sage`) is read first too.
  mayRewrite: (text, input) => !clientAskedUsage(input) && (text.includes('usage') || text.includes('\\u')),
  endMarker: '[DONE]',
};

/**
 * Chat completions clients: OpenAI-format channels get the body passed through; any other channel
 * is reached by translation, its answer encoded back as OpenAI's chunks.
 */
export const openAiChatSurface: SurfaceBinding = {
  translator: openAiSurface,
  streamError: openAiStreamError,
  encoderFor: (input) => openAiStreamEncoder(clientAskedUsage(input)),
  passThrough: (_channelType, _model, adapter) => (speaksOpenAi(adapter) ? 'openai' : undefined),
};

function countChoices(raw: Buffer): number {
  const body = parsedJson(raw);
  return isRecord(body) ? countTextTokens(choicesText(body)) : 0;
}

const absent = (value: unknown) => value === undefined || value === null;

/**
 * Fields every text endpoint shares, checked before anything is reserved or sent: a wrong type
 * would only come back as the upstream's 400 after a round trip (or, from a lenient vendor, be
 * answered and billed as if it made sense).
 */
function checkSharedFields(fields: Json): void {
  for (const field of ['n', 'max_tokens', 'max_completion_tokens'] as const) {
    const value = fields[field];
    if (!absent(value) && !(Number.isInteger(value) && Number(value) > 0)) {
      throw fieldError(field, 'must be a positive whole number');
    }
  }
  for (const field of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty'] as const) {
    const value = fields[field];
    if (!absent(value) && !(typeof value === 'number' && Number.isFinite(value))) {
      throw fieldError(field, 'must be a number');
    }
  }
  if (!absent(fields.stream_options) && !isRecord(fields.stream_options)) {
    throw fieldError('stream_options', 'must be an object');
  }
}

function checkChat(input: RelayInput): void {
  const { messages, tools } = input.fields;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw fieldError('messages', 'a non-empty list of messages is required');
  }
  messages.forEach((message, index) => {
    if (!isRecord(message) || typeof message.role !== 'string') {
      throw fieldError(`messages[${index}]`, 'each message must be an object with a role');
    }
  });
  if (!absent(tools) && !Array.isArray(tools)) throw fieldError('tools', 'must be a list of tools');
  checkSharedFields(input.fields);
}

/** `prompt` or `input`: text, a list of texts, or token ids (a list, or a list of lists). */
function checkTextInput(field: 'prompt' | 'input') {
  return (input: RelayInput): void => {
    const value = input.fields[field];
    if (absent(value)) throw fieldError(field, 'is required');
    if (typeof value !== 'string' && !(Array.isArray(value) && value.length > 0)) {
      throw fieldError(field, 'must be a string or a non-empty list');
    }
    checkSharedFields(input.fields);
  };
}

function checkRerank(input: RelayInput): void {
  const { query, documents, top_n: topN } = input.fields;
  if (typeof query !== 'string' || !query) throw fieldError('query', 'a query string is required');
  if (!Array.isArray(documents) || documents.length === 0) {
    throw fieldError('documents', 'a non-empty list of documents is required');
  }
  if (topN !== undefined && topN !== null && !(Number.isInteger(topN) && Number(topN) > 0)) {
    throw fieldError('top_n', 'must be a positive whole number');
  }
}

/** Jina, Cohere-compatible and OpenAI-style rerankers report `prompt_tokens` or only `total_tokens`. */
function rerankUsage(body: unknown) {
  const usage = isRecord(body) && isRecord(body.usage) ? body.usage : undefined;
  const tokens = usage ? (usage.prompt_tokens ?? usage.total_tokens) : undefined;
  return typeof tokens === 'number' && tokens > 0 ? { prompt_tokens: tokens, completion_tokens: 0 } : undefined;
}

export const rerankEndpoint: Endpoint = {
  path: '/v1/rerank',
  body: 'json',
  output: 'json',
  validate: checkRerank,
  estimatePrompt: (input) => estimateRerankTokens(input.fields),
  countPrompt: (input) => countRerankTokens(input.fields),
  usageOf: rerankUsage,
};

/** A JSON object with a list under `field`: the least every answer of that endpoint has. */
const hasList =
  (field: string) =>
  (body: unknown): boolean =>
    isRecord(body) && Array.isArray(body[field]);

/** An endpoint billed on its `input` text, whose answer lists its results under `listField`. */
function inputEndpoint(path: string, listField: string): Endpoint {
  return {
    path,
    body: 'json',
    output: 'json',
    validate: checkTextInput('input'),
    estimatePrompt: (input) => estimateInputTokens(input.fields.input),
    countPrompt: (input) => countInputTokens(input.fields.input),
    usageOf: bodyUsage,
    isAnswer: hasList(listField),
  };
}

export const endpoints: Endpoint[] = [
  {
    path: '/v1/chat/completions',
    body: 'json',
    output: 'json',
    surface: openAiChatSurface,
    heartbeat: true,
    webSearch: true,
    stream: chatStream,
    validate: checkChat,
    estimatePrompt: (input, options) => estimateChatPromptTokens(input.fields, options),
    countPrompt: (input) => countChatPromptTokens(input.fields),
    usageOf: bodyUsage,
    countCompletion: countChoices,
    isAnswer: hasList('choices'),
  },
  {
    path: '/v1/completions',
    body: 'json',
    output: 'json',
    stream: chatStream,
    validate: checkTextInput('prompt'),
    estimatePrompt: (input) => estimateInputTokens(input.fields.prompt),
    countPrompt: (input) => countInputTokens(input.fields.prompt),
    usageOf: bodyUsage,
    countCompletion: countChoices,
    isAnswer: hasList('choices'),
  },
  inputEndpoint('/v1/embeddings', 'data'),
  { ...inputEndpoint('/v1/moderations', 'results'), defaultModel: 'text-moderation-stable' },
  responsesEndpoint,
  rerankEndpoint,
  ...mediaEndpoints,
];
