import type { ChatRequest, ChatTool, ChatToolChoice, Json } from '../types.js';
import { DEFAULT_ECHO, isRecord, present, type ResponsesEcho, requiredString, setEcho } from './common.js';
import { Conversation, convertInput } from './input.js';

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

function optionalNumber(body: Json, field: string): number | undefined {
  const value = body[field];
  if (!present(value)) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${field}: a number is required`);
  return value;
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
