import type {
  ChatChunk,
  ChatChunkToolCall,
  ChatCompletion,
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  ChatUsage,
  FinishReason,
  Json,
  StreamEncoder,
  SurfaceTranslator,
} from '../types.js';
import { TOOL_ERROR_MARK } from './adapter.js';
import {
  effortForBudget,
  isRecord,
  messageIdOf,
  setThinkingBudget,
  stopReasonFromFinish,
  usageToAnthropic,
} from './common.js';

/**
 * Clients that speak Anthropic's Messages API (Claude Code, `@anthropic-ai/sdk`) in front of any
 * upstream. Documented choices:
 * - `system` as a string is one system message; as blocks, one system message per block (so an
 *   Anthropic upstream gets the same blocks back). `cache_control` marks are dropped.
 * - Assistant text blocks are joined into one string (widest vendor support); thinking blocks go
 *   to `reasoning_content` (signatures and redacted thinking are dropped).
 * - Tool results become `tool` messages placed before the rest of their user turn; text-only
 *   results are joined with newlines into a string, results with images keep their parts.
 *   `is_error: true` is noted by prefixing the text with `[tool error] `.
 * - `thinking: {type:'enabled', budget_tokens}` → the nearest `reasoning_effort` and the exact
 *   budget under a symbol key (invisible in JSON) for the Anthropic adapter. `adaptive` → medium.
 * - Server tools (web search, code execution…), Files API sources and URL documents are refused
 *   with a 400: no other upstream can run them through this translation.
 */

// ---- request: Anthropic → canonical ----

function imagePart(block: Json, path: string): ChatContentPart {
  const source = block.source;
  if (!isRecord(source)) throw new Error(`${path}.source: an object is required`);
  if (source.type === 'base64') {
    if (typeof source.media_type !== 'string' || typeof source.data !== 'string') {
      throw new Error(`${path}.source: media_type and data strings are required`);
    }
    return { type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  }
  if (source.type === 'url') {
    if (typeof source.url !== 'string') throw new Error(`${path}.source.url: a string is required`);
    return { type: 'image_url', image_url: { url: source.url } };
  }
  throw new Error(`${path}.source.type: "base64" or "url" is required`);
}

function documentPart(block: Json, path: string): ChatContentPart {
  const source = block.source;
  if (!isRecord(source)) throw new Error(`${path}.source: an object is required`);
  const filename = typeof block.title === 'string' ? { filename: block.title } : {};
  if (source.type === 'base64' && typeof source.data === 'string') {
    const mediaType = typeof source.media_type === 'string' ? source.media_type : 'application/pdf';
    return { type: 'file', file: { file_data: `data:${mediaType};base64,${source.data}`, ...filename } };
  }
  if (source.type === 'text' && typeof source.data === 'string') {
    const data = Buffer.from(source.data, 'utf8').toString('base64');
    return { type: 'file', file: { file_data: `data:text/plain;base64,${data}`, ...filename } };
  }
  throw new Error(`${path}.source.type: only base64 and text documents can be translated`);
}

/** User-side blocks (text, image, document) → parts. */
function userPart(block: Json, path: string): ChatContentPart {
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string') throw new Error(`${path}.text: a string is required`);
      return { type: 'text', text: block.text };
    case 'image':
      return imagePart(block, path);
    case 'document':
      return documentPart(block, path);
    default:
      throw new Error(`${path}.type: unsupported content block "${String(block.type)}"`);
  }
}

function toolMessage(block: Json, path: string): ChatMessage {
  if (typeof block.tool_use_id !== 'string' || !block.tool_use_id) {
    throw new Error(`${path}.tool_use_id: a string is required`);
  }
  const mark = block.is_error === true ? TOOL_ERROR_MARK : '';
  const raw = block.content;
  let content: string | ChatContentPart[];
  if (raw === undefined || raw === null) {
    content = mark;
  } else if (typeof raw === 'string') {
    content = mark + raw;
  } else if (Array.isArray(raw)) {
    const parts = raw.map((item, index) => {
      if (!isRecord(item)) throw new Error(`${path}.content[${index}]: a content block is required`);
      return userPart(item, `${path}.content[${index}]`);
    });
    if (parts.every((part) => part.type === 'text')) {
      content = mark + parts.map((part) => (part as { text: string }).text).join('\n');
    } else {
      const first = parts[0];
      if (!mark) content = parts;
      else if (first?.type === 'text') content = [{ type: 'text', text: mark + first.text }, ...parts.slice(1)];
      else content = [{ type: 'text', text: mark }, ...parts];
    }
  } else {
    throw new Error(`${path}.content: a string or a list of blocks is required`);
  }
  return { role: 'tool', tool_call_id: block.tool_use_id, content };
}

