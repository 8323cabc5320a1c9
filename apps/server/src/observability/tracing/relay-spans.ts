import {
  type Attributes,
  type Context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { ATTR_ERROR_TYPE, ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions';
import { AppError } from '../../platform/errors.js';
import type {
  AnswerTap,
  Attempt,
  ChannelTryWatch,
  RelayObserver,
  RelayRecord,
  TriedChannel,
} from '../../relay/exchange/types.js';
import { AnswerReader } from './answer-reader.js';
import { operationOf, providerNameOf } from './genai-names.js';

/**
 * The relay's spans: one SERVER span per request, named as the GenAI conventions say
 * (`chat gpt-4o`), and under it one CLIENT span per channel tried. Parents are passed by hand
 * (no context manager: it would cost every request an async-hooks store).
 */

/** Characters of prompt or answer text one attribute holds when content capture is on. */
export const CONTENT_LIMIT = 4096;

// GenAI attributes are still incubating: OpenTelemetry asks users to copy their names, not import them.
const OPERATION = 'gen_ai.operation.name';
const PROVIDER = 'gen_ai.provider.name';
const REQUEST_MODEL = 'gen_ai.request.model';
const RESPONSE_MODEL = 'gen_ai.response.model';
const INPUT_TOKENS = 'gen_ai.usage.input_tokens';
const OUTPUT_TOKENS = 'gen_ai.usage.output_tokens';
const FINISH_REASONS = 'gen_ai.response.finish_reasons';
const INPUT_MESSAGES = 'gen_ai.input.messages';
const OUTPUT_MESSAGES = 'gen_ai.output.messages';

interface SpanRecord extends RelayRecord {
  span: Span;
  context: Context;
  operation: string;
  provider: string | undefined;
  reader: AnswerReader | undefined;
}

export interface RelaySpanOptions {
  tracer: Tracer;
  propagator: TextMapPropagator;
  captureContent: boolean;
}

export function relaySpans({ tracer, propagator, captureContent }: RelaySpanOptions): RelayObserver {
  const textLimit = captureContent ? CONTENT_LIMIT : 0;
  return {
    started(route, request) {
      const parent = request ? propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter) : ROOT_CONTEXT;
      const operation = operationOf(route);
      const attributes: Attributes = { [OPERATION]: operation, 'http.route': route };
      if (request) attributes['one_hub.request_id'] = request.id;
      const span = tracer.startSpan(operation, { kind: SpanKind.SERVER, attributes }, parent);
      const record: SpanRecord = {
        attempt: undefined,
        span,
        context: trace.setSpan(parent, span),
        operation,
        provider: undefined,
        reader: undefined,
      };
      return record;
    },
    finished(record, status, error) {
      const { span, attempt, reader } = record as SpanRecord;
      if (attempt) {
        span.updateName(`${(record as SpanRecord).operation} ${attempt.requestedModel ?? attempt.input.model}`);
        span.setAttributes(attemptAttributes(attempt, (record as SpanRecord).provider));
        if (captureContent) span.setAttribute(INPUT_MESSAGES, promptOf(attempt));
      }
      if (reader) span.setAttributes(answerAttributes(reader, captureContent));
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (error !== undefined || status >= 400) {
        const type = error instanceof AppError ? error.code : error instanceof Error ? error.name : String(status);
        span.setAttribute(ATTR_ERROR_TYPE, type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
      }
      span.end();
    },
    upstreamFailed() {
      // Each try's span tells its own failure (channelTry).
    },
    channelTry(record, channel) {
      const parent = record as SpanRecord;
      parent.provider = providerNameOf(channel.type);
      return tryWatch(tracer, parent, channel, textLimit);
    },
    watchLogBacklog() {
      // A metric, not a span.
    },
  };
}

function tryWatch(tracer: Tracer, parent: SpanRecord, channel: TriedChannel, textLimit: number): ChannelTryWatch {
  const attributes: Attributes = {
    [OPERATION]: parent.operation,
    [PROVIDER]: parent.provider,
    [REQUEST_MODEL]: channel.upstreamModel,
    'one_hub.channel_id': channel.id,
  };
  const span = tracer.startSpan(
    `${parent.operation} ${channel.upstreamModel}`,
    { kind: SpanKind.CLIENT, attributes },
    parent.context,
  );
  return {
    failed(failure) {
      if (failure.upstreamStatus) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, failure.upstreamStatus);
      span.setAttribute(ATTR_ERROR_TYPE, failure.class ?? failure.error.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.error.message });
      span.end();
    },
    answered(status): AnswerTap {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      // The request's span reads the answer that reached the client: the last try's.
      const reader = new AnswerReader(textLimit);
      parent.reader = reader;
      return reader;
    },
    ended(outcome) {
      if (outcome.failure !== undefined) {
        span.setAttribute(
          ATTR_ERROR_TYPE,
          outcome.failure instanceof AppError ? outcome.failure.code : 'broken_stream',
        );
        span.setStatus({ code: SpanStatusCode.ERROR, message: 'the answer broke off' });
      }
      if (outcome.clientGone) span.setAttribute('one_hub.client_gone', true);
      span.end();
    },
  };
}

function attemptAttributes(attempt: Attempt, provider: string | undefined): Attributes {
  const channelId = attempt.channelsTried.at(-1);
  return {
    [REQUEST_MODEL]: attempt.requestedModel ?? attempt.input.model,
    [PROVIDER]: provider,
    [INPUT_TOKENS]: attempt.usage?.prompt_tokens,
    [OUTPUT_TOKENS]: attempt.usage?.completion_tokens,
    'one_hub.user_id': attempt.caller.user.id,
    'one_hub.token_id': attempt.caller.token.id,
    'one_hub.channel_id': channelId,
    'one_hub.quota': attempt.charged,
  };
}

function answerAttributes(reader: AnswerReader, captureContent: boolean): Attributes {
  const facts = reader.facts();
  const attributes: Attributes = {
    [RESPONSE_MODEL]: facts.responseModel,
    [FINISH_REASONS]: facts.finishReasons.length > 0 ? facts.finishReasons : undefined,
  };
  if (captureContent && facts.text !== undefined) {
    const parts = [{ type: 'text', content: facts.text }];
    const message = { role: 'assistant', parts, finish_reason: facts.finishReasons[0] ?? '' };
    attributes[OUTPUT_MESSAGES] = JSON.stringify([message]);
  }
  return attributes;
}

/** The client's prompt as it sent it (messages, input, contents or prompt), cut at the limit. */
function promptOf(attempt: Attempt): string {
  const { fields } = attempt.input;
  const record = fields && typeof fields === 'object' && !Array.isArray(fields) ? fields : {};
  const prompt = record.messages ?? record.input ?? record.contents ?? record.prompt ?? null;
  const text = JSON.stringify(prompt) ?? '';
  return text.length > CONTENT_LIMIT ? `${text.slice(0, CONTENT_LIMIT)}…` : text;
}
