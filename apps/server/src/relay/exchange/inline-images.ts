import { AppError } from '../../platform/errors.js';
import type { ChatContentPart, ChatRequest } from '../providers/types.js';
import type { ImageFetcher } from '../transport/image-fetch.js';

/** Images one request may have fetched, so a message cannot make the gateway download without end. */
export const MAX_FETCHED_IMAGES = 16;
const PARALLEL_FETCHES = 4;

const isWebUrl = (url: string) => /^https?:\/\//i.test(url);

/**
 * The chat with every image given by web URL replaced by its bytes (a `data:` URL), for upstreams
 * that take images only inline (Gemini, Bedrock: `ChatAdapter.inlineImages`). The request is not
 * changed in place: a retry on a channel of another type sees the client's URLs. A URL named
 * twice is fetched once.
 */
export async function withInlineImages(chat: ChatRequest, fetcher: ImageFetcher): Promise<ChatRequest> {
  const urls = new Set<string>();
  for (const message of chat.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type === 'image_url' && isWebUrl(part.image_url.url)) urls.add(part.image_url.url);
    }
  }
  if (urls.size === 0) return chat;
  if (urls.size > MAX_FETCHED_IMAGES) {
    throw AppError.badRequest(
      `messages: at most ${MAX_FETCHED_IMAGES} images by URL can be sent to this model; send the rest inline`,
    );
  }
  const fetched = new Map<string, string>();
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) fetched.set(url, await fetcher.dataUrl(url));
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_FETCHES, queue.length) }, worker));
  const inline = (part: ChatContentPart): ChatContentPart =>
    part.type === 'image_url' && fetched.has(part.image_url.url)
      ? { ...part, image_url: { ...part.image_url, url: fetched.get(part.image_url.url) as string } }
      : part;
  return {
    ...chat,
    messages: chat.messages.map((message) =>
      Array.isArray(message.content) ? { ...message, content: message.content.map(inline) } : message,
    ),
  };
}
