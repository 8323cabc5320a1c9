import { eventData, SseSplitter } from '../../transport/sse.js';
import type {
  AdapterContext,
  ChatChunk,
  ChatChunkToolCall,
  ChatCompletion,
  ChatToolCall,
  ChatUsage,
  FinishReason,
  Json,
  StreamDecoder,
} from '../types.js';
import { upstreamJson } from '../values.js';
import {
  finishFromGemini,
  type GeminiToolCall,
  isRecord,
  MAX_GEMINI_EVENT_CHARS,
  maskSecrets,
  str,
  usageFromGemini,
} from './common.js';
import { splitModel } from './request.js';

/** Gemini answers, whole and streamed, in the canonical chat shape. */

// ---- answers ----

/** Gemini text that is not JSON is shown masked: a proxy may echo the request, key included. */
export const parseGeminiJson = (text: string, what: string): unknown =>
  upstreamJson(text, what, (shown) => maskSecrets(shown.slice(0, 200)));

function errorMessageOf(value: unknown): string | undefined {
  const error = isRecord(value) ? value.error : undefined;
  if (!isRecord(error)) return undefined;
  const status = str(error.status);
  const message = str(error.message) ?? 'unknown error';
  return maskSecrets(status ? `${status}: ${message}` : message);
}

/** Text for the non-text parts worth showing: code execution and generated images. */
function partText(part: Json): string | undefined {
  if (typeof part.text === 'string') return part.text;
  const code = part.executableCode;
  if (isRecord(code) && typeof code.code === 'string') {
    return `\n\`\`\`${String(code.language ?? '').toLowerCase() || 'python'}\n${code.code}\n\`\`\`\n`;
  }
  const result = part.codeExecutionResult;
  if (isRecord(result)) return `\n\`\`\`output\n${str(result.output) ?? ''}\n\`\`\`\n`;
  const inline = part.inlineData;
  if (isRecord(inline) && typeof inline.data === 'string' && str(inline.mimeType)?.startsWith('image/')) {
    return `![image](data:${inline.mimeType};base64,${inline.data})`;
  }
  return undefined;
}

function toolCallOf(part: Json, id: string): GeminiToolCall | undefined {
  const call = part.functionCall;
  if (!isRecord(call) || typeof call.name !== 'string') return undefined;
  const toolCall: GeminiToolCall = {
    id: str(call.id) || id,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(isRecord(call.args) ? call.args : {}) },
  };
  const signature = str(part.thoughtSignature);
  if (signature) toolCall.extra_content = { google: { thought_signature: signature } };
  return toolCall;
}

function callIdPrefix(responseId: string): string {
  return `call_${responseId.replace(/^chatcmpl-/, '')}`;
}

function modelOf(body: Json, context: AdapterContext): string {
  return str(body.modelVersion) || splitModel(context.upstreamModel).model;
}

/** A whole `GenerateContentResponse` → a chat completion. */
export function parseGeminiAnswer(parsed: unknown, context: AdapterContext): ChatCompletion {
  if (!isRecord(parsed)) throw new Error('Gemini answer is not a JSON object');
  const failure = errorMessageOf(parsed);
  if (failure) throw new Error(failure);
  const candidates = Array.isArray(parsed.candidates) ? parsed.candidates.filter(isRecord) : [];
  const choices: ChatCompletion['choices'] = [];
  const prefix = callIdPrefix(context.responseId);
  let callCount = 0;
  candidates.forEach((candidate, position) => {
    const content = isRecord(candidate.content) ? candidate.content : {};
    const parts = Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
    let text = '';
    let reasoning = '';
    const toolCalls: ChatToolCall[] = [];
    for (const part of parts) {
      const call = toolCallOf(part, `${prefix}_${callCount}`);
      if (call) {
        toolCalls.push(call);
        callCount += 1;
        continue;
      }
      const piece = partText(part);
      if (piece === undefined) continue;
      if (part.thought === true) reasoning += piece;
      else text += piece;
    }
    const message: ChatCompletion['choices'][number]['message'] = {
      role: 'assistant',
      content: text || (toolCalls.length > 0 ? null : ''),
    };
    if (reasoning) message.reasoning_content = reasoning;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    choices.push({
      index: typeof candidate.index === 'number' ? candidate.index : position,
      message,
      finish_reason: finishFromGemini(str(candidate.finishReason) ?? 'STOP', toolCalls.length > 0),
    });
  });
  if (choices.length === 0) {
    const feedback = isRecord(parsed.promptFeedback) ? parsed.promptFeedback : undefined;
    if (!feedback?.blockReason) throw new Error('Gemini answer has no candidates');
    // The prompt itself was blocked: an empty, filtered answer.
    choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' });
  }
  const completion: ChatCompletion = {
    id: context.responseId,
    object: 'chat.completion',
    created: context.now,
    model: modelOf(parsed, context),
    choices,
  };
  const usage = usageFromGemini(parsed.usageMetadata);
  if (usage) completion.usage = usage;
  return completion;
}

// ---- stream ----

export class GeminiStreamDecoder implements StreamDecoder {
  private readonly splitter = new SseSplitter(MAX_GEMINI_EVENT_CHARS);
  private readonly started = new Set<number>();
  private readonly finished = new Set<number>();
  /** Per choice: how many tool calls so far (the next call's index), and whether any. */
  private readonly callCounts = new Map<number, number>();
  private callTotal = 0;
  private usage: ChatUsage | undefined;
  private model: string;
  private readonly prefix: string;

