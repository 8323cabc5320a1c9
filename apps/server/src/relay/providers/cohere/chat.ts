import { EFFORT_BUDGETS, thinkingBudgetOf } from '../anthropic/common.js';
import { checkedToolCalls } from '../block-messages.js';
import { joinedOrNull, singleChoiceCompletion } from '../completion.js';
import type { AdapterContext, ChatCompletion, ChatMessage, ChatRequest, ChatToolCall, Json } from '../types.js';
import { finishFromCohere, isRecord, usageFromCohere } from './common.js';

/**
 * OpenAI chat completions → Cohere Chat API v2 (`POST /v2/chat`) and its whole answer back.
 *
 * Request:
 * - Roles map one to one (`developer` is sent as `system`). User content keeps its text and
 *   `image_url` parts (https or data URLs, Cohere's own shape); audio and files are refused.
 * - Assistant text that comes with tool calls is sent as `tool_plan` (Cohere's text before tool
 *   calls, which answers also carry there); `reasoning_content` is dropped.
 * - Tool results keep their text (a string, or text parts).
 * - `tool_choice`: `required` → `REQUIRED`, `none` → `NONE`, `auto` → omitted; a named function
 *   → `REQUIRED` with only that tool offered (Cohere cannot name one). `parallel_tool_calls` has
 *   no equivalent. A tool with `strict: true` sets `strict_tools`.
 * - `response_format`: `json_object` as is, `json_schema` → `json_object` with its schema.
 * - `max_completion_tokens`/`max_tokens` → `max_tokens`, `stop` → `stop_sequences`,
 *   `top_p` → `p`, `top_k` → `k`; temperature, seed and the penalties as they are.
 * - Thinking: a model suffix `#thinking` (stripped) or `reasoning_effort` (minimal 1024, low 2048,
 *   medium 8192, high 24576 tokens), or the exact budget an Anthropic client asked for, →
 *   `thinking: {type: "enabled", token_budget}`. A client's own Cohere `thinking` object is kept.
 * - Cohere-only fields a client may add (`documents`, `citation_options`, `safety_mode`) are
 *   passed on; `n`, `logprobs`, `user` and the rest are not.
 *
 * Answer: text parts → `content` (else the `tool_plan`), thinking parts → `reasoning_content`,
 * `tool_calls` as they are; COMPLETE/STOP_SEQUENCE → stop, MAX_TOKENS → length, TOOL_CALL →
 * tool_calls; ERROR is raised as an error.
 */

const THINKING_SUFFIX = '#thinking';
const PASSED_ON = ['documents', 'citation_options', 'safety_mode'] as const;

type Part = Json;

function textOf(part: Json, at: string): string {
  if (typeof part.text !== 'string') throw new Error(`${at}.text: a string is required`);
  return part.text;
}

function imagePart(part: Json, at: string): Part {
  const image = isRecord(part.image_url) ? part.image_url : undefined;
  const url = image?.url;
  if (typeof url !== 'string') throw new Error(`${at}.image_url.url: a string is required`);
  if (!/^https?:\/\//i.test(url) && !/^data:[^;,]+;base64,/i.test(url)) {
    throw new Error(`${at}.image_url.url: an https URL or a base64 data URL is required`);
  }
  const detail = image?.detail;
  return {
    type: 'image_url',
    image_url: { url, ...(detail === 'auto' || detail === 'low' || detail === 'high' ? { detail } : {}) },
  };
}

/** User content: a string stays a string, parts become Cohere parts. */
function userContent(content: ChatMessage['content'], path: string): string | Part[] {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new Error(`${path}: a string or a list of parts is required`);
  return content.map((item, index) => {
    const at = `${path}[${index}]`;
    const part: unknown = item;
    if (!isRecord(part)) throw new Error(`${at}: a content part object is required`);
    switch (part.type) {
      case 'text':
        return { type: 'text', text: textOf(part, at) };
      case 'image_url':
        return imagePart(part, at);
      case 'input_audio':
        throw new Error(`${at}: Cohere does not take audio input`);
      case 'file':
        throw new Error(`${at}: Cohere does not take files; send their text instead`);
      default:
        throw new Error(`${at}.type: unsupported content part "${String(part.type)}"`);
    }
  });
}

