import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  Json,
} from '../types.js';
import { DEFAULT_ECHO, isRecord, type ResponsesEcho, setEcho } from './common.js';

/**
 * A Responses API request (`POST /v1/responses`) → the canonical chat request. Documented choices:
 * - `instructions` is the first system message; `developer` messages become `system` messages
 *   (every chat upstream knows that role; OpenAI treats both alike).
 * - A message whose content is one text part becomes a string; several parts stay a list.
 *   Assistant history (`output_text`/`refusal` parts) is joined into one string.
 * - `function_call` items join the assistant message just before them (text then calls, as a
 *   Responses answer lists them), else open an assistant message of their own: parallel calls
 *   become one message with several `tool_calls`. `function_call_output` items become `tool`
 *   messages.
 * - `reasoning` items: their readable text (summary or reasoning text) goes to the
 *   `reasoning_content` of the next assistant message, which DeepSeek-style thinking models need
 *   back in tool loops; encrypted content is dropped, and a reasoning item that no assistant item
 *   follows is dropped.
 * - Refused with a 400 naming the field: `previous_response_id`, `conversation`, `prompt` and
 *   `background: true` (no stored responses here), item references, file ids, file URLs,
 *   built-in tools (web search, file search, computer use, code interpreter, MCP, custom…) and
 *   their call items: a chat upstream cannot run them.
 * - Ignored: `store`, `include`, `truncation`, `service_tier`, `prompt_cache_key`,
 *   `max_tool_calls`, `top_logprobs`, `stream_options`, `text.verbosity`, `reasoning.summary`
 *   and `reasoning.effort: "none"` (the canonical request cannot say "no reasoning").
 * - `user` is kept as the chat `user`; `metadata` and the other fields a response repeats are kept
 *   aside (symbol key, never sent upstream) for the answer.
 */

type Effort = NonNullable<ChatRequest['reasoning_effort']>;

const EFFORTS: Record<string, Effort | undefined> = {
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  // Above the canonical scale: the highest it has.
  xhigh: 'high',
};

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

const present = (value: unknown): boolean => value !== undefined && value !== null;

function requiredString(value: unknown, path: string): string {
  if (typeof value !== 'string' || !value) throw new Error(`${path}: a non-empty string is required`);
  return value;
}

