import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  Json,
} from '../types.js';
import { effortForBudget, isRecord, setThinkingBudget } from './common.js';
import { TOOL_ERROR_MARK } from './request.js';

/** An Anthropic Messages request → the canonical chat request (see surface.ts for the choices). */

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
