import { isRecord } from '@one-hub/contracts';
import { TextTally } from '../billing/metering.js';
import type { Usage } from '../billing/quota.js';
import type { ClientWriter } from '../transport/respond.js';
import { eventData, SseSplitter } from '../transport/sse.js';
import type { MeteredStream, RelayInput, StreamFormat } from './types.js';

/**
 * A passed-through event stream (OpenAI's chat, completions, Responses, transcripts): events go to
 * the client as they arrive, rewritten only where the format says so, and only counters are kept:
 * the last usage reported, the generated text's tokens, whether the end marker came.
 */

const LINE_FEED = 0x0a;

export function eventStreamRelay(
  format: StreamFormat,
  input: RelayInput,
  /** The prompt's tokens by our own count, for a stream that reports no usage. */
  countPrompt: () => number,
): MeteredStream {
  const splitter = new SseSplitter();
  const tally = new TextTally();
  let reported: Usage | undefined;
  const { endMarker, quickText } = format;
  // The end marker (`[DONE]`) is held back and written by end(), after the relay has settled and
  // journaled the request (respond.ts): a client that saw it was billed. It is a short event.
  const isEndMarker = (event: string) =>
    endMarker !== undefined && event.length <= endMarker.length + 16 && eventData(event) === endMarker;

  /** Notes the usage and the text of one event's data; answers its JSON, if it is JSON. */
  const readData = (data: string | undefined): unknown => {
    if (data === undefined || data === '[DONE]') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      return undefined; // Not JSON: forwarded as is.
    }
    if (!isRecord(parsed)) return undefined;
    const usage = format.usageOf(parsed);
    if (usage) reported = usage;
    tally.push(format.textOf(parsed));
    return parsed;
  };
  /** Notes the usage and the text of an event the client gets unchanged: parsed only if need be. */
  const noteEvent = (event: string): void => {
    const data = eventData(event);
    const text = data === undefined || quickText === undefined ? undefined : quickText(data);
    if (text === undefined) readData(data);
    else tally.push(text);
  };
  const kept = (event: string) => !format.rewrite || format.mayRewrite?.(event, input) === false;
  /** What the client gets for the events completed by one chunk ('' for events dropped). */
  const forwarded = (events: string[]): string => {
    let text = '';
    for (const event of events) {
      if (isEndMarker(event)) continue;
      if (kept(event)) {
        noteEvent(event);
        text += `${event}\n\n`;
        continue;
      }
      const parsed = readData(eventData(event));
      const replacement = isRecord(parsed) ? format.rewrite?.(parsed, input) : undefined;
      if (replacement === null) continue;
      text += replacement === undefined ? `${event}\n\n` : `data: ${JSON.stringify(replacement)}\n\n`;
    }
    return text;
  };

  return {
    chunk(bytes: Buffer, client: ClientWriter) {
      const startsEvent = splitter.isEmpty();
      const events = splitter.push(bytes);
      // A chunk of whole events that all go out unchanged is sent as it came, then read: the
      // client does not wait for the parsing. Ending on a line feed, it holds no partial character.
      if (
        startsEvent &&
        splitter.isEmpty() &&
        bytes[bytes.length - 1] === LINE_FEED &&
        events.every(kept) &&
        !events.some(isEndMarker)
      ) {
        const held = client.write(bytes);
        for (const event of events) noteEvent(event);
        return held;
      }
      const text = forwarded(events);
      return text ? client.write(text) : undefined;
    },
    end() {
      const rest = forwarded(splitter.finish());
      // OpenAI's clients are promised a final `data: [DONE]`: the upstream's, held back, or ours
      // for a vendor that ends without one (a broken-off stream gets the error event instead).
      return endMarker ? `${rest}data: ${endMarker}\n\n` : rest;
    },
    fail: openAiStreamError,
    usage: () => reported ?? { prompt_tokens: countPrompt(), completion_tokens: tally.total() },
  };
}

/** An error after an OpenAI-format stream started: one event the client's SDK raises. */
export function openAiStreamError(message: string): string {
  return `data: ${JSON.stringify({ error: { message, type: 'upstream_error' } })}\n\n`;
}
