import type { ChatContentPart, ChatMessage, ChatToolCall, Json } from '../types.js';
import { isRecord, present, requiredString } from './common.js';

/**
 * The `input` of a Responses request → canonical chat messages: content parts, message,
 * function-call, function-output and reasoning items (the choices are listed in request.ts).
 */

const BUILT_IN_ITEMS = new Set([
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'web_search_call',
  'image_generation_call',
  'code_interpreter_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'custom_tool_call',
  'custom_tool_call_output',
  'tool_search_call',
  'tool_search_output',
]);

// ---- content parts ----

function imagePart(part: Json, path: string): ChatContentPart {
  if (present(part.file_id)) {
    throw new Error(
      `${path}.file_id: uploaded files cannot be used on this channel (no Files API); send the image as image_url (an https or data URL)`,
    );
  }
  const url = requiredString(part.image_url, `${path}.image_url`);
  const detail = part.detail;
  if (present(detail) && detail !== 'auto' && detail !== 'low' && detail !== 'high' && detail !== 'original') {
    throw new Error(`${path}.detail: "auto", "low", "high" or "original" is required`);
  }
  // "original" (full resolution) has no chat equivalent; "high" is the nearest.
  const chatDetail = detail === 'original' ? 'high' : (detail as 'auto' | 'low' | 'high' | undefined);
  return { type: 'image_url', image_url: { url, ...(chatDetail ? { detail: chatDetail } : {}) } };
}

function filePart(part: Json, path: string): ChatContentPart {
  if (present(part.file_id)) {
    throw new Error(`${path}.file_id: uploaded files cannot be used on this channel (no Files API); send file_data`);
  }
  if (present(part.file_url)) {
    throw new Error(`${path}.file_url: file URLs cannot be fetched for this channel; send file_data (a data URL)`);
  }
  const data = requiredString(part.file_data, `${path}.file_data`);
  return {
    type: 'file',
    file: {
      file_data: data,
      ...(typeof part.filename === 'string' && part.filename ? { filename: part.filename } : {}),
    },
  };
}

function audioPart(part: Json, path: string): ChatContentPart {
  const audio = part.input_audio;
  if (!isRecord(audio)) throw new Error(`${path}.input_audio: an object is required`);
  return {
    type: 'input_audio',
    input_audio: {
      data: requiredString(audio.data, `${path}.input_audio.data`),
      format: requiredString(audio.format, `${path}.input_audio.format`),
    },
  };
}

/** A user-side part (`input_text`, `input_image`, `input_file`, `input_audio`). */
function inputPart(part: unknown, path: string): ChatContentPart {
  if (!isRecord(part)) throw new Error(`${path}: a content part object is required`);
  switch (part.type) {
    case 'input_text':
      if (typeof part.text !== 'string') throw new Error(`${path}.text: a string is required`);
      return { type: 'text', text: part.text };
    case 'input_image':
      return imagePart(part, path);
    case 'input_file':
      return filePart(part, path);
    case 'input_audio':
      return audioPart(part, path);
    default:
      throw new Error(`${path}.type: unsupported content part "${String(part.type)}" in an input message`);
  }
}

/** One text part → a string (widest vendor support); anything else stays a list. */
function collapse(parts: ChatContentPart[]): string | ChatContentPart[] {
  const [only] = parts;
  return parts.length === 1 && only?.type === 'text' ? only.text : parts;
}

function userContent(content: unknown, path: string): string | ChatContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length === 0) {
    throw new Error(`${path}: a string or a non-empty list of content parts is required`);
  }
  return collapse(content.map((part, index) => inputPart(part, `${path}[${index}]`)));
}

function systemContent(content: unknown, path: string): string | ChatContentPart[] {
  const converted = userContent(content, path);
  if (typeof converted !== 'string') {
    converted.forEach((part, index) => {
      if (part.type !== 'text') throw new Error(`${path}[${index}].type: system and developer messages take text only`);
    });
  }
  return converted;
}

/** Assistant history: `output_text` and `refusal` parts (and `input_text`, which some clients send). */
function assistantText(content: unknown, path: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new Error(`${path}: a string or a list of content parts is required`);
  return content
    .map((part, index) => {
      const at = `${path}[${index}]`;
      if (!isRecord(part)) throw new Error(`${at}: a content part object is required`);
      if (part.type === 'output_text' || part.type === 'input_text') {
        if (typeof part.text !== 'string') throw new Error(`${at}.text: a string is required`);
        return part.text;
      }
      if (part.type === 'refusal') {
        if (typeof part.refusal !== 'string') throw new Error(`${at}.refusal: a string is required`);
        return part.refusal;
      }
      throw new Error(`${at}.type: unsupported content part "${String(part.type)}" in an assistant message`);
    })
    .join('');
}

