import { openAiAdapter } from '../openai/adapter.js';
import type { ChatAdapter } from '../types.js';

/**
 * Recraft (`external.api.recraft.ai`): its image generation API is OpenAI's shape at OpenAI's path
 * with a bearer key, so requests pass through; its own tools (vectorize, background removal,
 * upscales, styles) are passed through too, at their own paths (recraft/endpoints.ts), and only to
 * Recraft channels. It serves no chat: chat goes to other channels.
 */
export const RECRAFT_FORMAT = 'recraft';

export const recraftAdapter: ChatAdapter = {
  ...openAiAdapter,
  format: RECRAFT_FORMAT,
  chat: false,
};
