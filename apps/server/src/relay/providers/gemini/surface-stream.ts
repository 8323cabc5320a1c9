import type { ChatChunk, ChatToolCall, ChatUsage, FinishReason, Json, StreamEncoder } from '../types.js';
import { signatureOf } from './common.js';
import { candidate, functionCallPart, type Part, usageToGemini } from './surface-answer.js';

/** Canonical chunks → Gemini `streamGenerateContent?alt=sse` events. */

/** A tool call's arguments are gathered until the call is complete; no call may outgrow this. */
const MAX_CALL_BYTES = 4 * 1024 * 1024;

interface PendingCall {
  index: number;
  id?: string;
  name: string;
  arguments: string;
  signature?: string;
}

export class GeminiStreamEncoder implements StreamEncoder {
  /** Per choice: the tool call whose arguments are still arriving (one at a time). */
  private readonly pending = new Map<number, PendingCall>();
  /** Per choice that finished: its Gemini reason and the parts that came with the finish. */
  private readonly finished = new Map<number, { reason: FinishReason; parts: Part[] }>();
  private readonly seen = new Set<number>();
  private usage: ChatUsage | undefined;
  private responseId: string | undefined;

  constructor(private readonly model: string) {}

  push(chunk: ChatChunk): string {
    if (chunk.usage) this.usage = chunk.usage;
    this.responseId ??= chunk.id;
    const candidates: Json[] = [];
    for (const choice of chunk.choices ?? []) {
      this.seen.add(choice.index);
      const parts: Part[] = [];
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) {
        this.flush(choice.index, parts);
        parts.push({ text: delta.reasoning_content, thought: true });
      }
      const text = delta.content || delta.refusal;
      if (text) {
        this.flush(choice.index, parts);
        parts.push({ text });
      }
      for (const call of delta.tool_calls ?? []) this.gather(choice.index, call, parts);
      if (choice.finish_reason) {
        this.flush(choice.index, parts);
        const earlier = this.finished.get(choice.index)?.parts ?? [];
        this.finished.set(choice.index, { reason: choice.finish_reason, parts: [...earlier, ...parts] });
      } else if (parts.length > 0) {
        candidates.push({ content: { role: 'model', parts }, index: choice.index });
      }
    }
    return candidates.length > 0 ? this.event(candidates) : '';
  }

  end(usage: ChatUsage | undefined): string {
    const indexes = new Set([...this.seen, ...this.finished.keys()]);
    if (indexes.size === 0) indexes.add(0);
    const candidates = [...indexes]
      .sort((a, b) => a - b)
      .map((index) => {
        const done = this.finished.get(index);
        const parts = done?.parts ?? [];
        this.flush(index, parts);
        return candidate(index, parts, done?.reason ?? 'stop');
      });
    return this.event(candidates, usage ?? this.usage);
  }

  private gather(
    choice: number,
    delta: NonNullable<ChatChunk['choices'][number]['delta']['tool_calls']>[number],
    parts: Part[],
  ): void {
    let call = this.pending.get(choice);
    if (call && call.index !== delta.index) {
      this.flush(choice, parts);
      call = undefined;
    }
    if (!call) {
      call = { index: delta.index, name: '', arguments: '' };
      this.pending.set(choice, call);
    }
    if (delta.id) call.id ??= delta.id;
    if (delta.function?.name) call.name ||= delta.function.name;
    if (delta.function?.arguments) {
      call.arguments += delta.function.arguments;
      if (call.arguments.length > MAX_CALL_BYTES) {
        throw new Error(`tool call ${call.name || delta.index} has arguments larger than the limit`);
      }
    }
    const signature = signatureOf(delta as unknown as ChatToolCall);
    if (signature) call.signature = signature;
  }

  /** The choice's pending tool call, complete now, as a functionCall part. */
  private flush(choice: number, parts: Part[]): void {
    const call = this.pending.get(choice);
    if (!call) return;
    this.pending.delete(choice);
    parts.push(functionCallPart(call));
  }

  private event(candidates: Json[], usage?: ChatUsage): string {
    const response: Json = { candidates };
    if (usage) response.usageMetadata = usageToGemini(usage);
    response.modelVersion = this.model;
    if (this.responseId) response.responseId = this.responseId;
    return `data: ${JSON.stringify(response)}\n\n`;
  }
}
