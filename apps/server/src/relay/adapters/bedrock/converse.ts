import { TOOL_ERROR_MARK } from '../anthropic/adapter.js';
import { isRecord, num, parseDataUrl } from '../anthropic/common.js';
import type {
  AdapterContext,
  ChatChunk,
  ChatCompletion,
  ChatFilePart,
  ChatMessage,
  ChatRequest,
  ChatToolCall,
  ChatUsage,
  FinishReason,
  Json,
  StreamDecoder,
} from '../types.js';
import { EventStreamSplitter, payloadJson, streamFailure } from './eventstream.js';

/**
 * OpenAI chat completions → the Bedrock Converse API (`POST /model/<id>/converse`,
 * `/converse-stream`) and back, for every model that is not Claude.
 *
 * Documented choices:
 * - System and developer messages anywhere go to `system` as text blocks. Consecutive turns of one
 *   role are merged (Converse wants user and assistant to alternate); tool results are user turns
 *   holding `toolResult` blocks, first in their turn.
 * - Images and documents must be inline (base64 data URLs): Converse takes bytes or S3 locations,
 *   not web URLs, and this translation fetches nothing. An https image URL is refused by naming
 *   the field.
 * - `tool_choice`: auto → `{auto:{}}`, required → `{any:{}}`, a function → `{tool:{name}}`. Converse
 *   has no "none": the tools are left out, unless the conversation already holds tool calls or
 *   results (Converse then demands `toolConfig`), where they stay with no `toolChoice`.
 * - `top_k` (when the client sends it) goes in `additionalModelRequestFields`, the only place
 *   Converse takes model-specific parameters. Dropped, for Converse has no equivalent: n, seed,
 *   presence/frequency penalties, response_format, parallel_tool_calls, reasoning_effort (thinking
 *   switches are model-specific), and assistant `reasoning_content` (no signature to send it with).
 * - Usage: Converse's `inputTokens` leaves out cache reads and writes, so the prompt is the sum of
 *   the three, as with Anthropic.
 */

type Block = Json;
interface Turn {
  role: 'user' | 'assistant';
  content: Block[];
}

const IMAGE_FORMATS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const DOCUMENT_FORMATS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

function imageBlock(url: string, path: string): Block {
  const data = parseDataUrl(url);
  if (!data) {
    throw new Error(`${path}.image_url.url: Bedrock takes images as base64 data URLs only, not web URLs`);
  }
  const format = IMAGE_FORMATS[data.mediaType];
  if (!format)
    throw new Error(`${path}.image_url.url: Bedrock takes png, jpeg, gif or webp images, not ${data.mediaType}`);
  return { image: { format, source: { bytes: data.data } } };
}

/** Converse document names: letters, digits, single spaces, hyphens, parentheses, brackets. */
function documentName(filename: unknown, fallback: string): string {
  if (typeof filename !== 'string') return fallback;
  const cleaned = filename
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9\s\-()[\]]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned || fallback;
}

function documentBlock(part: ChatFilePart, path: string, index: number): Block {
  const file: Json = isRecord(part.file) ? part.file : {};
  const data = typeof file.file_data === 'string' ? parseDataUrl(file.file_data) : undefined;
  if (!data) throw new Error(`${path}.file: only inline files (file_data as a base64 data URL) can be sent to Bedrock`);
  const format = DOCUMENT_FORMATS[data.mediaType];
  if (!format) throw new Error(`${path}.file: Bedrock does not take ${data.mediaType} documents`);
  return {
    document: { format, name: documentName(file.filename, `document-${index + 1}`), source: { bytes: data.data } },
  };
}

/** User or tool-result content → Converse blocks (empty text left out: Converse refuses blank text). */
function contentBlocks(content: ChatMessage['content'], path: string): Block[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) throw new Error(`${path}: a string or a list of parts is required`);
  const blocks: Block[] = [];
  content.forEach((item, index) => {
    const at = `${path}[${index}]`;
    const part: unknown = item;
    if (!isRecord(part)) throw new Error(`${at}: a content part object is required`);
    switch (part.type) {
      case 'text':
        if (typeof part.text !== 'string') throw new Error(`${at}.text: a string is required`);
        if (part.text) blocks.push({ text: part.text });
        break;
      case 'image_url': {
        const url = isRecord(part.image_url) ? part.image_url.url : undefined;
        if (typeof url !== 'string') throw new Error(`${at}.image_url.url: a string is required`);
        blocks.push(imageBlock(url, at));
        break;
      }
      case 'file':
        blocks.push(documentBlock(part as unknown as ChatFilePart, at, index));
        break;
      case 'input_audio':
        throw new Error(`${at}: the Converse API does not take audio input`);
      default:
        throw new Error(`${at}.type: unsupported content part "${String(part.type)}"`);
    }
  });
  return blocks;
}

