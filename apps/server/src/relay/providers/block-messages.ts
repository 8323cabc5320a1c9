import { fieldError } from '../../platform/errors.js';
import type { ChatFilePart, ChatMessage, ChatRequest, Json } from './types.js';
import { isRecord } from './values.js';

/**
 * The canonical chat request read for upstreams whose messages are lists of content blocks
 * (Anthropic Messages, Bedrock Converse). Both check and walk the request alike; only the blocks
 * they build differ, so each passes its own builders and the error messages stay the same.
 * `parseArguments` also serves the surfaces that answer with tool calls as JSON objects.
 */

/** A tool call's `arguments` text → its input object; anything but a JSON object reads as `{}`. */
export function parseArguments(text: string): Json {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** A positive token count, rounded down; anything else reads as unset. */
export const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;

/** `stop` as a list of its non-empty strings (empty when unset). */
export function stopSequences(stop: ChatRequest['stop'] | null): string[] {
  if (stop === undefined || stop === null) return [];
  return (Array.isArray(stop) ? stop : [stop]).filter(
    (item): item is string => typeof item === 'string' && item !== '',
  );
}

/** One handler per role; system and developer messages share one. */
export interface MessageReaders {
  system(message: ChatMessage, path: string): void;
  user(message: ChatMessage, path: string): void;
  assistant(message: ChatMessage, path: string): void;
  tool(message: ChatMessage, path: string): void;
}

/** Hands each message to the handler of its role, in order; other roles are refused. */
export function readMessages(messages: ChatMessage[], read: MessageReaders): void {
  if (!Array.isArray(messages)) throw fieldError('messages', 'a list of messages is required');
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isRecord(message)) throw fieldError(path, 'a message object is required');
    switch (message.role) {
      case 'system':
      case 'developer':
        read.system(message, path);
        break;
      case 'user':
        read.user(message, path);
        break;
      case 'assistant':
        read.assistant(message, path);
        break;
      case 'tool':
        read.tool(message, path);
        break;
      default:
        throw fieldError(`${path}.role`, `unsupported role "${String(message.role)}"`);
    }
  });
}

/** A user turn's blocks with its tool results first, as both APIs want them. */
export function toolResultsFirst(blocks: Json[], isResult: (block: Json) => boolean): Json[] {
  const results = blocks.filter(isResult);
  if (results.length === 0) return blocks;
  return [...results, ...blocks.filter((block) => !isResult(block))];
}

/** How one upstream writes each kind of user content part. */
export interface PartBuilders {
  text(text: string, part: Json): Json;
  image(url: string, part: Json, path: string): Json;
  file(part: ChatFilePart, path: string, index: number): Json;
  /** The reason an audio part is refused: neither upstream takes audio. */
  noAudio: string;
}

/** A list of user (or tool-result) content parts → blocks; empty text is left out. */
export function partBlocks(content: unknown, path: string, build: PartBuilders): Json[] {
  if (!Array.isArray(content)) throw fieldError(path, 'a string or a list of parts is required');
  const blocks: Json[] = [];
  content.forEach((item, index) => {
    const at = `${path}[${index}]`;
    const part: unknown = item;
    if (!isRecord(part)) throw fieldError(at, 'a content part object is required');
    switch (part.type) {
      case 'text':
        if (typeof part.text !== 'string') throw fieldError(`${at}.text`, 'a string is required');
        if (part.text) blocks.push(build.text(part.text, part));
        break;
      case 'image_url': {
        const url = isRecord(part.image_url) ? part.image_url.url : undefined;
        if (typeof url !== 'string') throw new Error(`${at}.image_url.url: a string is required`);
        blocks.push(build.image(url, part, at));
        break;
      }
      case 'file':
        blocks.push(build.file(part as unknown as ChatFilePart, at, index));
        break;
      case 'input_audio':
        throw new Error(`${at}: ${build.noAudio}`);
      default:
        throw new Error(`${at}.type: unsupported content part "${String(part.type)}"`);
    }
  });
  return blocks;
}

/**
 * An assistant message's non-empty texts in order: its string content, or its text and refusal
 * parts (`part` is the text part, whose marks an upstream may keep), else its `refusal`.
 */
export function assistantTexts(message: ChatMessage, path: string): Array<{ text: string; part?: Json }> {
  const texts: Array<{ text: string; part?: Json }> = [];
  const { content } = message;
  if (typeof content === 'string') {
    if (content) texts.push({ text: content });
  } else if (Array.isArray(content)) {
    content.forEach((item, index) => {
      const part = item as unknown as Json;
      if (part.type === 'text' && typeof part.text === 'string') {
        if (part.text) texts.push({ text: part.text, part });
      } else if (part.type === 'refusal' && typeof part.refusal === 'string') {
        if (part.refusal) texts.push({ text: part.refusal });
      } else {
        throw new Error(`${path}.content[${index}].type: an assistant message can only hold text`);
      }
    });
  } else if (content !== null && content !== undefined) {
    throw new Error(`${path}.content: a string or a list of parts is required`);
  }
  if (texts.length === 0 && typeof message.refusal === 'string' && message.refusal) {
    texts.push({ text: message.refusal });
  }
  return texts;
}

export interface ToolUse {
  id: string;
  name: string;
  input: Json;
}

/** A tool call of an assistant message, checked; its arguments as the client sent them. */
export interface CheckedToolCall {
  id: string;
  name: string;
  args: unknown;
}

/** An assistant message's tool calls, each with an id and a function name, or a 400 naming the field. */
export function checkedToolCalls(message: ChatMessage, path: string): CheckedToolCall[] {
  const calls: unknown = message.tool_calls ?? [];
  if (!Array.isArray(calls)) throw new Error(`${path}.tool_calls: a list is required`);
  return calls.map((call: unknown, index) => {
    const at = `${path}.tool_calls[${index}]`;
    if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== 'string') {
      throw new Error(`${at}.function.name: a string is required`);
    }
    if (typeof call.id !== 'string' || !call.id) throw new Error(`${at}.id: a string is required`);
    return { id: call.id, name: call.function.name, args: call.function.arguments };
  });
}

/** An assistant message's tool calls, checked, with their arguments parsed. */
export function assistantToolUses(message: ChatMessage, path: string): ToolUse[] {
  return checkedToolCalls(message, path).map(({ id, name, args }) => ({
    id,
    name,
    input: typeof args === 'string' ? parseArguments(args) : isRecord(args) ? args : {},
  }));
}

export interface FunctionTool {
  /** The tool as the client sent it (for marks an upstream may keep). */
  tool: Json;
  name: string;
  description: string | undefined;
  /** The parameters schema, or an empty object schema when there is none. */
  parameters: Json;
}

/** The request's function tools, checked; undefined when it has none. */
export function functionTools(tools: ChatRequest['tools'] | null): FunctionTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw new Error('tools: a list is required');
  return tools.map((tool, index) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== 'string' || !fn.name) {
      throw new Error(`tools[${index}].function.name: a string is required`);
    }
    return {
      tool: tool as unknown as Json,
      name: fn.name,
      description: typeof fn.description === 'string' ? fn.description : undefined,
      parameters: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
    };
  });
}

/** `tool_choice`, checked: a mode, or the one function the model must call. */
export type ToolChoiceRead = 'auto' | 'required' | 'none' | { name: string };

export function readToolChoice(choice: ChatRequest['tool_choice'] | null): ToolChoiceRead | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'required' || choice === 'none') return choice;
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { name: choice.function.name };
  }
  throw new Error('tool_choice: "none", "auto", "required" or {type:"function", function:{name}} is required');
}
