import { fieldError } from '../../../platform/errors.js';
import { readMessages } from '../block-messages.js';
import { hasNonTextParts, type TextImageBuilders, textImageParts, textOnly } from '../text-parts.js';
import type { ChatMessage, ChatRequest, ChatTool, Json } from '../types.js';
import { isRecord } from '../values.js';

/**
 * OpenAI chat → Hunyuan `ChatCompletions` (API 2023-09-01). Hunyuan's fields are PascalCase:
 * `Messages` of `{Role, Content}` (or `Contents` of text and image parts for vision models,
 * `ToolCalls` on assistant turns, `ToolCallId` on tool results), `Tools` whose `Parameters` is a
 * JSON string, `ToolChoice` none / auto / custom (with `CustomTool`), `Temperature`, `TopP`,
 * `Stop`, `Seed`, `Stream`. It takes one system message, first; several are joined into it.
 * It has no output-length or response-format setting: `max_tokens` and `response_format` are
 * not sent. Hunyuan's own switches (`enable_enhancement`, `search_info`, `citation`…) are
 * passed on when a client sends them in the OpenAI-compatible snake_case spelling.
 */

type HunyuanContent = { Type: 'text'; Text: string } | { Type: 'image_url'; ImageUrl: { Url: string } };

const hunyuanParts: TextImageBuilders<HunyuanContent> = {
  vendor: 'Hunyuan',
  text: (text) => ({ Type: 'text', Text: text }),
  image: (url) => ({ Type: 'image_url', ImageUrl: { Url: url } }),
};

/** A user turn: `Content` for text, `Contents` when images come with it. */
function userMessage(content: ChatMessage['content'], path: string): Json {
  if (hasNonTextParts(content)) return { Role: 'user', Contents: textImageParts(content, path, hunyuanParts) };
  return { Role: 'user', Content: textOnly(content, path) };
}

function assistantMessage(message: ChatMessage, path: string): Json {
  const out: Json = { Role: 'assistant' };
  const text = textOnly(message.content, `${path}.content`);
  if (text) out.Content = text;
  if (message.tool_calls?.length) {
    out.ToolCalls = message.tool_calls.map((call, index) => ({
      Id: call.id,
      Type: 'function',
      Function: { Name: call.function.name, Arguments: call.function.arguments },
      Index: index,
    }));
  } else if (!text) {
    out.Content = '';
  }
  return out;
}

export function hunyuanMessages(messages: ChatMessage[]): Json[] {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw fieldError('messages', 'a non-empty list of messages is required');
  }
  const system: string[] = [];
  const turns: Json[] = [];
  readMessages(messages, {
    system(message, path) {
      system.push(textOnly(message.content, `${path}.content`));
    },
    user(message, path) {
      turns.push(userMessage(message.content, `${path}.content`));
    },
    assistant(message, path) {
      turns.push(assistantMessage(message, path));
    },
    tool(message, path) {
      if (typeof message.tool_call_id !== 'string') throw fieldError(`${path}.tool_call_id`, 'a string is required');
      turns.push({
        Role: 'tool',
        Content: textOnly(message.content, `${path}.content`),
        ToolCallId: message.tool_call_id,
      });
    },
  });
  return system.length > 0 ? [{ Role: 'system', Content: system.join('\n\n') }, ...turns] : turns;
}

function hunyuanTool(tool: ChatTool): Json {
  const fn = tool.function;
  return {
    Type: 'function',
    Function: {
      Name: fn.name,
      Parameters: JSON.stringify(fn.parameters ?? { type: 'object', properties: {} }),
      ...(fn.description ? { Description: fn.description } : {}),
    },
  };
}

/** OpenAI's tool choice: Hunyuan has none / auto / custom (one named tool); `required` is custom when one tool exists. */
function toolChoice(request: ChatRequest, tools: Json[]): Json {
  const choice = request.tool_choice;
  if (choice === undefined) return {};
  if (choice === 'none' || choice === 'auto') return { ToolChoice: choice };
  const named = (name: string) => {
    const tool = tools.find((entry) => isRecord(entry.Function) && entry.Function.Name === name);
    if (!tool) throw fieldError('tool_choice.function.name', `no tool is named "${name}"`);
    return { ToolChoice: 'custom', CustomTool: tool };
  };
  if (choice === 'required') {
    const only = tools.length === 1 && isRecord(tools[0]?.Function) ? tools[0].Function.Name : undefined;
    return typeof only === 'string' ? named(only) : { ToolChoice: 'auto' };
  }
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return named(choice.function.name);
  }
  throw fieldError('tool_choice', '"none", "auto", "required" or {type:"function", function:{name}} is required');
}

/** Hunyuan switches a client may send in the OpenAI-compatible API's spelling, by their native names. */
const PASSED_SWITCHES: Record<string, string> = {
  enable_enhancement: 'EnableEnhancement',
  search_info: 'SearchInfo',
  citation: 'Citation',
  enable_speed_search: 'EnableSpeedSearch',
  enable_deep_search: 'EnableDeepSearch',
  force_search_enhancement: 'ForceSearchEnhancement',
  enable_recommended_questions: 'EnableRecommendedQuestions',
  stream_moderation: 'StreamModeration',
};

export function hunyuanChatBody(request: ChatRequest, model: string, stream: boolean): Json {
  const body: Json = { Model: model, Messages: hunyuanMessages(request.messages), Stream: stream };
  if (typeof request.temperature === 'number') body.Temperature = request.temperature;
  if (typeof request.top_p === 'number') body.TopP = request.top_p;
  // Hunyuan takes seeds from 1 to 10000 only.
  if (Number.isInteger(request.seed) && (request.seed as number) >= 1 && (request.seed as number) <= 10_000) {
    body.Seed = request.seed;
  }
  if (typeof request.stop === 'string') body.Stop = [request.stop];
  else if (Array.isArray(request.stop) && request.stop.length > 0) body.Stop = request.stop;
  if (Array.isArray(request.tools) && request.tools.length > 0) {
    const tools = request.tools.map(hunyuanTool);
    body.Tools = tools;
    Object.assign(body, toolChoice(request, tools));
  }
  for (const [field, native] of Object.entries(PASSED_SWITCHES)) {
    if (typeof request[field] === 'boolean') body[native] = request[field];
  }
  return body;
}
