import { AppError } from '../../platform/errors.js';
import { prepareRequest } from '../providers/openai/request.js';
import type { StreamedResponse } from '../transport/executor.js';
import { bytesRelay } from '../transport/respond.js';
import { eventStreamAnswer, type FailureReader, fetchAnswer, openAnswer, readRest } from './call.js';
import { parsedJson } from './endpoint.js';
import { eventStreamRelay } from './event-stream.js';
import type { Answer, Exchange, ExchangeCall, StreamAnswer, StreamFormat } from './types.js';
import {
  buildFailure,
  classifyUpstreamError,
  isFailure,
  malformedAnswer,
  type UpstreamFailure,
} from './upstream-errors.js';

/**
 * The OpenAI pass-through: a channel that speaks the endpoint's own format (OpenAI and every
 * compatible vendor, Azure's addresses included) gets the client's body with the channel's model
 * and parameters, and the answer goes back as it came. Usage is read from the answer, or counted.
 */

/** Disable keywords are searched only in answers to requests the gateway wrote (`trustedKeywords`). */
const openAiFailure = (status: number, body: Buffer) => classifyUpstreamError(status, body.toString('utf8'));
const failureReaderOf = (call: ExchangeCall): FailureReader => {
  const keywords = call.trustedKeywords;
  return keywords ? (status, body) => classifyUpstreamError(status, body.toString('utf8'), keywords) : openAiFailure;
};

export const openAiPassThrough: Exchange = async (call) => {
  const { deps, endpoint, attempt, channel } = call;
  const input = attempt.input;
  let prepared: Awaited<ReturnType<typeof prepareRequest>>;
  try {
    const preparing = prepareRequest(channel, deps.baseUrlOf(channel), endpoint.path, input);
    prepared = preparing instanceof Promise ? await preparing : preparing;
  } catch (error) {
    return buildFailure(error);
  }
  if (!prepared) return notServed(channel, endpoint.path);
  const sent = { url: prepared.url, headers: prepared.headers, body: prepared.body, proxy: channel.proxy };
  const format = input.stream ? endpoint.stream : undefined;
  const failureOf = failureReaderOf(call);
  if (!format && endpoint.output === 'json') {
    const answer = await fetchAnswer(deps, sent, failureOf);
    if (isFailure(answer)) return answer;
    const parsed = parsedJson(answer.body);
    // A 2xx that is not the endpoint's answer (a proxy's HTML page, another API's JSON) is the
    // channel's failure: nothing is sent or charged, and another channel may answer properly.
    if (endpoint.isAnswer && !endpoint.isAnswer(parsed)) {
      return malformedAnswer(parsed === undefined ? 'the body is not JSON' : `it is not a ${endpoint.path} answer`);
    }
    const header = answer.headers['content-type'];
    const contentType = typeof header === 'string' ? header : 'application/json';
    const usage = endpoint.usageOf(parsed) ?? {
      prompt_tokens: endpoint.countPrompt(input, call.billedModel),
      completion_tokens: endpoint.countCompletion?.(answer.body, contentType) ?? 0,
    };
    return { kind: 'whole', status: answer.status, contentType, body: answer.body, usage };
  }
  const upstream = await openAnswer(deps, sent, failureOf);
  if (isFailure(upstream)) return upstream;
  return format ? passedEvents(call, upstream, format) : bytesAnswer(call, upstream);
};

/** The channel turned this endpoint off (a custom channel's `disable`d relay mode); another channel may serve it. */
function notServed(channel: ExchangeCall['channel'], path: string): UpstreamFailure {
  const error = new AppError('bad_request', `channel #${channel.id} (${channel.name}) cannot serve ${path}`, {
    details: { code: 'unsupported_endpoint' },
  });
  return { error, retry: true, disable: false, coolDown: false };
}

/** Server-sent events, billed on the usage event or, failing that, on what was counted. */
async function passedEvents(
  call: ExchangeCall,
  upstream: StreamedResponse,
  format: StreamFormat,
): Promise<Answer | UpstreamFailure> {
  const { endpoint, attempt } = call;
  const refused = await notAnEventStream(upstream);
  if (refused) return refused;
  const countPrompt = () => endpoint.countPrompt(attempt.input, call.billedModel);
  return eventStreamAnswer(upstream, eventStreamRelay(format, attempt.input, countPrompt));
}

/**
 * JSON or HTML where server-sent events were asked for (vendors differ on the rest, or send none)
 * is the channel's failure, not a 200 stream of garbage the client is charged for; another
 * channel may answer properly.
 */
async function notAnEventStream(upstream: StreamedResponse): Promise<UpstreamFailure | undefined> {
  const header = upstream.headers['content-type'];
  const contentType = (Array.isArray(header) ? header[0] : header)?.toLowerCase() ?? '';
  if (!contentType.includes('json') && !contentType.includes('html')) return undefined;
  const text = await readRest(upstream);
  const parsed = parsedJson(text);
  if (parsed && typeof parsed === 'object' && 'error' in parsed) return openAiFailure(502, text);
  return malformedAnswer('a stream was asked for and the answer is not an event stream');
}

/** Binary bodies (speech) are billed on the request alone, whatever happens to the transfer. */
function bytesAnswer(call: ExchangeCall, upstream: StreamedResponse): StreamAnswer {
  const { endpoint, attempt } = call;
  const contentType = upstream.headers['content-type'];
  const usage = { prompt_tokens: endpoint.countPrompt(attempt.input, call.billedModel), completion_tokens: 0 };
  return {
    kind: 'stream',
    upstream,
    status: upstream.status,
    headers: { 'content-type': typeof contentType === 'string' ? contentType : 'application/octet-stream' },
    relay: { chunk: bytesRelay.chunk, end: bytesRelay.end, fail: bytesRelay.fail, usage: () => usage },
  };
}
