import type { ServerResponse } from 'node:http';
import type { MockBehaviour, MockState } from './openai-types.js';

/**
 * The mock upstream's Responses API, images, speech, transcription and rerank endpoints, in
 * OpenAI's documented formats (rerank in Jina's/Cohere's). Returns false for other paths.
 */
export async function answerMedia(
  mock: MockState,
  path: string,
  body: Record<string, unknown>,
  response: ServerResponse,
): Promise<boolean> {
  const behaviour = mock.behaviour;
  const model = String(body.model ?? '');
  switch (path) {
    case '/v1/responses':
      if (body.stream === true) await streamResponse(mock, model, response);
      else sendJson(response, 200, responseObject(behaviour, model, 'completed'));
      return true;
    case '/v1/images/generations':
    case '/v1/images/edits':
    case '/v1/images/variations':
      sendJson(response, 200, images(behaviour, body));
      return true;
    case '/v1/audio/speech':
      await sendSpeech(behaviour, body, response);
      return true;
    case '/v1/audio/transcriptions':
    case '/v1/audio/translations':
      if (body.stream === 'true') await streamTranscript(behaviour, response);
      else transcript(behaviour, model, body, response);
      return true;
    case '/v1/rerank':
      sendJson(response, 200, rerank(behaviour, body));
      return true;
    default:
      return false;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const pause = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

function pieces(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  return Array.from({ length: count }, (_, index) => text.slice(index * size, (index + 1) * size)).filter(Boolean);
}

/** `usage` of the Responses, image and transcription APIs, built from the behaviour's counts. */
function tokenUsage(behaviour: MockBehaviour) {
  const { prompt_tokens, completion_tokens } = behaviour.usage;
  const cached = (behaviour.usage.prompt_tokens_details as { cached_tokens?: number } | undefined)?.cached_tokens;
  const reasoning = (behaviour.usage.completion_tokens_details as { reasoning_tokens?: number } | undefined)
    ?.reasoning_tokens;
  return {
    input_tokens: prompt_tokens,
    input_tokens_details: { cached_tokens: cached ?? 0 },
    output_tokens: completion_tokens,
    output_tokens_details: { reasoning_tokens: reasoning ?? 0 },
    total_tokens: prompt_tokens + completion_tokens,
  };
}

function responseObject(behaviour: MockBehaviour, model: string, status: 'in_progress' | 'completed') {
  const done = status === 'completed';
  return {
    id: 'resp_mock',
    object: 'response',
    created_at: 1_700_000_000,
    status,
    model,
    output: done
      ? [
          {
            type: 'message',
            id: 'msg_mock',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: behaviour.reply, annotations: [] }],
          },
        ]
      : [],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: done && !behaviour.omitUsage ? tokenUsage(behaviour) : null,
  };
}

async function streamResponse(mock: MockState, model: string, response: ServerResponse): Promise<void> {
  const behaviour = mock.behaviour;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>) =>
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
  const item = { item_id: 'msg_mock', output_index: 0, content_index: 0 };
  send('response.created', { response: responseObject(behaviour, model, 'in_progress') });
  for (const delta of pieces(behaviour.reply, behaviour.chunks)) {
    if (response.destroyed) return;
    send('response.output_text.delta', { ...item, delta, logprobs: [] });
    await pause(behaviour.chunkDelayMs);
  }
  send('response.output_text.done', { ...item, text: behaviour.reply, logprobs: [] });
  const completed = responseObject(behaviour, model, 'completed');
  if (behaviour.omitStreamUsage) completed.usage = null;
  send('response.completed', { response: completed });
  response.end();
}

