import type { Json } from '@one-hub/contracts';

/**
 * The one reader of server-sent event text for tests: what a relay answer or an adapter's encoder
 * wrote, read back frame by frame. Strict, so a test fails on a malformed stream.
 */

export interface NamedEvent {
  event: string;
  data: Json;
}

/** Complete `event:` + `data:` frames → events; text not ending in a blank line, or any other frame, throws. */
export function namedEvents(text: string): NamedEvent[] {
  if (text === '') return [];
  if (!text.endsWith('\n\n')) {
    throw new Error(`SSE text does not end with a blank line: ${JSON.stringify(text.slice(-40))}`);
  }
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((frame) => {
      const [eventLine = '', dataLine = '', ...rest] = frame.split('\n');
      if (rest.length > 0 || !eventLine.startsWith('event: ') || !dataLine.startsWith('data: ')) {
        throw new Error(`not an event frame: ${frame}`);
      }
      return { event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) as Json };
    });
}

/** The `data:` payloads of an SSE text, parsed; frames without data (comments, pings) are skipped. */
export function dataEvents(text: string): Json[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => JSON.parse(frame.slice('data: '.length)) as Json);
}
