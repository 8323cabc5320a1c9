import {
  assistantTexts,
  assistantToolUses,
  functionTools,
  partBlocks,
  positive,
  readMessages,
  readToolChoice,
  stopSequences,
  toolResultsFirst,
} from '../block-messages.js';
import type { ChatFilePart, ChatMessage, ChatRequest, Json, TranslationSettings } from '../types.js';
import { EFFORT_BUDGETS, isRecord, parseDataUrl, thinkingBudgetOf } from './common.js';

/** The Anthropic Messages request built from a chat request (see adapter.ts for the choices). */

const THINKING_SUFFIX = '#thinking';
export const TOOL_ERROR_MARK = '[tool error] ';

/**
 * `max_tokens` when the client sets none: the model's entry of ClaudeDefaultMaxTokens, else its
 * `default` (8192). The Claude 3 family answers at most 4096 tokens, so `default` is capped there
 * for it; an entry naming the model is sent as it is.
 */
export function defaultMaxTokens(model: string, settings?: TranslationSettings): number {
  const configured = settings?.claudeDefaultMaxTokens;
  const own = configured?.[model];
  if (own) return own;
  const fallback = configured?.default ?? 8192;
  return /claude-3-(?:opus|sonnet|haiku)/.test(model) ? Math.min(fallback, 4096) : fallback;
}

/** Anthropic's smallest thinking budget. */
const MIN_BUDGET = 1024;
const DEFAULT_BUDGET_SHARE = 0.8;

/** The share of max_tokens an effort gives to thinking (low 20 %, medium 50 %, else the setting). */
function effortShare(effort: string | undefined, settings: TranslationSettings | undefined): number {
  if (effort === 'minimal' || effort === 'low') return 0.2;
  if (effort === 'medium') return 0.5;
  return settings?.claudeBudgetShare ?? DEFAULT_BUDGET_SHARE;
}

/** The request's thinking budget, or undefined when thinking stays off. */
function thinkingBudget(
  request: ChatRequest,
  model: string,
  suffixThinking: boolean,
  maxTokens: number,
  settings: TranslationSettings | undefined,
): number | undefined {
  const exact = thinkingBudgetOf(request);
  if (exact !== undefined && (suffixThinking || canThink(model))) return exact;
  const reasoning = isRecord(request.reasoning) ? request.reasoning : undefined;
  const named = request.reasoning_effort ?? (typeof reasoning?.effort === 'string' ? reasoning.effort : undefined);
  if (!suffixThinking && (named === 'none' || reasoning?.enabled === false)) return undefined;
  const effort = named && named in EFFORT_BUDGETS ? named : undefined;
  if (!suffixThinking && !(canThink(model) && (effort || reasoning))) return undefined;
  const asked = typeof reasoning?.max_tokens === 'number' ? Math.trunc(reasoning.max_tokens) : undefined;
  if (asked !== undefined && asked >= MIN_BUDGET && asked <= maxTokens) return asked;
  return Math.max(MIN_BUDGET, Math.floor(maxTokens * effortShare(effort, settings)));
}

function canThink(model: string): boolean {
  return !/claude-(?:instant|2(?:\.\d)?(?:-|$)|3-(?:5-)?(?:opus|sonnet|haiku))/.test(model);
}

type Block = Json;
interface Turn {
  role: 'user' | 'assistant';
  content: string | Block[];
}

const asBlocks = (content: string | Block[]): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

function cacheControl(part: unknown): Json {
  return isRecord(part) && isRecord(part.cache_control) ? { cache_control: part.cache_control } : {};
}

function imageBlock(url: string, path: string): Block {
  const data = parseDataUrl(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data.mediaType, data: data.data } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw new Error(`${path}.image_url.url: an https URL or a base64 data URL is required`);
}

function fileBlock(part: ChatFilePart, path: string): Block {
  const file: Json = isRecord(part.file) ? part.file : {};
  const data = typeof file.file_data === 'string' ? parseDataUrl(file.file_data) : undefined;
  if (!data)
    throw new Error(`${path}.file: only inline files (file_data as a base64 data URL) can be sent to Anthropic`);
  const title = typeof file.filename === 'string' && file.filename ? { title: file.filename } : {};
  if (data.mediaType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: data.data }, ...title };
  }
  if (data.mediaType === 'text/plain') {
    const text = Buffer.from(data.data, 'base64').toString('utf8');
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...title };
  }
  throw new Error(`${path}.file: Anthropic takes PDF and plain-text documents, not ${data.mediaType}`);
}

/** User (or tool-result) content parts → Anthropic blocks. */
function contentBlocks(content: ChatMessage['content'], path: string): string | Block[] {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return partBlocks(content, path, {
    text: (text, part) => ({ type: 'text', text, ...cacheControl(part) }),
    image: (url, part, at) => ({ ...imageBlock(url, at), ...cacheControl(part) }),
    file: (part, at) => ({ ...fileBlock(part, at), ...cacheControl(part) }),
    noAudio: 'Anthropic does not take audio input',
  });
}

function systemBlocks(message: ChatMessage, path: string): Block[] {
  const content = contentBlocks(message.content, `${path}.content`);
  const blocks = asBlocks(content).filter((block) => !(block.type === 'text' && block.text === ''));
  for (const [index, block] of blocks.entries()) {
    if (block.type !== 'text') throw new Error(`${path}.content[${index}]: a system message can only hold text`);
  }
  return blocks;
}

function assistantContent(message: ChatMessage, path: string): string | Block[] {
  const blocks: Block[] = assistantTexts(message, path).map(({ text, part }) => ({
    type: 'text',
    text,
    ...cacheControl(part),
  }));
  const calls = assistantToolUses(message, path);
  for (const { id, name, input } of calls) blocks.push({ type: 'tool_use', id, name, input });
  // A lone string stays a string, as the client wrote it.
  if (calls.length === 0 && typeof message.content === 'string') return message.content;
  return blocks;
}

