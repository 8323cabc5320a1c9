import { isRecord, type Json } from '@one-hub/contracts';
import { passesThrough } from '../../domain/channel-types/registry.js';
import { fieldError } from '../../platform/errors.js';
import { countResponsesPromptTokens, countTextTokens, estimateResponsesPromptTokens } from '../billing/metering.js';
import { parsedJson, tokenUsage } from '../exchange/endpoint.js';
import type { Endpoint, RelayInput, StreamFormat, SurfaceBinding } from '../exchange/types.js';
import { responsesStreamError, responsesSurface } from '../providers/responses/surface.js';

/**
 * OpenAI's Responses API, passed through to channels that serve it. Its usage counts
 * `input_tokens`/`output_tokens`; a stream reports it once, in the final `response.completed`
 * (or `response.incomplete`/`response.failed`) event, and has no `stream_options`.
 */

function checkResponsesRequest(input: RelayInput): void {
  const { input: items, instructions } = input.fields;
  if (items !== undefined && items !== null && typeof items !== 'string' && !Array.isArray(items)) {
    throw fieldError('input', 'must be a string or a list of input items');
  }
  if (instructions !== undefined && instructions !== null && typeof instructions !== 'string') {
    throw fieldError('instructions', 'must be a string');
  }
}

const responseUsage = (response: unknown) => (isRecord(response) ? tokenUsage(response.usage) : undefined);

// Text deltas of every kind (output text, refusals, tool arguments, reasoning); audio deltas are base64.
function deltaText(event: Json): string {
  const type = typeof event.type === 'string' ? event.type : '';
  return type.endsWith('.delta') && !type.includes('audio') && typeof event.delta === 'string' ? event.delta : '';
}

const responsesStream: StreamFormat = {
  usageOf: (event) => responseUsage(event.response),
  textOf: deltaText,
};

function partText(part: unknown): string {
  if (!isRecord(part)) return '';
  return typeof part.text === 'string' ? part.text : typeof part.refusal === 'string' ? part.refusal : '';
}

/** The generated text of a whole response, for upstreams that report no usage. */
function outputTokens(raw: Buffer): number {
  const body = parsedJson(raw);
  if (!isRecord(body) || !Array.isArray(body.output)) return 0;
  let text = '';
  for (const item of body.output) {
    if (!isRecord(item)) continue;
    if (Array.isArray(item.content)) text += item.content.map(partText).join('');
    if (Array.isArray(item.summary)) text += item.summary.map(partText).join('');
    if (typeof item.arguments === 'string') text += item.arguments;
  }
  return countTextTokens(text);
}

const responsesBinding: SurfaceBinding = {
  translator: responsesSurface,
  streamError: responsesStreamError,
  // Channels whose upstream has the Responses API (OpenAI and Azure, domain/channel-types/registry.ts); every other one,
  // and one whose `compatible_response` flag is on, is translated to chat.
  passThrough: (channelType, _model, _adapter, channel) =>
    passesThrough(channelType, 'responses') && channel?.compatible_response !== true ? 'openai' : undefined,
};

export const responsesEndpoint: Endpoint = {
  path: '/v1/responses',
  body: 'json',
  output: 'json',
  stream: responsesStream,
  surface: responsesBinding,
  validate: checkResponsesRequest,
  estimatePrompt: (input, options) => estimateResponsesPromptTokens(input.fields, options),
  countPrompt: (input) => countResponsesPromptTokens(input.fields),
  usageOf: (body) => (isRecord(body) ? tokenUsage(body.usage) : undefined),
  countCompletion: outputTokens,
  isAnswer: (body) => isRecord(body) && Array.isArray(body.output),
};
