import { createServer, type IncomingMessage } from 'node:http';
import { type ListeningMock, listenMock, pieces, sendJson } from '../../mocks/mock-server.js';

/**
 * A stand-in for the Gemini API (generativelanguage.googleapis.com) that speaks its documented
 * wire format: `POST /{version}/models/{model}:generateContent` and
 * `:streamGenerateContent?alt=sse` with the key in `x-goog-api-key`, and the OpenAI-compatible
 * endpoint `POST /{version}/openai/chat/completions` with the key as a bearer token. Usage
 * metadata carries per-modality details (`promptTokensDetails`, `candidatesTokensDetails`); a
 * stream can be made to end before its final event (no finish reason, no output count).
 */
export interface GeminiBehaviour {
  key: string;
  reply: string;
  /** Stream: the reply in this many events. */
  chunks: number;
  /** Per-modality counts of the prompt and of the answer. */
  prompt: { TEXT: number; IMAGE?: number; AUDIO?: number };
  output: { TEXT: number; IMAGE?: number; AUDIO?: number };
  /** Stream: end cleanly after this many events, before the one with the finish reason and final counts. */
  cutAfter?: number;
}

export interface GeminiRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type GeminiUpstream = ListeningMock<GeminiBehaviour, GeminiRequest>;

const defaults = (): GeminiBehaviour => ({
  key: 'AIza-gemini-mock-key',
  reply: 'The quick brown fox jumps over the lazy dog, again and again and again.',
  chunks: 4,
  prompt: { TEXT: 12 },
  output: { TEXT: 17 },
});

const sum = (counts: Record<string, number | undefined>) =>
  Object.values(counts).reduce<number>((total, value) => total + (value ?? 0), 0);
const details = (counts: Record<string, number | undefined>) =>
  Object.entries(counts)
    .filter(([, count]) => (count ?? 0) > 0)
    .map(([modality, tokenCount]) => ({ modality, tokenCount }));

function usageMetadata(behaviour: GeminiBehaviour, final: boolean) {
  const prompt = sum(behaviour.prompt);
  const promptPart = { promptTokenCount: prompt, promptTokensDetails: details(behaviour.prompt) };
  // As Gemini streams: the counts so far, the output's only in the final event.
  if (!final) return { ...promptPart, totalTokenCount: prompt };
  const output = sum(behaviour.output);
  return {
    ...promptPart,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output,
    candidatesTokensDetails: details(behaviour.output),
  };
}

export async function startGeminiUpstream(): Promise<GeminiUpstream> {
  const state = { behaviour: defaults(), received: [] as GeminiRequest[] };
  const server = createServer(async (request, response) => {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const path = request.url ?? '/';
    state.received.push({ method: request.method ?? '', path, headers: request.headers, body });
    const { behaviour } = state;

    if (/^\/v1(?:beta|alpha)?\/openai\/chat\/completions$/.test(path)) {
      if (request.headers.authorization !== `Bearer ${behaviour.key}`) {
        sendJson(response, 401, [{ error: { code: 401, message: 'API key not valid', status: 'UNAUTHENTICATED' } }]);
        return;
      }
      const usage = { prompt_tokens: sum(behaviour.prompt), completion_tokens: sum(behaviour.output) };
      const total = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
      if (body.stream !== true) {
        sendJson(response, 200, {
          id: 'gemini-openai-1',
          object: 'chat.completion',
          created: 1_750_000_000,
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: behaviour.reply }, finish_reason: 'stop' }],
          usage: total,
        });
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: unknown, finish: string | null, extra = {}) =>
        `data: ${JSON.stringify({ id: 'gemini-openai-1', object: 'chat.completion.chunk', created: 1_750_000_000, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
      for (const piece of pieces(behaviour.reply, behaviour.chunks)) response.write(chunk({ content: piece }, null));
      response.write(chunk({}, 'stop', { usage: total }));
      response.end('data: [DONE]\n\n');
      return;
    }

    const target = /^\/v1(?:beta|alpha)?\/models\/([^:]+):(generateContent|streamGenerateContent)/.exec(path);
    if (!target) {
      sendJson(response, 404, { error: { code: 404, message: `no route ${path}`, status: 'NOT_FOUND' } });
      return;
    }
    if (request.headers['x-goog-api-key'] !== behaviour.key) {
      sendJson(response, 400, {
        error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
      });
      return;
    }
    const candidate = (textPart: string, finishReason?: string) => ({
      content: { role: 'model', parts: [{ text: textPart }] },
      index: 0,
      ...(finishReason ? { finishReason } : {}),
    });
    if (target[2] === 'generateContent') {
      sendJson(response, 200, {
        candidates: [candidate(behaviour.reply, 'STOP')],
        usageMetadata: usageMetadata(behaviour, true),
        modelVersion: target[1],
      });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const events = pieces(behaviour.reply, behaviour.chunks);
    for (const [index, piece] of events.entries()) {
      if (behaviour.cutAfter !== undefined && index >= behaviour.cutAfter) break;
      const last = index === events.length - 1;
      const event = {
        candidates: [candidate(piece, last ? 'STOP' : undefined)],
        usageMetadata: usageMetadata(behaviour, last),
        modelVersion: target[1],
      };
      response.write(`data: ${JSON.stringify(event)}\r\n\r\n`);
    }
    response.end();
  });
  return listenMock(server, state, defaults);
}
