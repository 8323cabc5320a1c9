import type {
  ChatChunk,
  ChatChunkToolCall,
  ChatRequest,
  ChatUsage,
  FinishReason,
  Json,
  StreamEncoder,
} from '../types.js';
import { fallbackCallId, frame, idStem, itemId, responseIdOf, statusOf, usageToResponses } from './common.js';
import {
  functionCallItem,
  messageItem,
  type ResponseShell,
  reasoningItem,
  refusalPart,
  responseObject,
  summaryPart,
  textPart,
} from './response.js';

/**
 * Canonical chunks → the Responses event stream (`event: <type>` + `data: <json>`), as the
 * `openai` SDK's `responses.create({stream: true})` and `responses.stream()` read it:
 *
 *   response.created, response.in_progress,
 *   [reasoning]  output_item.added, reasoning_summary_part.added, reasoning_summary_text.delta…,
 *                reasoning_summary_text.done, reasoning_summary_part.done, output_item.done
 *   [message]    output_item.added, content_part.added, output_text.delta… (refusal.delta…),
 *                output_text.done, content_part.done, output_item.done
 *   [call]       output_item.added, function_call_arguments.delta…, function_call_arguments.done,
 *                output_item.done
 *   response.completed | response.incomplete (the whole response, usage included)
 *
 * Reasoning and message items are written one after the other: a change of kind closes the open
 * one, and text after a tool call opens a new message item. Function call items stay open until
 * the end, so argument fragments are placed by their call index however an upstream interleaves
 * them; they are closed, in output order, just before the final event.
 *
 * Memory: the `.done` events and the final response must repeat every item's whole text — the
 * format requires it, so this encoder cannot stay constant in size. It holds each open item's
 * text as an array of the delta pieces (joined once, when the item closes), never by repeated
 * string concatenation, and nothing else grows with the answer.
 */

type Part = { type: 'output_text' | 'refusal'; pieces: string[]; text?: string };

type Item =
  | { kind: 'reasoning'; id: string; index: number; pieces: string[]; text?: string; open: boolean }
  | { kind: 'message'; id: string; index: number; parts: Part[]; open: boolean; status?: ItemStatus }
  | {
      kind: 'call';
      id: string;
      index: number;
      callId: string;
      name: string;
      pieces: string[];
      text?: string;
      open: boolean;
      status?: ItemStatus;
    };

type ItemStatus = 'completed' | 'incomplete';
type ReasoningItem = Extract<Item, { kind: 'reasoning' }>;
type MessageItem = Extract<Item, { kind: 'message' }>;
type CallItem = Extract<Item, { kind: 'call' }>;

/** The Responses stream encoder, with `fail` for a stream that breaks off after it started. */
export interface ResponsesStreamEncoder extends StreamEncoder {
  /** A `response.failed` event closing the stream; what was written so far is in its output. */
  fail(message: string): string;
}

const joined = (pieces: string[]): string => (pieces.length === 1 ? (pieces[0] ?? '') : pieces.join(''));

