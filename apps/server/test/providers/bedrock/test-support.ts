import { readFileSync } from 'node:fs';
import { encodeEvent } from '../../../src/relay/providers/bedrock/eventstream.js';
import type { AdapterContext, Json } from '../../../src/relay/providers/types.js';

/** Test helpers: fixtures, contexts, and event-stream bytes built from fixture events. */

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

export function fixtureJson<T = Json>(name: string): T {
  return JSON.parse(fixture(name).toString('utf8')) as T;
}

export const SIGV4_KEY = 'us-east-1|AKIDEXAMPLE|wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';

export function context(overrides: Partial<AdapterContext> = {}): AdapterContext {
  return {
    key: SIGV4_KEY,
    baseUrl: '',
    upstreamModel: 'claude-sonnet-4-5',
    other: '',
    plugin: {},
    headers: {},
    stream: false,
    now: 1_700_000_000,
    responseId: 'chatcmpl-bedrock1',
    ...overrides,
  };
}

/** InvokeModelWithResponseStream bytes: each Anthropic event base64-wrapped in a `chunk` event. */
export function invokeStream(events: Json[]): Buffer {
  return Buffer.concat(
    events.map((event) =>
      encodeEvent('chunk', { bytes: Buffer.from(JSON.stringify(event)).toString('base64'), p: 'abcdefgh' }),
    ),
  );
}

/** ConverseStream bytes from `{event, payload}` fixture entries. */
export function converseStream(events: Array<{ event: string; payload: Json }>): Buffer {
  return Buffer.concat(events.map(({ event, payload }) => encodeEvent(event, payload)));
}
