import type { ChatCompletion, ChatRequest, ChatUsage, Json } from '../types.js';
import {
  echoOf,
  fallbackCallId,
  idStem,
  itemId,
  type ResponseStatus,
  type ResponsesUsage,
  responseIdOf,
  statusOf,
  usageToResponses,
} from './common.js';

/**
 * The canonical whole answer → a Responses `response` object. Output items in the order a
 * Responses model writes them: reasoning (its text as one `summary_text`), the message (text,
 * then a refusal part when there is one), one `function_call` item per tool call.
 * `length` and `content_filter` make the response `incomplete` with OpenAI's reasons.
 */

export interface ResponseShell {
  id: string;
  createdAt: number;
  model: string;
  request?: ChatRequest;
}

/** The response object around an output list: the same for whole answers and every stream event. */
export function responseObject(
  shell: ResponseShell,
  state: {
    status: ResponseStatus | 'in_progress' | 'failed';
    incomplete_details: Json | null;
    error?: Json | null;
    output: Json[];
    usage: ResponsesUsage | null;
  },
): Json {
  const echo = echoOf(shell.request);
  return {
    id: shell.id,
    object: 'response',
    created_at: shell.createdAt,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incomplete_details,
    instructions: echo.instructions,
    max_output_tokens: echo.max_output_tokens,
    model: shell.model,
    output: state.output,
    output_text: outputText(state.output),
    parallel_tool_calls: echo.parallel_tool_calls,
    previous_response_id: null,
    reasoning: echo.reasoning,
    store: echo.store,
    temperature: echo.temperature,
    text: echo.text,
    tool_choice: echo.tool_choice,
    tools: echo.tools,
    top_p: echo.top_p,
    truncation: echo.truncation,
    usage: state.usage,
    user: echo.user,
    metadata: echo.metadata,
  };
}

/** The SDK's convenience field: the text of every `output_text` part of every message. */
export function outputText(output: Json[]): string {
  const texts: string[] = [];
  for (const item of output) {
    if (item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as Json[]) {
      if (part.type === 'output_text' && typeof part.text === 'string') texts.push(part.text);
    }
  }
  return texts.join('');
}

export const textPart = (text: string): Json => ({ type: 'output_text', text, annotations: [], logprobs: [] });
export const refusalPart = (refusal: string): Json => ({ type: 'refusal', refusal });
export const summaryPart = (text: string): Json => ({ type: 'summary_text', text });

export function reasoningItem(id: string, text: string): Json {
  return { id, type: 'reasoning', summary: [summaryPart(text)] };
}

export function messageItem(id: string, status: string, content: Json[]): Json {
  return { id, type: 'message', status, role: 'assistant', content };
}

export function functionCallItem(
  id: string,
  status: string,
  call: { callId: string; name: string; arguments: string },
): Json {
  return { id, type: 'function_call', status, arguments: call.arguments, call_id: call.callId, name: call.name };
}

export function responsesFromChat(completion: ChatCompletion, requestedModel: string, request?: ChatRequest): Json {
  const stem = idStem(completion.id);
  const choice = completion.choices?.find((item) => item.index === 0) ?? completion.choices?.[0];
  const message = choice?.message;
  const calls = message?.tool_calls ?? [];
  const { status, incomplete_details } = statusOf(choice?.finish_reason);
  const itemStatus = status === 'completed' ? 'completed' : 'incomplete';

  const output: Json[] = [];
  if (message?.reasoning_content) {
    output.push(reasoningItem(itemId('rs', stem, output.length), message.reasoning_content));
  }
  const content: Json[] = [];
  if (message?.content) content.push(textPart(message.content));
  if (message?.refusal) content.push(refusalPart(message.refusal));
  // An answer with neither text nor calls still has its (empty) message, as OpenAI's do.
  if (content.length === 0 && calls.length === 0 && output.length === 0) content.push(textPart(''));
  if (content.length > 0) output.push(messageItem(itemId('msg', stem, output.length), itemStatus, content));
  calls.forEach((call, index) => {
    output.push(
      functionCallItem(itemId('fc', stem, output.length), 'completed', {
        callId: call.id || fallbackCallId(stem, index),
        name: call.function?.name ?? '',
        arguments: call.function?.arguments ?? '',
      }),
    );
  });

  const usage: ChatUsage | undefined = completion.usage;
  return responseObject(
    { id: responseIdOf(stem), createdAt: completion.created, model: requestedModel, request },
    { status, incomplete_details, output, usage: usageToResponses(usage) },
  );
}