export function responsesStreamEncoder(requestedModel: string, request?: ChatRequest): ResponsesStreamEncoder {
  let sequence = 0;
  let shell: ResponseShell | undefined;
  let stem = 'unknown';
  const items: Item[] = [];
  let current: ReasoningItem | MessageItem | undefined;
  const calls = new Map<number, CallItem>();
  let finish: FinishReason | null = null;
  let usage: ChatUsage | undefined;
  let ended = false;

  const event = (type: string, data: Json): string => frame({ type, ...data, sequence_number: sequence++ });

  const start = (chunk: ChatChunk | undefined): string => {
    stem = idStem(chunk?.id);
    shell = {
      id: responseIdOf(stem),
      createdAt: typeof chunk?.created === 'number' ? chunk.created : 0,
      model: requestedModel,
      request,
    };
    const initial = responseObject(shell, { status: 'in_progress', incomplete_details: null, output: [], usage: null });
    return event('response.created', { response: initial }) + event('response.in_progress', { response: initial });
  };

  /** The item as `output_item.done` and the final response show it. */
  const finalItem = (item: Item): Json => {
    switch (item.kind) {
      case 'reasoning':
        return reasoningItem(item.id, item.text ?? joined(item.pieces));
      case 'message':
        return messageItem(
          item.id,
          item.status ?? (item.open ? 'in_progress' : 'completed'),
          item.parts.map((part) => {
            const text = part.text ?? joined(part.pieces);
            return part.type === 'output_text' ? textPart(text) : refusalPart(text);
          }),
        );
      case 'call':
        return functionCallItem(item.id, item.status ?? (item.open ? 'in_progress' : 'completed'), {
          callId: item.callId,
          name: item.name,
          arguments: item.text ?? joined(item.pieces),
        });
    }
  };

  const closePart = (item: MessageItem): string => {
    const part = item.parts.at(-1);
    if (!part || part.text !== undefined) return '';
    part.text = joined(part.pieces);
    part.pieces = [];
    const at = { item_id: item.id, output_index: item.index, content_index: item.parts.length - 1 };
    const done =
      part.type === 'output_text'
        ? event('response.output_text.done', { ...at, text: part.text, logprobs: [] })
        : event('response.refusal.done', { ...at, refusal: part.text });
    const finalPart = part.type === 'output_text' ? textPart(part.text) : refusalPart(part.text);
    return done + event('response.content_part.done', { ...at, part: finalPart });
  };

  const close = (item: Item, status: ItemStatus): string => {
    if (!item.open) return '';
    let out = '';
    if (item.kind === 'reasoning') {
      item.text = joined(item.pieces);
      item.pieces = [];
      const at = { item_id: item.id, output_index: item.index, summary_index: 0 };
      out += event('response.reasoning_summary_text.done', { ...at, text: item.text });
      out += event('response.reasoning_summary_part.done', { ...at, part: summaryPart(item.text) });
    } else if (item.kind === 'message') {
      out += closePart(item);
      item.status = status;
    } else {
      item.text = joined(item.pieces);
      item.pieces = [];
      item.status = status;
      out += event('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: item.index,
        name: item.name,
        arguments: item.text,
      });
    }
    item.open = false;
    return out + event('response.output_item.done', { output_index: item.index, item: finalItem(item) });
  };

  const closeCurrent = (): string => {
    const open = current;
    current = undefined;
    return open ? close(open, 'completed') : '';
  };

  /** Closes the open item and adds `item` after it, announced as `shown`. */
  const openItem = (item: Item, shown: Json): string => {
    const out = closeCurrent();
    items.push(item);
    return out + event('response.output_item.added', { output_index: item.index, item: shown });
  };

  const reasoningDelta = (text: string): string => {
    let out = '';
    let item = current?.kind === 'reasoning' ? current : undefined;
    if (!item) {
      const index = items.length;
      item = { kind: 'reasoning', id: itemId('rs', stem, index), index, pieces: [], open: true };
      out += openItem(item, { id: item.id, type: 'reasoning', summary: [] });
      current = item;
      out += event('response.reasoning_summary_part.added', {
        item_id: item.id,
        output_index: item.index,
        summary_index: 0,
        part: summaryPart(''),
      });
    }
    item.pieces.push(text);
    return (
      out +
      event('response.reasoning_summary_text.delta', {
        item_id: item.id,
        output_index: item.index,
        summary_index: 0,
        delta: text,
      })
    );
  };

  const messageDelta = (type: Part['type'], text: string): string => {
    let out = '';
    let message = current?.kind === 'message' ? current : undefined;
    if (!message) {
      const index = items.length;
      message = { kind: 'message', id: itemId('msg', stem, index), index, parts: [], open: true };
      out += openItem(message, messageItem(message.id, 'in_progress', []));
      current = message;
    }
    let part = message.parts.at(-1);
    if (part?.type !== type || part.text !== undefined) {
      out += closePart(message);
      part = { type, pieces: [] };
      message.parts.push(part);
      out += event('response.content_part.added', {
        item_id: message.id,
        output_index: message.index,
        content_index: message.parts.length - 1,
        part: type === 'output_text' ? textPart('') : refusalPart(''),
      });
    }
    part.pieces.push(text);
    const at = { item_id: message.id, output_index: message.index, content_index: message.parts.length - 1 };
    return (
      out +
      (type === 'output_text'
        ? event('response.output_text.delta', { ...at, delta: text, logprobs: [] })
        : event('response.refusal.delta', { ...at, delta: text }))
    );
  };

  const callDelta = (call: ChatChunkToolCall): string => {
    const position = typeof call.index === 'number' ? call.index : 0;
    const args = call.function?.arguments ?? '';
    let out = '';
    let item = calls.get(position);
    if (!item) {
      const index = items.length;
      item = {
        kind: 'call',
        id: itemId('fc', stem, index),
        index,
        callId: call.id || fallbackCallId(stem, position),
        name: call.function?.name ?? '',
        pieces: [],
        open: true,
      };
      out += openItem(
        item,
        functionCallItem(item.id, 'in_progress', { callId: item.callId, name: item.name, arguments: '' }),
      );
      calls.set(position, item);
    } else if (!item.name && call.function?.name) {
      // A name that comes after the first fragment: shown from the `.done` events on.
      item.name = call.function.name;
    }
    if (!args || !item.open) return out;
    item.pieces.push(args);
    return (
      out + event('response.function_call_arguments.delta', { item_id: item.id, output_index: item.index, delta: args })
    );
  };

  const output = (): Json[] => items.map(finalItem);

  return {
    push(chunk: ChatChunk): string {
      if (ended) return '';
      let out = shell ? '' : start(chunk);
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.find((item) => item.index === 0) ?? chunk.choices?.[0];
      if (!choice) return out;
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) out += reasoningDelta(delta.reasoning_content);
      if (delta.content) out += messageDelta('output_text', delta.content);
      if (delta.refusal) out += messageDelta('refusal', delta.refusal);
      for (const call of delta.tool_calls ?? []) out += callDelta(call);
      if (choice.finish_reason) finish = choice.finish_reason;
      return out;
    },

    end(finalUsage: ChatUsage | undefined): string {
      if (ended) return '';
      let out = shell ? '' : start(undefined);
      ended = true;
      const { status, incomplete_details } = statusOf(finish);
      // The open items end with the response: a truncated message is incomplete, as OpenAI marks it.
      if (current) out += close(current, status);
      current = undefined;
      for (const item of items) out += close(item, status);
      const response = responseObject(shell as ResponseShell, {
        status,
        incomplete_details,
        output: output(),
        usage: usageToResponses(finalUsage ?? usage),
      });
      return out + event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response });
    },

    fail(message: string): string {
      if (ended) return '';
      let out = shell ? '' : start(undefined);
      ended = true;
      for (const item of items) {
        if (item.open && item.kind !== 'reasoning') item.status = 'incomplete';
      }
      const response = responseObject(shell as ResponseShell, {
        status: 'failed',
        incomplete_details: null,
        error: { code: 'server_error', message },
        output: output(),
        usage: usage ? usageToResponses(usage) : null,
      });
      out += event('response.failed', { response });
      return out;
    },
  };
}

/**
 * An `error` event for a binding that only has the message (no encoder state): OpenAI's shape
 * for an error raised mid-stream. Prefer the encoder's `fail`, which also ends the response.
 */
export function responsesStreamError(message: string): string {
  return frame({ type: 'error', code: 'server_error', message, param: null, sequence_number: 0 });
}