function userMessages(content: unknown[], path: string): ChatMessage[] {
  const tools: ChatMessage[] = [];
  const parts: ChatContentPart[] = [];
  content.forEach((block, index) => {
    const at = `${path}[${index}]`;
    if (!isRecord(block)) throw new Error(`${at}: a content block is required`);
    if (block.type === 'tool_result') tools.push(toolMessage(block, at));
    else parts.push(userPart(block, at));
  });
  return parts.length > 0 ? [...tools, { role: 'user', content: parts }] : tools;
}

function assistantMessage(content: unknown[], path: string): ChatMessage {
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: ChatToolCall[] = [];
  content.forEach((block, index) => {
    const at = `${path}[${index}]`;
    if (!isRecord(block)) throw new Error(`${at}: a content block is required`);
    switch (block.type) {
      case 'text':
        if (typeof block.text !== 'string') throw new Error(`${at}.text: a string is required`);
        texts.push(block.text);
        break;
      case 'thinking':
        if (typeof block.thinking === 'string') thoughts.push(block.thinking);
        break;
      case 'redacted_thinking':
        break;
      case 'tool_use': {
        if (typeof block.id !== 'string' || !block.id) throw new Error(`${at}.id: a string is required`);
        if (typeof block.name !== 'string' || !block.name) throw new Error(`${at}.name: a string is required`);
        const input = block.input === undefined ? {} : block.input;
        calls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(input) },
        });
        break;
      }
      default:
        throw new Error(`${at}.type: unsupported content block "${String(block.type)}"`);
    }
  });
  return {
    role: 'assistant',
    content: texts.length > 0 ? texts.join('') : calls.length > 0 ? null : '',
    ...(thoughts.length > 0 ? { reasoning_content: thoughts.join('') } : {}),
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

function convertSystem(system: unknown): ChatMessage[] {
  if (system === undefined || system === null) return [];
  if (typeof system === 'string') return system ? [{ role: 'system', content: system }] : [];
  if (!Array.isArray(system)) throw new Error('system: a string or a list of text blocks is required');
  return system.map((block, index) => {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') {
      throw new Error(`system[${index}]: a text block is required`);
    }
    return { role: 'system', content: block.text };
  });
}

function convertTools(tools: unknown): ChatTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw new Error('tools: a list is required');
  return tools.map((tool, index) => {
    const at = `tools[${index}]`;
    if (!isRecord(tool)) throw new Error(`${at}: a tool object is required`);
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      throw new Error(`${at}.type: server tool "${String(tool.type)}" cannot be translated`);
    }
    if (typeof tool.name !== 'string' || !tool.name) throw new Error(`${at}.name: a string is required`);
    if (!isRecord(tool.input_schema)) throw new Error(`${at}.input_schema: an object is required`);
    return {
      type: 'function',
      function: {
        name: tool.name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        parameters: tool.input_schema,
      },
    };
  });
}

function convertToolChoice(choice: unknown): { choice: ChatToolChoice; noParallel: boolean } | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (!isRecord(choice)) throw new Error('tool_choice: an object is required');
  const noParallel = choice.disable_parallel_tool_use === true;
  switch (choice.type) {
    case 'auto':
      return { choice: 'auto', noParallel };
    case 'any':
      return { choice: 'required', noParallel };
    case 'none':
      return { choice: 'none', noParallel };
    case 'tool':
      if (typeof choice.name !== 'string' || !choice.name) throw new Error('tool_choice.name: a string is required');
      return { choice: { type: 'function', function: { name: choice.name } }, noParallel };
    default:
      throw new Error('tool_choice.type: "auto", "any", "none" or "tool" is required');
  }
}