function toolResult(message: ChatMessage, path: string): Block {
  if (typeof message.tool_call_id !== 'string' || !message.tool_call_id) {
    throw new Error(`${path}.tool_call_id: a string is required`);
  }
  let content = contentBlocks(message.content, `${path}.content`);
  let isError = false;
  if (typeof content === 'string' && content.startsWith(TOOL_ERROR_MARK)) {
    content = content.slice(TOOL_ERROR_MARK.length);
    isError = true;
  } else if (Array.isArray(content)) {
    const first = content[0];
    if (first?.type === 'text' && typeof first.text === 'string' && first.text.startsWith(TOOL_ERROR_MARK)) {
      const rest = first.text.slice(TOOL_ERROR_MARK.length);
      content = rest ? [{ ...first, text: rest }, ...content.slice(1)] : content.slice(1);
      isError = true;
    }
  }
  const empty = typeof content === 'string' ? content === '' : content.length === 0;
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id,
    ...(empty ? {} : { content }),
    ...(isError ? { is_error: true } : {}),
  };
}

function addTurn(turns: Turn[], role: Turn['role'], content: string | Block[]): void {
  if (typeof content === 'string' ? content === '' : content.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === role) {
    last.content = [...asBlocks(last.content), ...asBlocks(content)];
  } else {
    turns.push({ role, content });
  }
}

interface Converted {
  system: string | Block[] | undefined;
  messages: Turn[];
}

export function convertMessages(messages: ChatMessage[]): Converted {
  const system: Block[] = [];
  let systemMessages = 0;
  let lonelySystemText: string | undefined;
  const turns: Turn[] = [];
  readMessages(messages, {
    system(message, path) {
      systemMessages += 1;
      lonelySystemText = typeof message.content === 'string' ? message.content : undefined;
      system.push(...systemBlocks(message, path));
    },
    user: (message, path) => addTurn(turns, 'user', contentBlocks(message.content, `${path}.content`)),
    assistant: (message, path) => addTurn(turns, 'assistant', assistantContent(message, path)),
    tool: (message, path) => addTurn(turns, 'user', [toolResult(message, path)]),
  });
  // Anthropic wants a user turn's tool results before anything else in it.
  for (const turn of turns) {
    if (turn.role !== 'user' || typeof turn.content === 'string') continue;
    turn.content = toolResultsFirst(turn.content, (block) => block.type === 'tool_result');
  }
  let systemOut: string | Block[] | undefined;
  if (system.length > 0) {
    systemOut = systemMessages === 1 && lonelySystemText !== undefined ? lonelySystemText : system;
  }
  if (turns.length === 0) {
    if (systemOut === undefined) throw new Error('messages: at least one user or assistant message is required');
    return { system: undefined, messages: [{ role: 'user', content: systemOut }] };
  }
  return { system: systemOut, messages: turns };
}

function convertToolChoice(request: ChatRequest): Json | undefined {
  const choice = readToolChoice(request.tool_choice);
  const noParallel = request.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) {
    return request.parallel_tool_calls === false ? { type: 'auto', ...noParallel } : undefined;
  }
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (choice === 'none') return { type: 'none' };
  return { type: 'tool', name: choice.name, ...noParallel };
}

function convertTools(request: ChatRequest): Json[] | undefined {
  return functionTools(request.tools)?.map(({ tool, name, description, parameters }) => ({
    name,
    ...(description !== undefined ? { description } : {}),
    input_schema: parameters,
    ...cacheControl(tool),
  }));
}

/** The last assistant turn called tools: Anthropic would demand its (signed) thinking block back. */
function inToolLoop(messages: ChatMessage[]): boolean {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'assistant') return Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
  }
  return false;
}

export function buildAnthropicBody(
  request: ChatRequest,
  upstreamModel: string,
  stream: boolean,
  settings?: TranslationSettings,
): Json {
  let model = upstreamModel;
  let suffixThinking = false;
  if (model.endsWith(THINKING_SUFFIX)) {
    model = model.slice(0, -THINKING_SUFFIX.length);
    suffixThinking = true;
  }
  const { system, messages } = convertMessages(request.messages);
  const tools = convertTools(request);
  const toolChoice = tools ? convertToolChoice(request) : undefined;

  let maxTokens =
    positive(request.max_completion_tokens) ?? positive(request.max_tokens) ?? defaultMaxTokens(model, settings);
  let budget = thinkingBudget(request, model, suffixThinking, maxTokens, settings);
  const forcedTool = toolChoice?.type === 'any' || toolChoice?.type === 'tool';
  if (budget !== undefined && (forcedTool || inToolLoop(request.messages))) budget = undefined;
  if (budget !== undefined && maxTokens <= budget) maxTokens = budget + 4096;

  const body: Json = { model, max_tokens: maxTokens };
  if (system !== undefined) body.system = system;
  body.messages = messages;
  if (tools) body.tools = tools;
  if (toolChoice) body.tool_choice = toolChoice;
  const stops = stopSequences(request.stop);
  if (stops.length > 0) body.stop_sequences = stops;
  if (budget !== undefined) {
    body.thinking = { type: 'enabled', budget_tokens: budget };
  } else {
    if (typeof request.temperature === 'number') body.temperature = request.temperature;
    if (typeof request.top_p === 'number') body.top_p = request.top_p;
    if (typeof request.top_k === 'number') body.top_k = request.top_k;
  }
  if (typeof request.user === 'string' && request.user) body.metadata = { user_id: request.user };
  if (stream) body.stream = true;
  return body;
}