/** System, assistant and tool content: text only, joined. */
function plainText(content: ChatMessage['content'], path: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new Error(`${path}: a string or a list of parts is required`);
  return content
    .map((item, index) => {
      const at = `${path}[${index}]`;
      const part: unknown = item;
      if (!isRecord(part)) throw new Error(`${at}: a content part object is required`);
      if (part.type === 'text') return textOf(part, at);
      if (part.type === 'refusal' && typeof part.refusal === 'string') return part.refusal;
      throw new Error(`${at}.type: only text is allowed here, not "${String(part.type)}"`);
    })
    .join('');
}

/** The calls as Cohere takes them: OpenAI's shape, the arguments as text. */
function toolCallsOf(message: ChatMessage, path: string): Json[] {
  return checkedToolCalls(message, path).map(({ id, name, args }) => ({
    id,
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args || '{}' : JSON.stringify(args ?? {}) },
  }));
}

export function toCohereMessages(messages: ChatMessage[]): Json[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new Error('messages: a non-empty list of messages is required');
  }
  return messages.map((message, index) => {
    const path = `messages[${index}]`;
    if (!isRecord(message)) throw new Error(`${path}: a message object is required`);
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: 'system', content: plainText(message.content, `${path}.content`) };
      case 'user':
        return { role: 'user', content: userContent(message.content, `${path}.content`) };
      case 'assistant': {
        let text = plainText(message.content, `${path}.content`);
        if (!text && typeof message.refusal === 'string') text = message.refusal;
        const calls = toolCallsOf(message, path);
        if (calls.length === 0) return { role: 'assistant', content: text };
        return { role: 'assistant', ...(text ? { tool_plan: text } : {}), tool_calls: calls };
      }
      case 'tool': {
        if (typeof message.tool_call_id !== 'string' || !message.tool_call_id) {
          throw new Error(`${path}.tool_call_id: a string is required`);
        }
        return {
          role: 'tool',
          tool_call_id: message.tool_call_id,
          content: plainText(message.content, `${path}.content`),
        };
      }
      default:
        throw new Error(`${path}.role: unsupported role "${String(message.role)}"`);
    }
  });
}

function toCohereTools(request: ChatRequest): { tools: Json[]; strict: boolean } | undefined {
  if (request.tools === undefined || request.tools === null) return undefined;
  if (!Array.isArray(request.tools)) throw new Error('tools: a list is required');
  let strict = false;
  const tools = request.tools.map((tool, index) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== 'string' || !fn.name) {
      throw new Error(`tools[${index}].function.name: a string is required`);
    }
    if (fn.strict === true) strict = true;
    return {
      type: 'function',
      function: {
        name: fn.name,
        ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
        parameters: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} },
      },
    };
  });
  return tools.length > 0 ? { tools, strict } : undefined;
}

/** Cohere's `tool_choice`, and the one tool a named choice keeps. */
function toolChoiceOf(request: ChatRequest): { choice?: 'REQUIRED' | 'NONE'; only?: string } {
  const choice: unknown = request.tool_choice;
  if (choice === undefined || choice === null || choice === 'auto') return {};
  if (choice === 'required') return { choice: 'REQUIRED' };
  if (choice === 'none') return { choice: 'NONE' };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { choice: 'REQUIRED', only: choice.function.name };
  }
  throw new Error('tool_choice: "none", "auto", "required" or {type:"function", function:{name}} is required');
}

function responseFormatOf(request: ChatRequest): Json | undefined {
  const format: unknown = request.response_format;
  if (format === undefined || format === null) return undefined;
  if (!isRecord(format)) throw new Error('response_format: an object is required');
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const spec = isRecord(format.json_schema) ? format.json_schema : {};
      if (!isRecord(spec.schema)) throw new Error('response_format.json_schema.schema: an object is required');
      return { type: 'json_object', json_schema: spec.schema };
    }
    default:
      throw new Error(`response_format.type: unsupported type "${String(format.type)}"`);
  }
}