function images(behaviour: MockBehaviour, body: Record<string, unknown>) {
  const model = String(body.model ?? 'dall-e-2');
  const count = Number(body.n ?? 1);
  const asUrl = body.response_format === 'url' && !model.startsWith('gpt-image');
  const data = Array.from({ length: count }, (_, index) =>
    asUrl
      ? { url: `https://images.example/${index}.png` }
      : { b64_json: Buffer.from(`png ${index}`).toString('base64') },
  );
  if (!model.startsWith('gpt-image') || behaviour.omitUsage) return { created: 1_700_000_000, data };
  const { prompt_tokens, completion_tokens } = behaviour.usage;
  return {
    created: 1_700_000_000,
    data,
    usage: {
      input_tokens: prompt_tokens,
      input_tokens_details: { text_tokens: prompt_tokens, image_tokens: 0 },
      output_tokens: completion_tokens,
      total_tokens: prompt_tokens + completion_tokens,
    },
  };
}

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

async function sendSpeech(behaviour: MockBehaviour, body: Record<string, unknown>, response: ServerResponse) {
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  response.writeHead(200, { 'content-type': AUDIO_TYPES[format] ?? 'audio/mpeg', 'transfer-encoding': 'chunked' });
  const size = Math.ceil(behaviour.speech.length / behaviour.chunks);
  for (let offset = 0; offset < behaviour.speech.length && !response.destroyed; offset += size) {
    response.write(behaviour.speech.subarray(offset, offset + size));
    await pause(behaviour.chunkDelayMs);
  }
  response.end();
}

function transcript(
  behaviour: MockBehaviour,
  model: string,
  body: Record<string, unknown>,
  response: ServerResponse,
): void {
  const format = typeof body.response_format === 'string' ? body.response_format : 'json';
  if (format === 'text' || format === 'srt' || format === 'vtt') {
    const text = format === 'text' ? behaviour.reply : `1\n00:00:00,000 --> 00:00:02,000\n${behaviour.reply}\n`;
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    response.end(text);
    return;
  }
  const tokens = model.includes('transcribe');
  const { prompt_tokens, completion_tokens } = behaviour.usage;
  const usage = behaviour.omitUsage
    ? undefined
    : tokens
      ? {
          type: 'tokens',
          input_tokens: prompt_tokens,
          input_token_details: { text_tokens: 0, audio_tokens: prompt_tokens },
          output_tokens: completion_tokens,
          total_tokens: prompt_tokens + completion_tokens,
        }
      : { type: 'duration', seconds: 3 };
  const verbose =
    format === 'verbose_json' ? { task: 'transcribe', language: 'english', duration: 3, segments: [] } : {};
  sendJson(response, 200, { ...verbose, text: behaviour.reply, ...(usage ? { usage } : {}) });
}

async function streamTranscript(behaviour: MockBehaviour, response: ServerResponse): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const delta of pieces(behaviour.reply, behaviour.chunks)) {
    response.write(`data: ${JSON.stringify({ type: 'transcript.text.delta', delta })}\n\n`);
    await pause(behaviour.chunkDelayMs);
  }
  const { prompt_tokens, completion_tokens } = behaviour.usage;
  const usage = behaviour.omitStreamUsage
    ? undefined
    : {
        type: 'tokens',
        input_tokens: prompt_tokens,
        output_tokens: completion_tokens,
        total_tokens: prompt_tokens + completion_tokens,
      };
  response.end(`data: ${JSON.stringify({ type: 'transcript.text.done', text: behaviour.reply, usage })}\n\n`);
}

function rerank(behaviour: MockBehaviour, body: Record<string, unknown>) {
  const documents = Array.isArray(body.documents) ? body.documents : [];
  const topN = typeof body.top_n === 'number' ? body.top_n : documents.length;
  const results = documents.map((_, index) => ({ index, relevance_score: 1 / (index + 1) })).slice(0, topN);
  const tokens = behaviour.usage.prompt_tokens;
  const usage =
    behaviour.rerankUsage === 'none'
      ? undefined
      : behaviour.rerankUsage === 'total_tokens'
        ? { total_tokens: tokens }
        : { prompt_tokens: tokens, total_tokens: tokens };
  return { id: 'rerank-mock', model: body.model, results, ...(usage ? { usage } : {}) };
}
