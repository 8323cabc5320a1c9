import { isRecord, type Json } from '@one-hub/contracts';
import type { SearchResult } from './searchers.js';

/**
 * The last user message of a `#search` chat, rewritten: the numbered search results, how to cite
 * them, and the user's own words at the end. The template is fixed (One Hub's is too); it asks for
 * the answer in the language of the user's message, whatever the template's.
 */
export function citedMessageText(results: readonly SearchResult[], userText: string, today: string): string {
  const numbered = results
    .map((result, index) => {
      const lines = [`[${index + 1}] ${result.title || result.url}`, `URL: ${result.url}`];
      if (result.snippet) lines.push(result.snippet);
      return lines.join('\n');
    })
    .join('\n\n');
  return [
    `Web search results for the message at the end (searched ${today}):`,
    numbered,
    [
      'Answer the message below with the help of these results. Use only the results that bear on it.',
      'Cite a result right after the statement it supports, as [n](URL) with its number and URL, and name',
      'every result a statement draws on, not only the first. End with the sources you cited, one per',
      'line: [n] title - URL. Answer in the language of the message, not of the results.',
    ].join(' '),
    `The message:\n${userText}`,
  ].join('\n\n');
}

/**
 * The message with its text replaced by `text`: a string content becomes `text`; a list of parts
 * keeps its other parts (images) after one text part.
 */
export function withText(message: Json, text: string): Json {
  const content = message.content;
  if (!Array.isArray(content)) return { ...message, content: text };
  const others = content.filter((part) => !(isRecord(part) && part.type === 'text'));
  return { ...message, content: [{ type: 'text', text }, ...others] };
}