function systemBlocks(message: ChatMessage, path: string): Block[] {
  const blocks = contentBlocks(message.content, `${path}.content`);
  for (const [index, block] of blocks.entries()) {
    if (typeof block.text !== 'string')
      throw new Error(`${path}.content[${index}]: a system message can only hold text`);
  }
  return blocks;
}

function parseArguments(text: string): Json {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function assistantBlocks(message: ChatMessage, path: string): Block[] {
  const blocks: Block[] = [];
  const { content } = message;
  if (typeof content === 'string') {
    if (content) blocks.push({ text: content });
  } else if (Array.isArray(content)) {
    content.forEach((part, index) => {
      const loose = part as unknown as Json;
      if (loose.type === 'text' && typeof loose.text === 'string') {
        if (loose.text) blocks.push({ text: loose.text });
      } else if (loose.type === 'refusal' && typeof loose.refusal === 'string') {
        if (loose.refusal) blocks.push({ text: loose.refusal });
      } else {
        throw new Error(`${path}.content[${index}].type: an assistant message can only hold text`);
      }
    });
  } else if (content !== null && content !== undefined) {
    throw new Error(`${path}.content: a string or a list of parts is required`);
  }
  if (blocks.length === 0 && typeof message.refusal === 'string' && message.refusal) {
    blocks.push({ text: message.refusal });
  }
  const calls = message.tool_calls ?? [];
  if (!Array.isArray(calls)) throw new Error(`${path}.tool_calls: a list is required`);
  calls.forEach((call, index) => {
    const at = `${path}.tool_calls[${index}]`;
    if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== 'string') {
      throw new Error(`${at}.function.name: a string is required`);
    }
    if (typeof call.id !== 'string' || !call.id) throw new Error(`${at}.id: a string is required`);
    const args = call.function.arguments;
    blocks.push({
      toolUse: {
        toolUseId: call.id,
        name: call.function.name,
        input: typeof args === 'string' ? parseArguments(args) : isRecord(args) ? args : {},
      },
    });
  });
  return blocks;
}

function toolResultBlock(message: ChatMessage, path: string): Block {
  if (typeof message.tool_call_id !== 'string' || !message.tool_call_id) {
    throw new Error(`${path}.tool_call_id: a string is required`);
  }
  let content = contentBlocks(message.content, `${path}.content`);
  let failed = false;
  const first = content[0];
  if (first && typeof first.text === 'string' && first.text.startsWith(TOOL_ERROR_MARK)) {
    const rest = first.text.slice(TOOL_ERROR_MARK.length);
    content = rest ? [{ text: rest }, ...content.slice(1)] : content.slice(1);
    failed = true;
  }
  for (const [index, block] of content.entries()) {
    if (block.document) throw new Error(`${path}.content[${index}]: a tool result can hold text and images only`);
  }
  return {
    toolResult: { toolUseId: message.tool_call_id, content, ...(failed ? { status: 'error' } : {}) },
  };
}

function addTurn(turns: Turn[], role: Turn['role'], content: Block[]): void {
  if (content.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === role) last.content.push(...content);
  else turns.push({ role, content: [...content] });
}

export function converseMessages(messages: ChatMessage[]): { system: Block[]; messages: Turn[] } {
  if (!Array.isArray(messages)) throw new Error('messages: a list of messages is required');
  const system: Block[] = [];
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isRecord(message)) throw new Error(`${path}: a message object is required`);
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...systemBlocks(message, path));
        break;
      case 'user':
        addTurn(turns, 'user', contentBlocks(message.content, `${path}.content`));
        break;
      case 'assistant':
        addTurn(turns, 'assistant', assistantBlocks(message, path));
        break;
      case 'tool':
        addTurn(turns, 'user', [toolResultBlock(message, path)]);
        break;
      default:
        throw new Error(`${path}.role: unsupported role "${String(message.role)}"`);
    }
  });
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    const results = turn.content.filter((block) => block.toolResult);
    if (results.length > 0) turn.content = [...results, ...turn.content.filter((block) => !block.toolResult)];
  }
  if (turns.length === 0) {
    if (system.length === 0) throw new Error('messages: at least one user or assistant message is required');
    return { system: [], messages: [{ role: 'user', content: system }] };
  }
  return { system, messages: turns };
}