function stopSequences(stop: unknown): string[] | undefined {
  if (stop === undefined || stop === null) return undefined;
  const list = Array.isArray(stop) ? stop : [stop];
  for (const [index, item] of list.entries()) {
    if (typeof item !== 'string') throw new Error(`stop[${index}]: a string is required`);
  }
  const kept = (list as string[]).filter((item) => item !== '');
  return kept.length > 0 ? kept : undefined;
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;

function thinkingOf(request: ChatRequest, suffix: boolean): Json | undefined {
  const own: unknown = request.thinking;
  if (isRecord(own) && (own.type === 'enabled' || own.type === 'disabled')) {
    const budget = positive(own.token_budget);
    return { type: own.type, ...(own.type === 'enabled' && budget ? { token_budget: budget } : {}) };
  }
  const effort = request.reasoning_effort;
  const effortBudget = effort && effort in EFFORT_BUDGETS ? EFFORT_BUDGETS[effort] : undefined;
  const budget = thinkingBudgetOf(request) ?? effortBudget ?? (suffix ? EFFORT_BUDGETS.medium : undefined);
  return budget === undefined ? undefined : { type: 'enabled', token_budget: budget };
}

/** The Cohere v2 chat body of a canonical request. */
export function buildCohereChatBody(request: ChatRequest, upstreamModel: string, stream: boolean): Json {
  const suffix = upstreamModel.endsWith(THINKING_SUFFIX);
  const model = suffix ? upstreamModel.slice(0, -THINKING_SUFFIX.length) : upstreamModel;
  const body: Json = { model, messages: toCohereMessages(request.messages) };
  const offered = toCohereTools(request);
  const { choice, only } = offered ? toolChoiceOf(request) : {};
  if (offered) {
    const tools = only ? offered.tools.filter((tool) => (tool.function as Json).name === only) : offered.tools;
    if (only && tools.length === 0) throw new Error(`tool_choice.function.name: no tool is named "${only}"`);
    body.tools = tools;
    if (offered.strict) body.strict_tools = true;
    if (choice) body.tool_choice = choice;
  }
  const format = responseFormatOf(request);
  if (format) body.response_format = format;
  const maxTokens = positive(request.max_completion_tokens) ?? positive(request.max_tokens);
  if (maxTokens) body.max_tokens = maxTokens;
  const stops = stopSequences(request.stop);
  if (stops) body.stop_sequences = stops;
  if (typeof request.temperature === 'number') body.temperature = request.temperature;
  if (typeof request.top_p === 'number') body.p = request.top_p;
  if (typeof request.top_k === 'number') body.k = request.top_k;
  if (typeof request.seed === 'number') body.seed = request.seed;
  if (typeof request.frequency_penalty === 'number') body.frequency_penalty = request.frequency_penalty;
  if (typeof request.presence_penalty === 'number') body.presence_penalty = request.presence_penalty;
  const thinking = thinkingOf(request, suffix);
  if (thinking) body.thinking = thinking;
  for (const field of PASSED_ON) {
    if (request[field] !== undefined && request[field] !== null) body[field] = request[field];
  }
  body.stream = stream;
  return body;
}

// ---- the whole answer ----

function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args;
  return JSON.stringify(args ?? {});
}

export function toolCallOf(call: Json): ChatToolCall {
  const fn = isRecord(call.function) ? call.function : {};
  return {
    id: typeof call.id === 'string' ? call.id : '',
    type: 'function',
    function: { name: typeof fn.name === 'string' ? fn.name : '', arguments: argumentsText(fn.arguments) },
  };
}

export function completionFromCohere(answer: Json, context: AdapterContext): ChatCompletion {
  const message = answer.message;
  if (!isRecord(message)) {
    if (typeof answer.message === 'string') throw new Error(answer.message);
    throw new Error("the upstream's answer has no message");
  }
  if (answer.finish_reason === 'ERROR') {
    throw new Error('the upstream reported an error while generating (finish_reason ERROR)');
  }
  const texts: string[] = [];
  const thoughts: string[] = [];
  for (const part of Array.isArray(message.content) ? message.content : []) {
    if (!isRecord(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'thinking' && typeof part.thinking === 'string') thoughts.push(part.thinking);
  }
  const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []).filter(isRecord).map(toolCallOf);
  const plan = typeof message.tool_plan === 'string' && message.tool_plan ? message.tool_plan : undefined;
  return singleChoiceCompletion(
    context,
    context.upstreamModel.replace(/#thinking$/, ''),
    { content: joinedOrNull(texts) ?? plan ?? null, thoughts, calls },
    finishFromCohere(answer.finish_reason, calls.length > 0),
    usageFromCohere(answer.usage),
  );
}
