import { isRecord } from '@one-hub/contracts';
import { eventData, SseSplitter } from '../../relay/transport/sse.js';

/**
 * Reads what a span tells of an answer from the body the client is sent, whatever its wire
 * format (OpenAI chat and completions, Anthropic Messages, Gemini, Responses): the model that
 * answered, why it stopped, and (when content capture is on) its text, kept up to a limit so a
 * long stream costs no more memory than that.
 */

/** An event larger than this (an inline image) is skipped: it holds no model name or finish reason worth the memory. */
const MAX_EVENT_CHARS = 1024 * 1024;

export interface AnswerFacts {
  responseModel: string | undefined;
  finishReasons: string[];
  /** The generated text, cut at the limit; undefined when text is not captured. */
  text: string | undefined;
}

export class AnswerReader {
  private responseModel: string | undefined;
  private readonly finishReasons = new Set<string>();
  private text = '';
  private splitter: SseSplitter | undefined;

  /** `textLimit`: characters of generated text kept; 0 keeps none. */
  constructor(private readonly textLimit: number) {}

  whole(body: Buffer | string): void {
    try {
      this.read(JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
    } catch {
      // Not JSON (speech, a transcript as text): nothing to read.
    }
  }

  chunk(data: string | Uint8Array): void {
    this.splitter ??= new SseSplitter(MAX_EVENT_CHARS);
    let events: string[];
    try {
      events = this.splitter.push(typeof data === 'string' ? Buffer.from(data) : data);
    } catch {
      this.splitter = undefined;
      return;
    }
    for (const event of events) {
      const payload = eventData(event);
      if (payload === undefined || payload === '[DONE]') continue;
      try {
        this.read(JSON.parse(payload));
      } catch {
        // Not JSON: forwarded as it came, nothing to read.
      }
    }
  }

  facts(): AnswerFacts {
    return {
      responseModel: this.responseModel,
      finishReasons: [...this.finishReasons],
      text: this.textLimit > 0 ? this.text : undefined,
    };
  }

  private read(body: unknown): void {
    if (!isRecord(body)) return;
    this.responseModel ??= modelOf(body);
    const type = typeof body.type === 'string' ? body.type : undefined;
    // OpenAI chat and completions: choices, whole or as deltas.
    if (Array.isArray(body.choices)) {
      for (const choice of body.choices) {
        if (!isRecord(choice)) continue;
        this.reason(choice.finish_reason);
        const message = isRecord(choice.message) ? choice.message : isRecord(choice.delta) ? choice.delta : undefined;
        this.keep(message?.content ?? choice.text);
      }
    }
    // Anthropic Messages: a whole message, or message_start / content_block_delta / message_delta events.
    this.reason(body.stop_reason);
    if (isRecord(body.delta)) {
      this.reason(body.delta.stop_reason);
      if (type === 'content_block_delta') this.keep(body.delta.text);
    }
    if (Array.isArray(body.content)) for (const block of body.content) if (isRecord(block)) this.keep(block.text);
    // Gemini: candidates with parts.
    if (Array.isArray(body.candidates)) {
      for (const candidate of body.candidates) {
        if (!isRecord(candidate)) continue;
        this.reason(candidate.finishReason);
        const parts = isRecord(candidate.content) ? candidate.content.parts : undefined;
        if (Array.isArray(parts)) for (const part of parts) if (isRecord(part)) this.keep(part.text);
      }
    }
    this.readResponses(body, type);
  }

  /** OpenAI Responses: a whole response, or its text deltas and the closing response event. */
  private readResponses(body: Record<string, unknown>, type: string | undefined): void {
    if (type === 'response.output_text.delta') this.keep(body.delta);
    const response = body.object === 'response' ? body : isRecord(body.response) ? body.response : undefined;
    if (!response) return;
    if (response.status !== 'in_progress' && response.status !== 'queued') this.reason(response.status);
    if (body.object !== 'response' || !Array.isArray(body.output)) return;
    for (const item of body.output) {
      if (!isRecord(item) || !Array.isArray(item.content)) continue;
      for (const part of item.content) if (isRecord(part)) this.keep(part.text);
    }
  }

  private reason(value: unknown): void {
    if (typeof value === 'string' && value !== '') this.finishReasons.add(value);
  }

  private keep(value: unknown): void {
    if (typeof value !== 'string' || this.text.length >= this.textLimit) return;
    this.text += value.slice(0, this.textLimit - this.text.length);
  }
}

function modelOf(body: Record<string, unknown>): string | undefined {
  const model =
    body.model ??
    body.modelVersion ??
    (isRecord(body.message) ? body.message.model : undefined) ??
    (isRecord(body.response) ? body.response.model : undefined);
  return typeof model === 'string' && model !== '' ? model : undefined;
}