function converseTools(request: ChatRequest): Json[] | undefined {
  if (request.tools === undefined || request.tools === null) return undefined;
  if (!Array.isArray(request.tools)) throw new Error('tools: a list is required');
  if (request.tools.length === 0) return undefined;
  return request.tools.map((tool, index) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== 'string' || !fn.name) {
      throw new Error(`tools[${index}].function.name: a string is required`);
    }
    return {
      toolSpec: {
        name: fn.name,
        ...(typeof fn.description === 'string' && fn.description ? { description: fn.description } : {}),
        inputSchema: { json: isRecord(fn.parameters) ? fn.parameters : { type: 'object', properties: {} } },
      },
    };
  });
}

function converseToolChoice(choice: ChatRequest['tool_choice']): Json | 'none' | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto') return { auto: {} };
  if (choice === 'required') return { any: {} };
  if (choice === 'none') return 'none';
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { tool: { name: choice.function.name } };
  }
  throw new Error('tool_choice: "none", "auto", "required" or {type:"function", function:{name}} is required');
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;

export function buildConverseBody(request: ChatRequest): Json {
  const { system, messages } = converseMessages(request.messages);
  const body: Json = { messages };
  if (system.length > 0) body.system = system;

  const inference: Json = {};
  const maxTokens = positive(request.max_completion_tokens) ?? positive(request.max_tokens);
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  if (typeof request.temperature === 'number') inference.temperature = request.temperature;
  if (typeof request.top_p === 'number') inference.topP = request.top_p;
  if (request.stop !== undefined && request.stop !== null) {
    const list = (Array.isArray(request.stop) ? request.stop : [request.stop]).filter(
      (item): item is string => typeof item === 'string' && item !== '',
    );
    if (list.length > 0) inference.stopSequences = list;
  }
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;

  const tools = converseTools(request);
  const choice = converseToolChoice(request.tool_choice);
  if (tools) {
    const holdsToolBlocks = messages.some((turn) => turn.content.some((block) => block.toolUse || block.toolResult));
    if (choice !== 'none') body.toolConfig = { tools, ...(choice ? { toolChoice: choice } : {}) };
    else if (holdsToolBlocks) body.toolConfig = { tools };
  }
  if (typeof request.top_k === 'number') body.additionalModelRequestFields = { top_k: request.top_k };
  return body;
}

// ---- answers ----

/** Converse `stopReason` → OpenAI `finish_reason`. */
export function finishFromConverse(reason: unknown): FinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, and reasons added later.
      return 'stop';
  }
}

/** Converse `usage` → OpenAI usage; `inputTokens` excludes the cached parts, the prompt includes them. */
export function usageFromConverse(usage: Json): ChatUsage {
  const cacheRead = num(usage.cacheReadInputTokens);
  const cacheWrite = num(usage.cacheWriteInputTokens);
  const prompt = num(usage.inputTokens) + cacheRead + cacheWrite;
  const completion = num(usage.outputTokens);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cacheRead, cached_write_tokens: cacheWrite },
  };
}

export function completionFromConverse(answer: Json, context: AdapterContext): ChatCompletion {
  const output = isRecord(answer.output) ? answer.output : undefined;
  const message = output && isRecord(output.message) ? output.message : undefined;
  if (!message || !Array.isArray(message.content)) {
    throw new Error("the upstream's answer has no output.message.content");
  }
  const texts: string[] = [];
  const thoughts: string[] = [];
  const calls: ChatToolCall[] = [];
  for (const block of message.content) {
    if (!isRecord(block)) continue;
    if (typeof block.text === 'string') texts.push(block.text);
    else if (isRecord(block.toolUse)) {
      const use = block.toolUse;
      calls.push({
        id: String(use.toolUseId ?? ''),
        type: 'function',
        function: { name: String(use.name ?? ''), arguments: JSON.stringify(use.input ?? {}) },
      });
    } else if (isRecord(block.reasoningContent) && isRecord(block.reasoningContent.reasoningText)) {
      const text = block.reasoningContent.reasoningText.text;
      if (typeof text === 'string') thoughts.push(text);
    }
    // redacted reasoning, citations, guard content: no OpenAI equivalent.
  }
  const completion: ChatCompletion = {
    id: context.responseId,
    object: 'chat.completion',
    created: context.now,
    model: context.upstreamModel,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: texts.length > 0 ? texts.join('') : null,
          ...(thoughts.length > 0 ? { reasoning_content: thoughts.join('') } : {}),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finishFromConverse(answer.stopReason),
      },
    ],
  };
  if (isRecord(answer.usage)) completion.usage = usageFromConverse(answer.usage);
  return completion;
}