/** The output of a function call: a string, or a list of input parts (one text part becomes a string). */
function toolOutput(output: unknown, path: string): string | ChatContentPart[] {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) throw new Error(`${path}: a string or a list of content parts is required`);
  if (output.length === 0) return '';
  return collapse(output.map((part, index) => inputPart(part, `${path}[${index}]`)));
}

// ---- input items ----

/** The readable text of a reasoning item: its reasoning text, else its summary. */
function reasoningText(item: Json, path: string): string {
  const texts = (field: 'content' | 'summary'): string[] => {
    const list = item[field];
    if (!present(list)) return [];
    if (!Array.isArray(list)) throw new Error(`${path}.${field}: a list is required`);
    return list.map((part, index) => {
      if (!isRecord(part) || typeof part.text !== 'string') {
        throw new Error(`${path}.${field}[${index}].text: a string is required`);
      }
      return part.text;
    });
  };
  const content = texts('content');
  const summary = texts('summary');
  return (content.length > 0 ? content : summary).join('\n\n');
}

export class Conversation {
  readonly messages: ChatMessage[] = [];
  private reasoning: string[] = [];
  /** The assistant message built from the last items, which function calls may join. */
  private assistant: ChatMessage | undefined;

  add(message: ChatMessage): void {
    this.messages.push(message);
    this.assistant = undefined;
    if (message.role !== 'assistant') this.reasoning = [];
  }

  addReasoning(text: string): void {
    if (text) this.reasoning.push(text);
  }

  addAssistant(content: string): void {
    const message: ChatMessage = { role: 'assistant', content };
    this.takeReasoning(message);
    this.messages.push(message);
    this.assistant = message;
  }

  addCall(call: ChatToolCall): void {
    let message = this.assistant;
    if (!message) {
      message = { role: 'assistant', content: null };
      this.messages.push(message);
      this.assistant = message;
    }
    this.takeReasoning(message);
    message.tool_calls = [...(message.tool_calls ?? []), call];
  }

  private takeReasoning(message: ChatMessage): void {
    if (this.reasoning.length === 0) return;
    const text = this.reasoning.join('\n\n');
    message.reasoning_content = message.reasoning_content ? `${message.reasoning_content}\n\n${text}` : text;
    this.reasoning = [];
  }
}

function messageItem(item: Json, path: string, conversation: Conversation): void {
  const { role } = item;
  switch (role) {
    case 'user':
      conversation.add({ role: 'user', content: userContent(item.content, `${path}.content`) });
      return;
    case 'system':
    case 'developer':
      conversation.add({ role: 'system', content: systemContent(item.content, `${path}.content`) });
      return;
    case 'assistant':
      conversation.addAssistant(assistantText(item.content, `${path}.content`));
      return;
    default:
      throw new Error(`${path}.role: "user", "assistant", "system" or "developer" is required`);
  }
}

function callItem(item: Json, path: string): ChatToolCall {
  const callId = requiredString(item.call_id, `${path}.call_id`);
  const name = requiredString(item.name, `${path}.name`);
  let args = item.arguments;
  if (!present(args)) args = '{}';
  else if (isRecord(args)) args = JSON.stringify(args);
  else if (typeof args !== 'string') throw new Error(`${path}.arguments: a JSON string is required`);
  return { id: callId, type: 'function', function: { name, arguments: args as string } };
}

export function convertInput(input: unknown, conversation: Conversation): void {
  if (typeof input === 'string') {
    conversation.add({ role: 'user', content: input });
    return;
  }
  if (!Array.isArray(input) || input.length === 0) {
    throw new Error('input: a string or a non-empty list of input items is required');
  }
  input.forEach((item, index) => {
    const path = `input[${index}]`;
    if (!isRecord(item)) throw new Error(`${path}: an input item object is required`);
    const type = item.type ?? 'message';
    switch (type) {
      case 'message':
        messageItem(item, path, conversation);
        return;
      case 'function_call':
        conversation.addCall(callItem(item, path));
        return;
      case 'function_call_output':
        conversation.add({
          role: 'tool',
          tool_call_id: requiredString(item.call_id, `${path}.call_id`),
          content: toolOutput(item.output, `${path}.output`),
        });
        return;
      case 'reasoning':
        conversation.addReasoning(reasoningText(item, path));
        return;
      case 'item_reference':
        throw new Error(`${path}.type: item references need stored responses, which this channel does not keep`);
      default:
        if (typeof type === 'string' && BUILT_IN_ITEMS.has(type)) {
          throw new Error(`${path}.type: "${type}" items belong to built-in tools, which this channel cannot run`);
        }
        throw new Error(`${path}.type: unsupported input item "${String(type)}"`);
    }
  });
}
