import { eventData, SseSplitter } from '../../transport/sse.js';
import type { ChatUsage, Json, NativeStreamMeter, TextSink } from '../types.js';
import { isRecord, usageFromAnthropic } from './common.js';

/**
 * Metering for the pass-through route (Anthropic client → Anthropic upstream): the bodies go to the
 * client unchanged, these helpers only read usage from them.
 */

/** The usage of a whole Anthropic answer, or undefined when it has none. */
export function anthropicUsage(body: Json): ChatUsage | undefined {
  return isRecord(body.usage) ? usageFromAnthropic(body.usage) : undefined;
}

/**
 * Reads usage from a passing Anthropic event stream: input counts from `message_start`, output
 * (cumulative) from each `message_delta`, which in newer API versions also repeats the input
 * counts. Only the current unfinished event is held. A malformed event is skipped, never thrown:
 * metering must not break a stream the client is receiving.
 */
export function meterAnthropicStream(onText: TextSink = () => {}): NativeStreamMeter {
  // Events are small (one delta each); one past this size is not a usage event and is dropped.
  let splitter = new SseSplitter(1024 * 1024);
  let start: Json | undefined;
  let delta: Json | undefined;

  const read = (events: string[]) => {
    for (const text of events) {
      const data = eventData(text);
      if (!data) continue;
      let event: unknown;
      try {
        event = JSON.parse(data);
      } catch {
        continue;
      }
      if (!isRecord(event)) continue;
      if (event.type === 'content_block_delta' && isRecord(event.delta)) {
        const { text: piece, thinking, partial_json: json } = event.delta;
        for (const value of [piece, thinking, json]) if (typeof value === 'string' && value) onText(value);
      } else if (event.type === 'content_block_start' && isRecord(event.content_block)) {
        const { text: piece, thinking } = event.content_block;
        for (const value of [piece, thinking]) if (typeof value === 'string' && value) onText(value);
      } else if (event.type === 'message_start' && isRecord(event.message) && isRecord(event.message.usage)) {
        start = event.message.usage;
      } else if (event.type === 'message_delta' && isRecord(event.usage)) {
        const present = Object.entries(event.usage).filter(([, value]) => value !== null && value !== undefined);
        delta = { ...delta, ...Object.fromEntries(present) };
      }
    }
  };

  return {
    push(bytes) {
      try {
        read(splitter.push(bytes));
      } catch {
        // An oversized event: forget it and go on with a fresh splitter.
        splitter = new SseSplitter(1024 * 1024);
      }
    },
    usage() {
      read(splitter.finish());
      if (!start && !delta) return undefined;
      return usageFromAnthropic({ ...start, ...delta });
    },
    // Before `message_delta`, `message_start`'s output count is a placeholder.
    finished: () => delta !== undefined,
  };
}