// ---- streams ----

/**
 * ConverseStream events → OpenAI chunks: `messageStart` (role), `contentBlockStart` (a tool call's
 * id and name), `contentBlockDelta` (text, tool input JSON, reasoning text), `messageStop` (finish
 * reason) and `metadata` (usage, after the stop). Exception messages throw.
 */
export function converseStreamDecoder(context: AdapterContext): StreamDecoder {
  const splitter = new EventStreamSplitter();
  let started = false;
  let stopped = false;
  let pendingUsage: ChatUsage | undefined;
  let usageSent = false;
  let toolCount = 0;
  /** Converse block index → tool-call index. */
  const toolIndex = new Map<number, number>();

  const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: FinishReason | null = null): ChatChunk => ({
    id: context.responseId,
    object: 'chat.completion.chunk',
    created: context.now,
    model: context.upstreamModel,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const usageChunk = (usage: ChatUsage): ChatChunk => ({
    id: context.responseId,
    object: 'chat.completion.chunk',
    created: context.now,
    model: context.upstreamModel,
    choices: [],
    usage,
  });
  const opening = (out: ChatChunk[]) => {
    if (started) return;
    started = true;
    out.push(chunk({ role: 'assistant', content: '' }));
  };
  const callFor = (block: number, out: ChatChunk[], use: Json): number => {
    let call = toolIndex.get(block);
    if (call === undefined) {
      call = toolCount;
      toolCount += 1;
      toolIndex.set(block, call);
      out.push(
        chunk({
          tool_calls: [
            {
              index: call,
              id: String(use.toolUseId ?? ''),
              type: 'function',
              function: { name: String(use.name ?? ''), arguments: '' },
            },
          ],
        }),
      );
    }
    return call;
  };

  const handle = (type: string, event: Json, out: ChatChunk[]) => {
    switch (type) {
      case 'messageStart':
        opening(out);
        break;
      case 'contentBlockStart': {
        opening(out);
        const start = isRecord(event.start) ? event.start : {};
        if (isRecord(start.toolUse)) callFor(num(event.contentBlockIndex), out, start.toolUse);
        break;
      }
      case 'contentBlockDelta': {
        opening(out);
        const delta = isRecord(event.delta) ? event.delta : {};
        if (typeof delta.text === 'string') {
          if (delta.text) out.push(chunk({ content: delta.text }));
        } else if (isRecord(delta.toolUse)) {
          const input = delta.toolUse.input;
          const call = toolIndex.get(num(event.contentBlockIndex));
          if (call !== undefined && typeof input === 'string' && input) {
            out.push(chunk({ tool_calls: [{ index: call, function: { arguments: input } }] }));
          }
        } else if (isRecord(delta.reasoningContent)) {
          const text = delta.reasoningContent.text;
          if (typeof text === 'string' && text) out.push(chunk({ reasoning_content: text }));
          // signature and redactedContent have no OpenAI equivalent.
        }
        break;
      }
      case 'messageStop':
        if (stopped) break;
        opening(out);
        stopped = true;
        out.push(chunk({}, finishFromConverse(event.stopReason)));
        if (pendingUsage && !usageSent) {
          usageSent = true;
          out.push(usageChunk(pendingUsage));
        }
        break;
      case 'metadata':
        if (!isRecord(event.usage) || usageSent) break;
        pendingUsage = usageFromConverse(event.usage);
        if (stopped) {
          usageSent = true;
          out.push(usageChunk(pendingUsage));
        }
        break;
      default:
        // contentBlockStop and event types added later carry nothing to translate.
        break;
    }
  };

  return {
    push(bytes) {
      const out: ChatChunk[] = [];
      for (const message of splitter.push(bytes)) {
        if (message.kind !== 'event') throw streamFailure(message);
        handle(message.type, payloadJson(message), out);
      }
      return out;
    },
    end() {
      splitter.finish();
      if (!stopped) throw new Error('the upstream stream ended before the message was complete');
      return [];
    },
  };
}
