import { isRecord } from '@one-hub/contracts';

/** The chat-completions wire format, as much of it as the playground reads. */
export interface ChatMessageInput {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatRequest {
  key: string;
  model: string;
  messages: ChatMessageInput[];
  temperature: number;
  signal: AbortSignal;
}

export interface ChatStreamHandlers {
  onDelta(text: string): void;
  onUsage(usage: ChatUsage): void;
}

/** A failure the server (or the upstream behind it) reported, with its own message. */
export class ChatError extends Error {
  readonly status: number;

  constructor(message: string, status = 0) {
    super(message);
    this.name = 'ChatError';
    this.status = status;
  }
}

/** The message of an OpenAI error envelope `{error: {message}}` (or a bare `{message}`), if any. */
export function errorMessageOf(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const { error } = body;
  if (isRecord(error) && typeof error.message === 'string' && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  if (typeof body.message === 'string' && body.message) return body.message;
  return undefined;
}

function usageOf(value: unknown): ChatUsage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = Number(value.prompt_tokens ?? 0);
  const completion = Number(value.completion_tokens ?? 0);
  if (!Number.isFinite(prompt) || !Number.isFinite(completion)) return undefined;
  const total = Number(value.total_tokens ?? prompt + completion);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total };
}

function deltaText(chunk: Record<string, unknown>): string {
  const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
  let text = '';
  for (const choice of choices) {
    if (!isRecord(choice)) continue;
    const part = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
    if (part && typeof part.content === 'string') text += part.content;
  }
  return text;
}

/** Applies one decoded chunk (a stream event, or a whole non-streamed answer) to the handlers. */
export function applyChunk(chunk: unknown, handlers: ChatStreamHandlers): void {
  if (!isRecord(chunk)) return;
  const failure = errorMessageOf(chunk.error === undefined ? undefined : chunk);
  if (failure) throw new ChatError(failure);
  const text = deltaText(chunk);
  if (text) handlers.onDelta(text);
  const usage = usageOf(chunk.usage);
  if (usage) handlers.onUsage(usage);
}

/**
 * Splits server-sent events into `data:` payloads, however the bytes were cut into pieces.
 * Comment lines (`: ping`) and other fields are skipped.
 */
export class SseLineReader {
  private buffer = '';

  /** Feeds text; returns the data payloads of the lines completed by it. */
  push(text: string): string[] {
    this.buffer += text;
    const lines = this.buffer.split(/\r?\n/);
    this.buffer = lines.pop() ?? '';
    return lines.flatMap((line) => this.payloadOf(line));
  }

  /** The payload of a last line that had no line break after it. */
  finish(): string[] {
    const rest = this.buffer;
    this.buffer = '';
    return this.payloadOf(rest);
  }

  private payloadOf(line: string): string[] {
    if (!line.startsWith('data:')) return [];
    return [line.slice(5).replace(/^ /, '')];
  }
}

/** Handles one `data:` payload; returns true at `[DONE]`. */
function handlePayload(payload: string, handlers: ChatStreamHandlers): boolean {
  const trimmed = payload.trim();
  if (!trimmed) return false;
  if (trimmed === '[DONE]') return true;
  let chunk: unknown;
  try {
    chunk = JSON.parse(trimmed);
  } catch {
    // A stream that breaks off mid-way may say why in plain text.
    throw new ChatError(trimmed);
  }
  applyChunk(chunk, handlers);
  return false;
}

async function failureOf(response: Response): Promise<ChatError> {
  const text = await response.text().catch(() => '');
  let message: string | undefined;
  try {
    message = errorMessageOf(JSON.parse(text));
  } catch {
    message = text.trim().slice(0, 500) || undefined;
  }
  return new ChatError(message || `${response.status} ${response.statusText}`.trim(), response.status);
}

/**
 * Sends a streamed chat completion to the relay on this origin and reports each piece of text as
 * it arrives. Rejects with ChatError for failures the server reported, and with the AbortError of
 * `signal` when the caller stops it.
 */
export async function streamChat(request: ChatRequest, handlers: ChatStreamHandlers): Promise<void> {
  const response = await fetch('/v1/chat/completions', {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${request.key}`,
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
    },
    body: JSON.stringify({
      model: request.model,
      messages: request.messages,
      temperature: request.temperature,
      stream: true,
      stream_options: { include_usage: true },
    }),
    signal: request.signal,
  });
  if (!response.ok) throw await failureOf(response);

  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream') || !response.body) {
    // The server answered in one piece after all.
    applyChunk(await response.json().catch(() => null), handlers);
    return;
  }

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const lines = new SseLineReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      const payloads = done ? lines.finish() : lines.push(value);
      for (const payload of payloads) {
        if (handlePayload(payload, handlers)) return;
      }
      if (done) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