function optionalNumber(body: Json, field: string): number | undefined {
  const value = body[field];
  if (!present(value)) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${field}: a number is required`);
  return value;
}

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

class Conversation {
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

function convertInput(input: unknown, conversation: Conversation): void {
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

// ---- tools ----

function convertTools(tools: unknown): ChatTool[] | undefined {
  if (!present(tools)) return undefined;
  if (!Array.isArray(tools)) throw new Error('tools: a list is required');
  return tools.map((tool, index) => {
    const path = `tools[${index}]`;
    if (!isRecord(tool)) throw new Error(`${path}: a tool object is required`);
    if (tool.type !== 'function') {
      throw new Error(
        `${path}.type: built-in tool "${String(tool.type)}" cannot be served by this channel (its upstream has no Responses API); only function tools can be translated`,
      );
    }
    const name = requiredString(tool.name, `${path}.name`);
    if (present(tool.parameters) && !isRecord(tool.parameters)) {
      throw new Error(`${path}.parameters: a JSON schema object is required`);
    }
    if (present(tool.strict) && typeof tool.strict !== 'boolean')
      throw new Error(`${path}.strict: a boolean is required`);
    return {
      type: 'function',
      function: {
        name,
        ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
        ...(isRecord(tool.parameters) ? { parameters: tool.parameters } : {}),
        ...(typeof tool.strict === 'boolean' ? { strict: tool.strict } : {}),
      },
    };
  });
}

/** `allowed_tools` narrows the tool list to the allowed functions; its mode is the choice. */
function convertToolChoice(
  choice: unknown,
  tools: ChatTool[] | undefined,
): { choice: ChatToolChoice; tools?: ChatTool[] } | undefined {
  if (!present(choice)) return undefined;
  if (choice === 'none' || choice === 'auto' || choice === 'required') return { choice };
  if (!isRecord(choice)) throw new Error('tool_choice: "none", "auto", "required" or an object is required');
  if (choice.type === 'function') {
    return { choice: { type: 'function', function: { name: requiredString(choice.name, 'tool_choice.name') } } };
  }
  if (choice.type === 'allowed_tools') {
    if (choice.mode !== 'auto' && choice.mode !== 'required') {
      throw new Error('tool_choice.mode: "auto" or "required" is required');
    }
    if (!Array.isArray(choice.tools)) throw new Error('tool_choice.tools: a list is required');
    const names = new Set(
      choice.tools.map((tool, index) => {
        const path = `tool_choice.tools[${index}]`;
        if (!isRecord(tool) || tool.type !== 'function') {
          throw new Error(`${path}.type: only function tools can be allowed on this channel`);
        }
        return requiredString(tool.name, `${path}.name`);
      }),
    );
    return { choice: choice.mode, tools: (tools ?? []).filter((tool) => names.has(tool.function.name)) };
  }
  throw new Error(
    `tool_choice.type: "${String(choice.type)}" names a built-in tool, which this channel cannot run; use "function" or "allowed_tools"`,
  );
}

// ---- the rest ----

function responseFormat(text: unknown): ChatRequest['response_format'] | undefined {
  if (!present(text)) return undefined;
  if (!isRecord(text)) throw new Error('text: an object is required');
  const format = text.format;
  if (!present(format)) return undefined;
  if (!isRecord(format)) throw new Error('text.format: an object is required');
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const name = requiredString(format.name, 'text.format.name');
      if (!isRecord(format.schema)) throw new Error('text.format.schema: a JSON schema object is required');
      if (present(format.strict) && typeof format.strict !== 'boolean') {
        throw new Error('text.format.strict: a boolean is required');
      }
      return {
        type: 'json_schema',
        json_schema: {
          name,
          schema: format.schema,
          ...(typeof format.description === 'string' ? { description: format.description } : {}),
          ...(typeof format.strict === 'boolean' ? { strict: format.strict } : {}),
        },
      };
    }
    default:
      throw new Error('text.format.type: "text", "json_object" or "json_schema" is required');
  }
}

function reasoningEffort(reasoning: unknown): { effort?: Effort; echo: ResponsesEcho['reasoning'] } {
  if (!present(reasoning)) return { echo: DEFAULT_ECHO.reasoning };
  if (!isRecord(reasoning)) throw new Error('reasoning: an object is required');
  const { effort, summary } = reasoning;
  const echo = {
    effort: typeof effort === 'string' ? effort : null,
    summary: typeof summary === 'string' ? summary : null,
  };
  if (!present(effort) || effort === 'none') return { echo };
  const mapped = typeof effort === 'string' ? EFFORTS[effort] : undefined;
  if (!mapped) throw new Error('reasoning.effort: "none", "minimal", "low", "medium", "high" or "xhigh" is required');
  return { effort: mapped, echo };
}

function refuseStored(body: Json): void {
  if (present(body.previous_response_id) && body.previous_response_id !== '') {
    throw new Error(
      'previous_response_id: this channel keeps no stored responses; send the whole conversation in input (with store: false)',
    );
  }
  if (present(body.conversation)) {
    throw new Error('conversation: this channel keeps no stored conversations; send the whole conversation in input');
  }
  if (present(body.prompt)) {
    throw new Error('prompt: stored prompt templates are not available on this channel; send instructions and input');
  }
  if (body.background === true) {
    throw new Error('background: background responses need stored responses, which this channel does not keep');
  }
}

export function responsesToChat(body: Json, model: string): ChatRequest {
  const requested = model || body.model;
  if (typeof requested !== 'string' || !requested) throw new Error('model: a model name is required');
  refuseStored(body);

  const conversation = new Conversation();
  const { instructions } = body;
  if (present(instructions) && typeof instructions !== 'string') throw new Error('instructions: a string is required');
  if (typeof instructions === 'string' && instructions) conversation.add({ role: 'system', content: instructions });
  if (!present(body.input)) throw new Error('input: a string or a non-empty list of input items is required');
  convertInput(body.input, conversation);

  const request: ChatRequest = { model: requested, messages: conversation.messages };
  if (present(body.stream)) {
    if (typeof body.stream !== 'boolean') throw new Error('stream: a boolean is required');
    request.stream = body.stream;
  }
  if (present(body.max_output_tokens)) {
    const max = body.max_output_tokens;
    if (typeof max !== 'number' || !Number.isInteger(max) || max <= 0) {
      throw new Error('max_output_tokens: a positive integer is required');
    }
    request.max_tokens = max;
  }
  for (const field of ['temperature', 'top_p'] as const) {
    const value = optionalNumber(body, field);
    if (value !== undefined) request[field] = value;
  }

  let tools = convertTools(body.tools);
  const choice = convertToolChoice(body.tool_choice, tools);
  if (choice) {
    request.tool_choice = choice.choice;
    if (choice.tools) tools = choice.tools;
  }
  if (choice?.tools && choice.tools.length === 0) {
    throw new Error('tool_choice.tools: none of the allowed tools is defined in tools');
  }
  if (tools && tools.length > 0) request.tools = tools;
  // Chat upstreams refuse a tool_choice without tools.
  else delete request.tool_choice;
  if (present(body.parallel_tool_calls)) {
    if (typeof body.parallel_tool_calls !== 'boolean') throw new Error('parallel_tool_calls: a boolean is required');
    request.parallel_tool_calls = body.parallel_tool_calls;
  }

  const reasoning = reasoningEffort(body.reasoning);
  if (reasoning.effort) request.reasoning_effort = reasoning.effort;
  const format = responseFormat(body.text);
  if (format) request.response_format = format;

  if (present(body.user)) {
    if (typeof body.user !== 'string') throw new Error('user: a string is required');
    if (body.user) request.user = body.user;
  }
  if (present(body.metadata) && !isRecord(body.metadata)) throw new Error('metadata: an object is required');

  setEcho(request, {
    instructions: typeof instructions === 'string' ? instructions : null,
    metadata: isRecord(body.metadata) ? body.metadata : {},
    tools: Array.isArray(body.tools) ? body.tools : [],
    tool_choice: present(body.tool_choice) ? body.tool_choice : 'auto',
    temperature: request.temperature ?? null,
    top_p: request.top_p ?? null,
    max_output_tokens: request.max_tokens ?? null,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    reasoning: reasoning.echo,
    text: isRecord(body.text) ? body.text : DEFAULT_ECHO.text,
    truncation: typeof body.truncation === 'string' ? body.truncation : 'disabled',
    store: body.store === true,
    user: request.user ?? null,
  });
  return request;
}
