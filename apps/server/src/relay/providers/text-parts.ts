import { fieldError } from '../../platform/errors.js';
import type { ChatContentPart, ChatMessage } from './types.js';
import { isRecord } from './values.js';

/**
 * Content reading shared by upstreams whose messages are flat (one text, or a list of text and
 * image parts): Coze and Hunyuan. The error messages name the field, as every adapter's do.
 */

/** The text of a content that must be text only (system, assistant and tool turns). */
export function textOnly(content: ChatMessage['content'], path: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw fieldError(path, 'a string or a list of parts is required');
  return content
    .map((part, index) => {
      if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
      throw fieldError(`${path}[${index}]`, 'only text is allowed in this message');
    })
    .join('');
}

/** Whether a content is a list holding a part other than text (an image, say). */
export function hasNonTextParts(content: ChatMessage['content']): content is ChatContentPart[] {
  return Array.isArray(content) && content.some((part) => isRecord(part) && part.type !== 'text');
}

/** How one upstream writes a text part and an image part (`at` is the part's path). */
export interface TextImageBuilders<T> {
  /** The upstream's name, for the refusal of other parts. */
  vendor: string;
  text(text: string): T;
  image(url: string, at: string): T;
}

/** Text and image_url parts → the upstream's parts; any other part is refused. */
export function textImageParts<T>(parts: ChatContentPart[], path: string, build: TextImageBuilders<T>): T[] {
  return parts.map((part, index): T => {
    const at = `${path}[${index}]`;
    if (!isRecord(part)) throw fieldError(at, 'a content part object is required');
    if (part.type === 'text' && typeof part.text === 'string') return build.text(part.text);
    if (part.type === 'image_url' && isRecord(part.image_url) && typeof part.image_url.url === 'string') {
      return build.image(part.image_url.url, at);
    }
    throw fieldError(at, `${build.vendor} takes text and image_url parts only, not "${String(part.type)}"`);
  });
}
