import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Token counts where the upstream gives none, with a real tokenizer (o200k, the GPT-4o family's).
 * Counts are exact for OpenAI's newer models and a close estimate for other vendors' models.
 */
export function countTextTokens(text: string): number {
  return text ? countTokens(text) : 0;
}

// Per-message framing OpenAI adds around each chat message.
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;
const TOKENS_PER_IMAGE = 85;

/** Prompt tokens of a chat request (text parts and tools; images at a flat low-detail cost). */
export function countChatPromptTokens(body: { messages?: unknown; tools?: unknown }): number {
  let total = TOKENS_PER_REPLY;
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      total += TOKENS_PER_MESSAGE;
      if (!message || typeof message !== 'object') continue;
      const { content, name, role } = message as { content?: unknown; name?: unknown; role?: unknown };
      if (typeof role === 'string') total += countTextTokens(role);
      if (typeof name === 'string') total += countTextTokens(name) + 1;
      total += countContentTokens(content);
    }
  }
  if (body.tools !== undefined) total += countTextTokens(JSON.stringify(body.tools));
  return total;
}

function countContentTokens(content: unknown): number {
  if (typeof content === 'string') return countTextTokens(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content) {
    if (!part || typeof part !== 'object') continue;
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (typeof text === 'string') total += countTextTokens(text);
    else if (type === 'image_url' || type === 'input_image') total += TOKENS_PER_IMAGE;
  }
  return total;
}

/** Prompt tokens of a legacy completion or an embeddings input (string or list of strings). */
export function countInputTokens(input: unknown): number {
  if (typeof input === 'string') return countTextTokens(input);
  if (Array.isArray(input)) {
    return input.reduce<number>((sum, item) => sum + (typeof item === 'string' ? countTextTokens(item) : 0), 0);
  }
  return 0;
}
