import { isRecord, parseDataUrl } from '../anthropic/common.js';
import { TOOL_ERROR_MARK } from '../anthropic/request.js';
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
import type { ChatFilePart, ChatMessage, ChatRequest, Json } from '../types.js';

/** The Converse request built from a chat request (see converse.ts for the choices). */

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
  return partBlocks(content, path, {
    text: (text) => ({ text }),
    image: (url, _part, at) => imageBlock(url, at),
    file: documentBlock,
    noAudio: 'the Converse API does not take audio input',
  });
}

function systemBlocks(message: ChatMessage, path: string): Block[] {
  const blocks = contentBlocks(message.content, `${path}.content`);
  for (const [index, block] of blocks.entries()) {
    if (typeof block.text !== 'string')
      throw new Error(`${path}.content[${index}]: a system message can only hold text`);
  }
  return blocks;
}

function assistantBlocks(message: ChatMessage, path: string): Block[] {
  const blocks: Block[] = assistantTexts(message, path).map(({ text }) => ({ text }));
  for (const { id, name, input } of assistantToolUses(message, path)) {
    blocks.push({ toolUse: { toolUseId: id, name, input } });
  }
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
  const system: Block[] = [];
  const turns: Turn[] = [];
  readMessages(messages, {
    system: (message, path) => system.push(...systemBlocks(message, path)),
    user: (message, path) => addTurn(turns, 'user', contentBlocks(message.content, `${path}.content`)),
    assistant: (message, path) => addTurn(turns, 'assistant', assistantBlocks(message, path)),
    tool: (message, path) => addTurn(turns, 'user', [toolResultBlock(message, path)]),
  });
  for (const turn of turns) {
    if (turn.role === 'user') turn.content = toolResultsFirst(turn.content, (block) => Boolean(block.toolResult));
  }
  if (turns.length === 0) {
    if (system.length === 0) throw new Error('messages: at least one user or assistant message is required');
    return { system: [], messages: [{ role: 'user', content: system }] };
  }
  return { system, messages: turns };
}

function converseTools(request: ChatRequest): Json[] | undefined {
  const tools = functionTools(request.tools);
  if (!tools || tools.length === 0) return undefined;
  return tools.map(({ name, description, parameters }) => ({
    toolSpec: { name, ...(description ? { description } : {}), inputSchema: { json: parameters } },
  }));
}

function converseToolChoice(choice: ChatRequest['tool_choice']): Json | 'none' | undefined {
  const read = readToolChoice(choice);
  if (read === undefined) return undefined;
  if (read === 'auto') return { auto: {} };
  if (read === 'required') return { any: {} };
  if (read === 'none') return 'none';
  return { tool: { name: read.name } };
}

export function buildConverseBody(request: ChatRequest): Json {
  const { system, messages } = converseMessages(request.messages);
  const body: Json = { messages };
  if (system.length > 0) body.system = system;

  const inference: Json = {};
  const maxTokens = positive(request.max_completion_tokens) ?? positive(request.max_tokens);
  if (maxTokens !== undefined) inference.maxTokens = maxTokens;
  if (typeof request.temperature === 'number') inference.temperature = request.temperature;
  if (typeof request.top_p === 'number') inference.topP = request.top_p;
  const stops = stopSequences(request.stop);
  if (stops.length > 0) inference.stopSequences = stops;
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
