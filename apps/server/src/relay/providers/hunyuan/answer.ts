import { parseJson } from '@one-hub/contracts';
import { eventData, SseSplitter } from '../../transport/sse.js';
import { oneChoiceChunks, singleChoiceCompletion } from '../completion.js';
import type {
  AdapterContext,
  ChatChunk,
  ChatCompletion,
  ChatUsage,
  FinishReason,
  Json,
  StreamDecoder,
} from '../types.js';
import { isRecord, namedUsage, num, upstreamJson, upstreamObject } from '../values.js';
import { tencentError } from './errors.js';

/**
 * Hunyuan `ChatCompletions` answers → OpenAI. A whole answer is `{"Response": {Id, Created,
 * Choices: [{Message: {Role, Content, ReasoningContent?, ToolCalls?}, FinishReason}], Usage:
 * {PromptTokens, CompletionTokens, TotalTokens}}}`; a stream is server-sent events of the same
 * fields without the `Response` envelope, `Delta` in place of `Message`, the usage so far on every
 * event, and `ErrorMsg` when the service fails mid-way. A request refused before the stream
 * starts is answered (HTTP 200) by the JSON `Response.Error` document instead of events.
 */

type Choice = ChatCompletion['choices'][number];

export function finishFromHunyuan(reason: unknown, hasToolCalls: boolean): FinishReason | null {
  switch (reason) {
    case 'tool_calls':
      return 'tool_calls';
    case 'sensitive':
      return 'content_filter';
    case 'length':
      return 'length';
    case 'stop':
      return hasToolCalls ? 'tool_calls' : 'stop';
    default:
      return typeof reason === 'string' && reason ? 'stop' : null;
  }
}

export function usageFromHunyuan(usage: unknown): ChatUsage | undefined {
  return namedUsage(usage, { prompt: 'PromptTokens', completion: 'CompletionTokens', total: 'TotalTokens' });
}

/** `ErrorMsg` of a stream event ({Code, Msg}), as an Error to raise. */
function streamFailure(event: Json): Error | undefined {
  const failure = isRecord(event.ErrorMsg) ? event.ErrorMsg : undefined;
  if (!failure || (failure.Code === undefined && !failure.Msg)) return undefined;
  return new Error(
    `Hunyuan: ${typeof failure.Msg === 'string' ? failure.Msg : 'the answer failed'} (${String(failure.Code)})`,
  );
}

function toolCallsOf(calls: unknown): NonNullable<Choice['message']['tool_calls']> {
  if (!Array.isArray(calls)) return [];
  return calls.filter(isRecord).map((call, index) => {
    const fn = isRecord(call.Function) ? call.Function : {};
    return {
      id: typeof call.Id === 'string' && call.Id ? call.Id : `call_${index}`,
      type: 'function' as const,
      function: {
        name: typeof fn.Name === 'string' ? fn.Name : '',
        arguments: typeof fn.Arguments === 'string' ? fn.Arguments : JSON.stringify(fn.Arguments ?? {}),
      },
    };
  });
}

export function parseHunyuanChat(body: Buffer, context: AdapterContext): ChatCompletion {
  const parsed = upstreamObject(body, 'answer');
  const failure = tencentError(parsed);
  if (failure) throw new Error(`${failure.message} (${failure.code})`);
  const response = isRecord(parsed.Response) ? parsed.Response : undefined;
  if (!response || !Array.isArray(response.Choices)) throw new Error("the upstream's answer has no Response.Choices");
  const choice = response.Choices.find(isRecord) ?? {};
  const message = isRecord(choice.Message) ? choice.Message : {};
  const calls = toolCallsOf(message.ToolCalls);
  const text = typeof message.Content === 'string' ? message.Content : '';
  const reasoning =
    typeof message.ReasoningContent === 'string' && message.ReasoningContent ? [message.ReasoningContent] : [];
  return singleChoiceCompletion(
    context,
    context.upstreamModel,
    { content: text || (calls.length > 0 ? null : ''), thoughts: reasoning, calls },
    finishFromHunyuan(choice.FinishReason, calls.length > 0) ?? 'stop',
    usageFromHunyuan(response.Usage),
  );
}

/**
 * The stream's events → OpenAI chunks as they come. Tool calls arrive in pieces keyed by their
 * `Id` (name first, arguments after); each new id gets the next OpenAI index. The usage of the
 * last event is the total, sent once after the finish.
 */
export function hunyuanStreamDecoder(context: AdapterContext): StreamDecoder {
  const splitter = new SseSplitter();
  const { chunk, usageChunk } = oneChoiceChunks(context, context.upstreamModel);
  let started = false;
  let finished = false;
  let usage: ChatUsage | undefined;
  const toolIndex = new Map<string, number>();

  const deltaChunks = (delta: Json, out: ChatChunk[]) => {
    if (!started) {
      started = true;
      out.push(chunk({ role: 'assistant', content: '' }));
    }
    if (typeof delta.ReasoningContent === 'string' && delta.ReasoningContent) {
      out.push(chunk({ reasoning_content: delta.ReasoningContent }));
    }
    if (typeof delta.Content === 'string' && delta.Content) out.push(chunk({ content: delta.Content }));
    for (const call of Array.isArray(delta.ToolCalls) ? delta.ToolCalls.filter(isRecord) : []) {
      const fn = isRecord(call.Function) ? call.Function : {};
      const id = typeof call.Id === 'string' ? call.Id : `call_${num(call.Index)}`;
      const known = toolIndex.get(id);
      const index = known ?? toolIndex.size;
      toolIndex.set(id, index);
      const args = typeof fn.Arguments === 'string' ? fn.Arguments : '';
      const first = known === undefined;
      out.push(
        chunk({
          tool_calls: [
            first
              ? {
                  index,
                  id,
                  type: 'function',
                  function: { name: typeof fn.Name === 'string' ? fn.Name : '', arguments: args },
                }
              : { index, function: { arguments: args } },
          ],
        }),
      );
    }
  };

  const handle = (event: Json, out: ChatChunk[]) => {
    const failure = streamFailure(event) ?? errorOfDocument(event);
    if (failure) throw failure;
    usage = usageFromHunyuan(event.Usage) ?? usage;
    const choice = Array.isArray(event.Choices) ? event.Choices.find(isRecord) : undefined;
    if (!choice) return;
    if (isRecord(choice.Delta)) deltaChunks(choice.Delta, out);
    const finish = finishFromHunyuan(choice.FinishReason, toolIndex.size > 0);
    if (finish && !finished) {
      finished = true;
      out.push(chunk({}, finish));
    }
  };

  const read = (events: string[]) => {
    const out: ChatChunk[] = [];
    for (const text of events) {
      const data = eventData(text);
      if (data === '[DONE]' || data === '') continue;
      // A refusal before the stream starts is a JSON document, not events.
      const event = data === undefined ? parseJson(text) : upstreamJson(data, 'stream event');
      if (isRecord(event)) handle(event, out);
    }
    return out;
  };

  return {
    push: (bytes) => read(splitter.push(bytes)),
    end() {
      const out = read(splitter.finish());
      if (!started) throw new Error('the Hunyuan stream ended without an answer');
      if (started && !finished) out.push(chunk({}, toolIndex.size > 0 ? 'tool_calls' : 'stop'));
      if (usage) out.push(usageChunk(usage));
      return out;
    },
  };
}

function errorOfDocument(event: Json): Error | undefined {
  const failure = tencentError(event);
  return failure ? new Error(`${failure.message} (${failure.code})`) : undefined;
}
