import { ownCopy } from '../../platform/own-copy.js';
import { countChatPromptTokens, countTextTokens, TextTally } from '../billing/metering.js';
import type { Usage } from '../billing/quota.js';
import type { AdapterContext, ChatAdapter, ChatRequest, Json, NativeStreamMeter } from '../providers/types.js';
import { eventStreamAnswer, fetchAnswer, openAnswer } from './call.js';
import { parsedJson } from './endpoint.js';
import {
  adapterFailure,
  billingUsage,
  built,
  chatRequestOf,
  completionText,
  contextFor,
  JSON_TYPE,
  surfaceOf,
} from './translated.js';
import type { Exchange, NativePassThrough } from './types.js';
import { isFailure, malformedAnswer } from './upstream-errors.js';

/**
 * A chat whose surface is the channel's own format (Anthropic to Anthropic, Gemini to Vertex):
 * the bytes go through but for the model, and usage is read on the way.
 */

const exchanges = new Map<NativePassThrough, Exchange>();

/** The exchange of one native pass-through; made once per pass-through. */
export function nativeExchange(native: NativePassThrough): Exchange {
  let exchange = exchanges.get(native);
  if (!exchange) {
    exchange = passThroughOf(native);
    exchanges.set(native, exchange);
  }
  return exchange;
}

function passThroughOf(native: NativePassThrough): Exchange {
  return async (call) => {
    const { attempt, adapter } = call;
    const surface = surfaceOf(call);
    const chat = chatRequestOf(attempt.input, surface);
    const context = contextFor(call);
    const sent = await built(() => native.prepare(attempt.input.fields, context, call.request, adapter), call);
    if (isFailure(sent)) return sent;
    if (!attempt.input.stream) {
      const answer = await fetchAnswer(call.deps, sent, adapterFailure(call));
      if (isFailure(answer)) return answer;
      const parsed = parsedJson(answer.body);
      if (typeof parsed !== 'object' || parsed === null) return malformedAnswer('the body is not JSON');
      const usage = billingUsage(native.usageOf(parsed as Json)) ?? {
        prompt_tokens: countChatPromptTokens(chat),
        completion_tokens: countTextTokens(safeCompletionText(adapter, answer.body, context)),
      };
      const contentType = answer.headers['content-type'];
      const type = typeof contentType === 'string' ? contentType : JSON_TYPE;
      return { kind: 'whole', status: 200, contentType: type, body: answer.body, usage };
    }
    const upstream = await openAnswer(call.deps, sent, adapterFailure(call));
    if (isFailure(upstream)) return upstream;
    const tally = new TextTally();
    const meter = native.meter((text) => tally.push(text));
    const reframer = native.reframe?.();
    const metered = (text: string) => {
      if (text) meter.push(Buffer.from(text));
      return text;
    };
    return eventStreamAnswer(upstream, {
      chunk(bytes, client) {
        if (!reframer) {
          meter.push(bytes);
          return client.write(bytes);
        }
        const text = metered(reframer.push(bytes));
        return text.length > 0 ? client.write(text) : undefined;
      },
      end: () => (reframer ? metered(reframer.end()) : ''),
      fail: surface.streamError,
      usage: () => nativeStreamUsage(meter, chat, tally),
    });
  };
}

/**
 * What a passed-through stream bills: the upstream's final counts when they came; when the stream
 * ended before them (the client left, the upstream broke off), the counts seen so far with at
 * least the tokens of the text that got through; with no counts at all, our own count.
 */
function nativeStreamUsage(meter: NativeStreamMeter, chat: ChatRequest, tally: TextTally): Usage {
  const reported = billingUsage(meter.usage());
  if (reported && meter.finished()) return reported;
  const produced = tally.total();
  if (!reported) return { prompt_tokens: countChatPromptTokens(chat), completion_tokens: produced };
  const counted = ownCopy(reported);
  counted.completion_tokens = Math.max(reported.completion_tokens, produced);
  return counted;
}

function safeCompletionText(adapter: ChatAdapter, body: Buffer, context: AdapterContext): string {
  try {
    return completionText(adapter.parseChat(body, context));
  } catch {
    return '';
  }
}
