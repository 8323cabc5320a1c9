import { isRecord } from '@one-hub/contracts';
import { i18n } from '../i18n/index.js';
import { ApiError } from './api.js';
import { signalUnauthorized } from './session.js';

/**
 * Splits a `text/event-stream` into the `data` of each event as chunks arrive. An event ends at a
 * blank line; several `data:` lines of one event are joined with newlines (the SSE rules), and
 * comments and other fields (`event:`, `id:`) are ignored.
 */
export function createEventParser(): { push(chunk: string): string[]; end(): string[] } {
  let buffer = '';
  let data: string[] = [];

  const line = (text: string, events: string[]) => {
    if (text === '') {
      if (data.length > 0) events.push(data.join('\n'));
      data = [];
      return;
    }
    if (!text.startsWith('data:')) return;
    const value = text.slice(5);
    data.push(value.startsWith(' ') ? value.slice(1) : value);
  };

  return {
    push(chunk) {
      buffer += chunk;
      const events: string[] = [];
      let newline = buffer.search(/\r\n|\r|\n/);
      // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
      while (newline !== -1 && !(buffer[newline] === '\r' && newline === buffer.length - 1)) {
        const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
        line(buffer.slice(0, newline), events);
        buffer = buffer.slice(newline + width);
        newline = buffer.search(/\r\n|\r|\n/);
      }
      return events;
    },
    end() {
      const events: string[] = [];
      if (buffer) line(buffer.replace(/\r$/, ''), events);
      buffer = '';
      line('', events);
      return events;
    },
  };
}

async function refusal(response: Response): Promise<ApiError> {
  if (response.status === 401) signalUnauthorized();
  let message = '';
  try {
    const payload: unknown = await response.json();
    if (isRecord(payload) && typeof payload.message === 'string') message = payload.message;
  } catch {
    // Not JSON: the status text below says what little there is to say.
  }
  return new ApiError(response.status, message || response.statusText || i18n.t('common:error.unexpectedResponse'));
}

/**
 * POSTs `body` as JSON to a management API path that answers with an event stream, and calls
 * `onEvent` with each event's data as it arrives. Resolves when the stream ends; a refusal before
 * the stream starts (the `{success:false}` envelope) throws an ApiError, and aborting `signal`
 * rejects with the fetch's AbortError.
 */
export async function postEventStream(
  path: string,
  body: unknown,
  onEvent: (data: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, i18n.t('common:error.network'));
  }
  if (!response.ok || !response.body) throw await refusal(response);

  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = createEventParser();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const data of parser.push(value)) onEvent(data);
  }
  for (const data of parser.end()) onEvent(data);
}