function optionalNumber(body: Json, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${field}: a number is required`);
  return value;
}

export function anthropicToChat(body: Json, model: string): ChatRequest {
  if (typeof body.model !== 'string' || !body.model) throw new Error('model: a model name is required');
  const maxTokens = body.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens <= 0) {
    throw new Error('max_tokens: a positive integer is required');
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new Error('messages: a non-empty list of messages is required');
  }
  const messages: ChatMessage[] = convertSystem(body.system);
  body.messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isRecord(message)) throw new Error(`${path}: a message object is required`);
    const { role, content } = message;
    if (role !== 'user' && role !== 'assistant') throw new Error(`${path}.role: "user" or "assistant" is required`);
    if (typeof content === 'string') {
      messages.push({ role, content });
    } else if (Array.isArray(content)) {
      if (role === 'user') messages.push(...userMessages(content, `${path}.content`));
      else messages.push(assistantMessage(content, `${path}.content`));
    } else {
      throw new Error(`${path}.content: a string or a list of content blocks is required`);
    }
  });

  const request: ChatRequest = { model: model || body.model, messages, max_tokens: maxTokens };
  if (body.stream !== undefined && body.stream !== null) {
    if (typeof body.stream !== 'boolean') throw new Error('stream: a boolean is required');
    request.stream = body.stream;
  }
  for (const field of ['temperature', 'top_p', 'top_k'] as const) {
    const value = optionalNumber(body, field);
    if (value !== undefined) request[field] = value;
  }
  if (body.stop_sequences !== undefined && body.stop_sequences !== null) {
    const stops = body.stop_sequences;
    if (!Array.isArray(stops) || !stops.every((item) => typeof item === 'string')) {
      throw new Error('stop_sequences: a list of strings is required');
    }
    if (stops.length > 0) request.stop = stops as string[];
  }
  const tools = convertTools(body.tools);
  if (tools) request.tools = tools;
  const toolChoice = convertToolChoice(body.tool_choice);
  if (toolChoice) {
    request.tool_choice = toolChoice.choice;
    if (toolChoice.noParallel) request.parallel_tool_calls = false;
  }
  const thinking = body.thinking;
  if (thinking !== undefined && thinking !== null) {
    if (!isRecord(thinking)) throw new Error('thinking: an object is required');
    if (thinking.type === 'enabled') {
      const budget = thinking.budget_tokens;
      if (typeof budget !== 'number' || !Number.isInteger(budget) || budget <= 0) {
        throw new Error('thinking.budget_tokens: a positive integer is required');
      }
      request.reasoning_effort = effortForBudget(budget);
      setThinkingBudget(request, budget);
    } else if (thinking.type === 'adaptive') {
      request.reasoning_effort = 'medium';
    } else if (thinking.type !== 'disabled') {
      throw new Error('thinking.type: "enabled" or "disabled" is required');
    }
  }
  if (body.metadata !== undefined && body.metadata !== null) {
    if (!isRecord(body.metadata)) throw new Error('metadata: an object is required');
    const userId = body.metadata.user_id;
    if (typeof userId === 'string' && userId) request.user = userId;
  }
  return request;
}

// ---- whole answer: canonical → Anthropic ----

function toolInput(args: string): Json {
  try {
    const parsed: unknown = JSON.parse(args);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function anthropicFromChat(completion: ChatCompletion, requestedModel: string): Json {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const content: Json[] = [];
  if (message?.reasoning_content)
    content.push({ type: 'thinking', thinking: message.reasoning_content, signature: '' });
  const text = message?.content || message?.refusal;
  if (text) content.push({ type: 'text', text });
  const calls = message?.tool_calls ?? [];
  for (const call of calls) {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: toolInput(call.function.arguments),
    });
  }
  return {
    id: messageIdOf(completion.id),
    type: 'message',
    role: 'assistant',
    model: requestedModel,
    content,
    stop_reason: stopReasonFromFinish(choice?.finish_reason, calls.length > 0),
    stop_sequence: null,
    usage: usageToAnthropic(completion.usage),
  };
}

// ---- stream: canonical chunks → Anthropic events ----

const frame = (type: string, data: Json): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** Text held back while a tool block is open, at most this many characters before it is flushed. */
const HOLD_LIMIT = 64 * 1024;

type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; call: number };

/**
 * Blocks are opened and closed in order: a kind change closes the open block. Tool calls are taken
 * as OpenAI streams them, one after the other; text that arrives while a tool block is open is
 * held back (bounded) and sent as its own block after the tool block closes. Argument fragments of
 * a tool call whose block was already closed (parallel calls interleaved) cannot be placed and are
 * dropped: neither OpenAI nor the hub's own decoders interleave them.
 */
export function anthropicStreamEncoder(requestedModel: string): StreamEncoder {
  let started = false;
  let nextIndex = 0;
  let open: OpenBlock | undefined;
  const closedCalls = new Set<number>();
  let held: Array<{ kind: 'text' | 'thinking'; text: string }> = [];
  let heldSize = 0;
  let finish: FinishReason | null = null;
  let usage: ChatUsage | undefined;
  let sawToolCalls = false;
  let messageId = 'msg_stream';

  const start = (id: string | undefined): string => {
    started = true;
    if (id) messageId = messageIdOf(id);
    return frame('message_start', {
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: requestedModel,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
      },
    });
  };

  const close = (): string => {
    if (!open) return '';
    const text = frame('content_block_stop', { index: open.index });
    if (open.kind === 'tool') closedCalls.add(open.call);
    open = undefined;
    return text;
  };

  const flushHeld = (): string => {
    const items = held;
    held = [];
    heldSize = 0;
    let out = '';
    for (const item of items) out += textDelta(item.kind, item.text);
    return out;
  };

  const textDelta = (kind: 'text' | 'thinking', text: string): string => {
    if (open?.kind === 'tool') {
      held.push({ kind, text });
      heldSize += text.length;
      if (heldSize <= HOLD_LIMIT) return '';
      return close() + flushHeld();
    }
    let out = '';
    if (open?.kind !== kind) {
      out += close();
      open = { kind, index: nextIndex++ };
      const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
      out += frame('content_block_start', { index: open.index, content_block: block });
    }
    const delta = kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text };
    return out + frame('content_block_delta', { index: open.index, delta });
  };

  const toolDelta = (call: ChatChunkToolCall): string => {
    const position = typeof call.index === 'number' ? call.index : 0;
    const args = call.function?.arguments ?? '';
    let out = '';
    let block = open;
    if (block?.kind !== 'tool' || block.call !== position) {
      if (closedCalls.has(position)) return '';
      sawToolCalls = true;
      out += close() + flushHeld() + close();
      block = { kind: 'tool', index: nextIndex++, call: position };
      open = block;
      const id = call.id || `toolu_${messageId.replace(/^msg_/, '')}_${position}`;
      out += frame('content_block_start', {
        index: block.index,
        content_block: { type: 'tool_use', id, name: call.function?.name ?? '', input: {} },
      });
    }
    if (args) {
      out += frame('content_block_delta', {
        index: block.index,
        delta: { type: 'input_json_delta', partial_json: args },
      });
    }
    return out;
  };

  return {
    push(chunk: ChatChunk): string {
      let out = started ? '' : start(chunk.id);
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.find((item) => item.index === 0) ?? chunk.choices?.[0];
      if (!choice) return out;
      const delta = choice.delta ?? {};
      if (delta.reasoning_content) out += textDelta('thinking', delta.reasoning_content);
      if (delta.content) out += textDelta('text', delta.content);
      if (delta.refusal) out += textDelta('text', delta.refusal);
      for (const call of delta.tool_calls ?? []) out += toolDelta(call);
      if (choice.finish_reason) finish = choice.finish_reason;
      return out;
    },
    end(finalUsage: ChatUsage | undefined): string {
      let out = started ? '' : start(undefined);
      out += close() + flushHeld() + close();
      out += frame('message_delta', {
        delta: { stop_reason: stopReasonFromFinish(finish, sawToolCalls), stop_sequence: null },
        usage: usageToAnthropic(finalUsage ?? usage),
      });
      return out + frame('message_stop', {});
    },
  };
}

// ---- errors ----

const ERROR_TYPES = new Set([
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'api_error',
  'timeout_error',
  'overloaded_error',
]);

export function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return 'api_error';
  }
}

export const anthropicSurface: SurfaceTranslator = {
  toChat: anthropicToChat,
  fromChat: anthropicFromChat,
  encodeStream: anthropicStreamEncoder,
  errorBody(status: number, message: string, type?: string): Json {
    // An Anthropic type from upstream is kept; anything else is derived from the status.
    const errorType = type && ERROR_TYPES.has(type) ? type : anthropicErrorType(status);
    return { type: 'error', error: { type: errorType, message } };
  },
};
