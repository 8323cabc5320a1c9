import { fieldError } from '../../../platform/errors.js';
import type { AdapterContext, ChatCompletion, ChatMessage, ChatRequest, ChatUsage, Json } from '../types.js';
import { namedUsage } from '../values.js';

/**
 * Chat with Replicate's language models (meta/meta-llama-3-70b-instruct and the like), whose input
 * is a prompt rather than messages: system messages become `system_prompt`, a single user message
 * is the prompt itself, and a longer conversation is written out turn by turn ("User: …",
 * "Assistant: …") as the prompt. The output is a list of text pieces, joined; usage comes from the
 * prediction's metrics (`input_token_count`, `output_token_count`).
 */

const ROLE_LABELS: Readonly<Record<string, string>> = { user: 'User', assistant: 'Assistant', tool: 'Tool' };

function textOf(message: ChatMessage): { text: string; images: string[] } {
  const { content } = message;
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of content ?? []) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'image_url') images.push(part.image_url.url);
    else throw fieldError('messages', `Replicate chat takes text and images, not ${part.type} parts`);
  }
  return { text: texts.join('\n'), images };
}

function stopSequences(stop: ChatRequest['stop']): string | undefined {
  if (stop === undefined || stop === null) return undefined;
  const list = Array.isArray(stop) ? stop : [stop];
  return list.length > 0 ? list.join(',') : undefined;
}

/** The prediction input of a chat request. */
export function chatInput(request: ChatRequest): Json {
  if (request.tools && request.tools.length > 0) {
    throw fieldError('tools', 'Replicate models are given a prompt: tools are not supported');
  }
  const system: string[] = [];
  const turns: Array<{ role: string; text: string }> = [];
  const images: string[] = [];
  for (const message of request.messages) {
    const { text, images: found } = textOf(message);
    images.push(...found);
    if (message.role === 'system' || message.role === 'developer') system.push(text);
    else turns.push({ role: message.role, text });
  }
  const only = turns.length === 1 ? turns[0] : undefined;
  const prompt =
    only?.role === 'user'
      ? only.text
      : turns.map((turn) => `${ROLE_LABELS[turn.role] ?? turn.role}: ${turn.text}`).join('\n\n');
  if (!prompt.trim()) throw fieldError('messages', 'there is no text to send as the prompt');
  const input: Json = { prompt };
  const set = (name: string, value: unknown) => {
    if (value !== undefined && value !== null) input[name] = value;
  };
  if (system.length > 0) input.system_prompt = system.join('\n\n');
  set('max_tokens', request.max_completion_tokens ?? request.max_tokens);
  set('temperature', request.temperature);
  set('top_p', request.top_p);
  set('top_k', request.top_k);
  set('presence_penalty', request.presence_penalty);
  set('frequency_penalty', request.frequency_penalty);
  set('seed', request.seed);
  set('stop_sequences', stopSequences(request.stop));
  // Vision models (llava, …) take one image by URL or data URL: more would be dropped unseen.
  if (images.length > 1) {
    throw fieldError('messages', `Replicate vision models take one image, not ${images.length}`);
  }
  set('image', images[0]);
  return input;
}

/** The output of a language model: its text pieces, joined. */
export function outputText(output: unknown): string {
  if (output === null || output === undefined) return '';
  if (typeof output === 'string') return output;
  if (Array.isArray(output) && output.every((piece) => typeof piece === 'string')) return output.join('');
  throw new Error("the prediction's output is not text");
}

function metricsUsage(metrics: unknown): ChatUsage | undefined {
  return namedUsage(metrics, { prompt: 'input_token_count', completion: 'output_token_count' });
}

/** A finished prediction as an OpenAI chat completion. */
export function completionOf(prediction: Json, context: AdapterContext): ChatCompletion {
  if (prediction.status !== 'succeeded')
    throw new Error(`the prediction is ${String(prediction.status)}, not finished`);
  const usage = metricsUsage(prediction.metrics);
  return {
    id: context.responseId,
    object: 'chat.completion',
    created: context.now,
    model: context.upstreamModel,
    choices: [
      { index: 0, message: { role: 'assistant', content: outputText(prediction.output) }, finish_reason: 'stop' },
    ],
    ...(usage ? { usage } : {}),
  };
}