  constructor(private readonly context: AdapterContext) {
    this.model = splitModel(context.upstreamModel).model;
    this.prefix = callIdPrefix(context.responseId);
  }

  push(bytes: Buffer): ChatChunk[] {
    return this.handle(this.splitter.push(bytes));
  }

  end(): ChatChunk[] {
    let chunks: ChatChunk[];
    try {
      chunks = this.handle(this.splitter.finish());
    } catch (error) {
      // What is left without its blank line is normally one whole event; if not, the stream was cut.
      throw new Error(`Gemini stream ended inside an event (${(error as Error).message})`);
    }
    // Every event carries the counts so far, the output's only in the last: a stream that ended
    // before a choice said why it stopped reports a partial count, which is not passed on, so the
    // relay counts the text that came through instead.
    const complete = [...this.started].every((index) => this.finished.has(index));
    // A choice that never said why it stopped: the stream ended, so it stopped.
    for (const index of this.started) {
      if (!this.finished.has(index)) chunks.push(this.finishChunk(index, this.stopFor(index, 'STOP')));
    }
    if (this.usage && complete) chunks.push({ ...this.base(), choices: [], usage: this.usage });
    return chunks;
  }

  private base(): Omit<ChatChunk, 'choices'> {
    return {
      id: this.context.responseId,
      object: 'chat.completion.chunk',
      created: this.context.now,
      model: this.model,
    };
  }

  private stopFor(index: number, reason: string): FinishReason {
    return finishFromGemini(reason, (this.callCounts.get(index) ?? 0) > 0);
  }

  private finishChunk(index: number, reason: FinishReason): ChatChunk {
    this.finished.add(index);
    return { ...this.base(), choices: [{ index, delta: {}, finish_reason: reason }] };
  }

  private handle(events: string[]): ChatChunk[] {
    const chunks: ChatChunk[] = [];
    for (const event of events) {
      const data = eventData(event);
      if (data === undefined || data.trim() === '' || data === '[DONE]') continue;
      const parsed = parseGeminiJson(data, 'stream event');
      if (!isRecord(parsed)) throw new Error('Gemini stream event is not a JSON object');
      const failure = errorMessageOf(parsed);
      if (failure) throw new Error(failure);
      this.event(parsed, chunks);
    }
    return chunks;
  }

  private event(response: Json, chunks: ChatChunk[]): void {
    if (typeof response.modelVersion === 'string' && response.modelVersion) this.model = response.modelVersion;
    const usage = usageFromGemini(response.usageMetadata);
    if (usage) this.usage = usage;
    const candidates = Array.isArray(response.candidates) ? response.candidates.filter(isRecord) : [];
    const finishes: ChatChunk[] = [];
    const choices: ChatChunk['choices'] = [];
    candidates.forEach((candidate, position) => {
      const index = typeof candidate.index === 'number' ? candidate.index : position;
      const content = isRecord(candidate.content) ? candidate.content : {};
      const parts = Array.isArray(content.parts) ? content.parts.filter(isRecord) : [];
      const delta: ChatChunk['choices'][number]['delta'] = {};
      let text = '';
      let reasoning = '';
      const calls: ChatChunkToolCall[] = [];
      for (const part of parts) {
        const callIndex = this.callCounts.get(index) ?? 0;
        const call = toolCallOf(part, `${this.prefix}_${this.callTotal}`);
        if (call) {
          // Gemini sends each function call whole: one delta carries all of its arguments.
          const chunkCall: ChatChunkToolCall & { extra_content?: GeminiToolCall['extra_content'] } = {
            index: callIndex,
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: call.function.arguments },
          };
          if (call.extra_content) chunkCall.extra_content = call.extra_content;
          calls.push(chunkCall);
          this.callCounts.set(index, callIndex + 1);
          this.callTotal += 1;
          continue;
        }
        const piece = partText(part);
        if (!piece) continue;
        if (part.thought === true) reasoning += piece;
        else text += piece;
      }
      if (reasoning) delta.reasoning_content = reasoning;
      if (text) delta.content = text;
      if (calls.length > 0) delta.tool_calls = calls;
      const reason = str(candidate.finishReason);
      if (Object.keys(delta).length > 0 || (reason && !this.started.has(index))) {
        if (!this.started.has(index)) {
          this.started.add(index);
          delta.role = 'assistant';
          if (delta.content === undefined && !delta.tool_calls) delta.content = '';
        }
        choices.push({ index, delta, finish_reason: null });
      }
      if (reason && !this.finished.has(index)) finishes.push(this.finishChunk(index, this.stopFor(index, reason)));
    });
    const feedback = isRecord(response.promptFeedback) ? response.promptFeedback : undefined;
    if (candidates.length === 0 && feedback?.blockReason && !this.finished.has(0)) {
      // The prompt was blocked before any candidate: an empty, filtered answer.
      if (!this.started.has(0)) {
        this.started.add(0);
        choices.push({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null });
      }
      finishes.push(this.finishChunk(0, 'content_filter'));
    }
    if (choices.length > 0) chunks.push({ ...this.base(), choices });
    chunks.push(...finishes);
  }
}
