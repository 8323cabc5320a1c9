import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Parts shared by the local provider mocks: their handle, streamed pieces and Claude's answer. */

/** A running mock: what it is told to do, what it received, and how to start afresh. */
export interface ListeningMock<Behaviour, Request> {
  url: string;
  behaviour: Behaviour;
  received: Request[];
  /** Fresh default behaviour, nothing received. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts `server` on a loopback port. `behaviour` is read from `state` on each access, so that
 * `reset` can put fresh defaults in place while the server's handler keeps reading `state`.
 */
export async function listenMock<Behaviour, Request>(
  server: Server,
  state: { behaviour: Behaviour; received: Request[] },
  defaults: () => Behaviour,
): Promise<ListeningMock<Behaviour, Request>> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get behaviour() {
      return state.behaviour;
    },
    received: state.received,
    reset() {
      state.behaviour = defaults();
      state.received.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * `text` cut into `count` pieces of equal length in characters (the last may be shorter), for
 * streamed deltas; a character outside the BMP is never cut in half.
 */
export function pieces(text: string, count: number): string[] {
  const characters = [...text];
  const size = Math.ceil(characters.length / Math.max(1, count));
  const list: string[] = [];
  for (let at = 0; at < characters.length; at += size) list.push(characters.slice(at, at + size).join(''));
  return list;
}

/** Answers with `value` as JSON. */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

export interface ClaudeMockUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ClaudeAnswerOptions {
  messageId: string;
  toolUseId: string;
  model: unknown;
  /** The tool to call (with `{ city: 'Paris' }`); without one the answer is `reply`. */
  tool: string | undefined;
  reply: string;
  usage: ClaudeMockUsage;
}

/** One event of a Claude stream: its `type` and the rest of its data. */
export type ClaudeEvent = [type: string, data: Record<string, unknown>];

/**
 * A Claude Messages answer as the mocks give it: whole, and the pieces of its stream that do not
 * depend on the platform (each mock streams the text itself and adds its own final events).
 */
export function claudeAnswer({ messageId, toolUseId, model, tool, reply, usage }: ClaudeAnswerOptions) {
  const startUsage = {
    input_tokens: usage.input,
    cache_read_input_tokens: usage.cacheRead,
    cache_creation_input_tokens: usage.cacheWrite,
    output_tokens: 1,
  };
  const message = { id: messageId, type: 'message', role: 'assistant', model, stop_sequence: null };
  const content = tool
    ? [{ type: 'tool_use', id: toolUseId, name: tool, input: { city: 'Paris' } }]
    : [{ type: 'text', text: reply }];
  const stopReason = tool ? 'tool_use' : 'end_turn';
  const toolEvents: ClaudeEvent[] = tool
    ? [
        [
          'content_block_start',
          { index: 0, content_block: { type: 'tool_use', id: toolUseId, name: tool, input: {} } },
        ],
        ...['{"city"', ': "Par', 'is"}'].map(
          (part): ClaudeEvent => [
            'content_block_delta',
            { index: 0, delta: { type: 'input_json_delta', partial_json: part } },
          ],
        ),
      ]
    : [];
  const closing: ClaudeEvent[] = [
    ['content_block_stop', { index: 0 }],
    [
      'message_delta',
      { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output } },
    ],
  ];
  return {
    whole: { ...message, content, stop_reason: stopReason, usage: { ...startUsage, output_tokens: usage.output } },
    /** The message of the `message_start` event. */
    start: { ...message, content: [], stop_reason: null, usage: startUsage },
    /** The tool call's block, its input in three pieces (none without a tool). */
    toolEvents,
    /** The block's end and the `message_delta` with the stop reason and the output tokens. */
    closing,
  };
}
