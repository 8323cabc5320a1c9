import type { ChatContentPart, ChatMessage, ChatRequest, ChatToolCall, Json, TranslationSettings } from '../types.js';
import {
  ANTHROPIC_BUDGET,
  EFFORT_BUDGETS,
  type Effort,
  GEMINI_MIME,
  GEMINI_SAFETY,
  getExtra,
  guessMime,
  isEmptyObjectSchema,
  isRecord,
  num,
  parseDataUrl,
  SKIP_SIGNATURE,
  signatureOf,
  str,
  thinkingExtraOf,
  toGeminiSchema,
} from './common.js';

/** The Gemini request: URL, contents, tools, generation config (see adapter.ts for the whole picture). */

const SAFETY_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
];

/** Pseudo-function names that stand for Gemini's built-in tools. */
export const BUILTIN_TOOLS = ['googleSearch', 'codeExecution', 'urlContext'] as const;

type Part = Json;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

/** `gemini-2.5-pro#thinking` → the model to call and whether the suffix asked for thinking. */
export function splitModel(model: string): { model: string; thinking: boolean } {
  const thinking = model.endsWith('#thinking');
  const bare = thinking ? model.slice(0, -'#thinking'.length) : model;
  return { model: bare.replace(/^models\//, ''), thinking };
}

export function apiVersion(other: string): string {
  const value = other.trim();
  return /^v\d+(?:(?:alpha|beta)\d*)?$/.test(value) ? value : 'v1beta';
}

const VERSION_SUFFIX = /\/(v\d+(?:(?:alpha|beta)\d*)?)$/;

/** The API version a call goes to: the one the base URL ends with, else the channel's. */
export function versionOf(baseUrl: string, other: string): string {
  return VERSION_SUFFIX.exec(baseUrl.replace(/\/+$/, ''))?.[1] ?? apiVersion(other);
}

/** The generateContent URL for a model, e.g. `…/v1beta/models/gemini-2.5-flash:generateContent`. */
export function geminiUrl(baseUrl: string, other: string, model: string, stream: boolean): string {
  const base = baseUrl.replace(/\/+$/, '');
  const prefix = VERSION_SUFFIX.test(base) ? base : `${base}/${apiVersion(other)}`;
  const segments = model.split('/');
  // Each segment is encoded; one that would move the path (empty, `.`, `..`) is refused, not sent.
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw new Error(`model: ${JSON.stringify(model)} is not a model name`);
  }
  const path = segments.length > 1 ? segments.map(encodeURIComponent).join('/') : `models/${encodeURIComponent(model)}`;
  return `${prefix}/${path}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`;
}

function safetySettings(plugin: Json, fromClient: unknown[] | undefined): unknown[] {
  const configured = plugin.safety_settings;
  if (typeof configured === 'string' && configured) {
    return SAFETY_CATEGORIES.map((category) => ({ category, threshold: configured }));
  }
  if (Array.isArray(configured)) return configured;
  if (isRecord(configured)) {
    return Object.entries(configured).map(([category, threshold]) => ({ category, threshold }));
  }
  if (fromClient) return fromClient;
  return SAFETY_CATEGORIES.map((category) => ({ category, threshold: 'BLOCK_NONE' }));
}

// ---- messages → contents ----

function textOf(content: ChatMessage['content'], path: string): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new Error(`${path}: expected a string or a list of parts`);
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

function mediaPart(url: string, path: string, mime?: string): Part {
  if (url.startsWith('data:')) {
    const data = parseDataUrl(url);
    if (!data) throw new Error(`${path}: a data URL must be base64-encoded`);
    return { inlineData: data };
  }
  if (/^(https?|gs):\/\//i.test(url)) return { fileData: { mimeType: mime ?? guessMime(url), fileUri: url } };
  throw new Error(`${path}: expected an https or base64 data: URL`);
}

function userParts(content: ChatMessage['content'], path: string): Part[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) throw new Error(`${path}: expected a string or a list of parts`);
  const parts: Part[] = [];
  content.forEach((part: ChatContentPart, index) => {
    const at = `${path}[${index}]`;
    if (!isRecord(part)) throw new Error(`${at}: expected an object`);
    switch (part.type) {
      case 'text':
        if (typeof part.text !== 'string') throw new Error(`${at}.text: expected a string`);
        if (part.text) parts.push({ text: part.text });
        break;
      case 'image_url': {
        const url = isRecord(part.image_url) ? part.image_url.url : undefined;
        if (typeof url !== 'string') throw new Error(`${at}.image_url.url: expected a string`);
        parts.push(mediaPart(url, `${at}.image_url.url`, getExtra(part, GEMINI_MIME)));
        break;
      }
      case 'input_audio': {
        const audio = part.input_audio;
        if (!isRecord(audio) || typeof audio.data !== 'string') {
          throw new Error(`${at}.input_audio.data: expected a base64 string`);
        }
        parts.push({ inlineData: { mimeType: `audio/${audio.format || 'wav'}`, data: audio.data } });
        break;
      }
      case 'file': {
        const file = isRecord(part.file) ? part.file : {};
        if (typeof file.file_data === 'string') {
          const fromUrl = parseDataUrl(file.file_data);
          const mimeType = fromUrl?.mimeType ?? (file.filename ? guessMime(file.filename) : 'application/pdf');
          parts.push({ inlineData: { mimeType, data: fromUrl ? fromUrl.data : file.file_data } });
        } else if (typeof file.file_id === 'string' && /^(https?|gs):\/\//i.test(file.file_id)) {
          parts.push(mediaPart(file.file_id, `${at}.file.file_id`, getExtra(part, GEMINI_MIME)));
        } else {
          throw new Error(`${at}.file: Gemini needs the file's data (file_data) or a file URI`);
        }
        break;
      }
      default:
        throw new Error(`${at}.type: unsupported content part type ${JSON.stringify((part as Json).type)}`);
    }
  });
  return parts;
}

function parseArguments(text: string, path: string): Json {
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path}: not valid JSON`);
  }
  if (!isRecord(parsed)) throw new Error(`${path}: must be a JSON object`);
  return parsed;
}

/** A tool result as Gemini's `functionResponse.response`: a JSON object as is, else `{result}`. */
function toolResponse(text: string): Json {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (isRecord(parsed)) return parsed;
    } catch {
      // Not JSON: sent as text.
    }
  }
  return { result: text };
}

/**
 * OpenAI messages → Gemini `contents` + `systemInstruction`. Consecutive turns of one role are
 * merged (tool results become function responses in a user turn).
 */
export function toContents(
  messages: ChatMessage[],
  placeholderSignature = true,
): { contents: Content[]; system: Part[] } {
  if (!Array.isArray(messages)) throw new Error('messages: expected a list of messages');
  const contents: Content[] = [];
  const system: Part[] = [];
  const callNames = new Map<string, string>();
  const push = (role: Content['role'], parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  messages.forEach((message, index) => {
    const path = `messages[${index}]`;
    if (!isRecord(message)) throw new Error(`${path}: expected an object`);
    const role = message.role as string;
    switch (role) {
      case 'system':
      case 'developer':
        if (Array.isArray(message.content)) {
          for (const part of message.content) {
            if (isRecord(part) && typeof part.text === 'string' && part.text) system.push({ text: part.text });
          }
        } else {
          const text = textOf(message.content, `${path}.content`);
          if (text) system.push({ text });
        }
        break;
      case 'user':
        push('user', userParts(message.content, `${path}.content`));
        break;
      case 'assistant': {
        const parts: Part[] = [];
        const text = textOf(message.content, `${path}.content`);
        if (text) parts.push({ text });
        const calls = message.tool_calls ?? [];
        if (!Array.isArray(calls)) throw new Error(`${path}.tool_calls: expected a list`);
        calls.forEach((call: ChatToolCall, callIndex) => {
          const at = `${path}.tool_calls[${callIndex}]`;
          if (!isRecord(call) || !isRecord(call.function) || typeof call.function.name !== 'string') {
            throw new Error(`${at}.function.name: expected a string`);
          }
          const args = parseArguments(str(call.function.arguments) ?? '', `${at}.function.arguments`);
          if (typeof call.id === 'string') callNames.set(call.id, call.function.name);
          const part: Part = { functionCall: { name: call.function.name, args } };
          // Gemini 3 requires the first function call of each step to carry a signature.
          const signature = signatureOf(call) ?? (callIndex === 0 && placeholderSignature ? SKIP_SIGNATURE : undefined);
          if (signature) part.thoughtSignature = signature;
          parts.push(part);
        });
        push('model', parts);
        break;
      }
      case 'tool':
      case 'function': {
        const id = message.tool_call_id;
        const name = (typeof id === 'string' ? callNames.get(id) : undefined) ?? message.name;
        if (typeof name !== 'string' || !name) {
          throw new Error(`${path}.tool_call_id: no earlier assistant tool call has id ${JSON.stringify(id)}`);
        }
        const response = toolResponse(textOf(message.content, `${path}.content`));
        push('user', [{ functionResponse: { name, response } }]);
        break;
      }
      default:
        throw new Error(`${path}.role: unsupported role ${JSON.stringify(role)}`);
    }
  });
  if (contents.length === 0) throw new Error('messages: at least one user or assistant message is required');
  return { contents, system };
}

// ---- tools ----

function toolsOf(request: ChatRequest): Json[] | undefined {
  if (request.tools === undefined) return undefined;
  if (!Array.isArray(request.tools)) throw new Error('tools: expected a list');
  const declarations: Json[] = [];
  const builtins: Json[] = [];
  request.tools.forEach((tool, index) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== 'string')
      throw new Error(`tools[${index}].function.name: expected a string`);
    const parameters = toGeminiSchema(fn.parameters);
    if ((BUILTIN_TOOLS as readonly string[]).includes(fn.name) && isEmptyObjectSchema(parameters)) {
      builtins.push({ [fn.name]: {} });
      return;
    }
    const declaration: Json = { name: fn.name };
    if (typeof fn.description === 'string' && fn.description) declaration.description = fn.description;
    // Gemini rejects an OBJECT schema without properties: a function without arguments has none.
    if (parameters && !isEmptyObjectSchema(parameters)) declaration.parameters = parameters;
    declarations.push(declaration);
  });
  const tools: Json[] = [];
  if (declarations.length > 0) tools.push({ functionDeclarations: declarations });
  tools.push(...builtins);
  return tools.length > 0 ? tools : undefined;
}

/** The channel's `code_execution` plugin: Gemini's code-execution tool on every request, once. */
function withCodeExecution(tools: Json[] | undefined, plugin: Json): Json[] | undefined {
  const setting = plugin.code_execution;
  if (!isRecord(setting) || setting.enable !== true) return tools;
  if (tools?.some((tool) => isRecord(tool) && 'codeExecution' in tool)) return tools;
  return [...(tools ?? []), { codeExecution: {} }];
}

function toolConfigOf(choice: ChatRequest['tool_choice']): Json | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
  }
  throw new Error(`tool_choice: unsupported value ${JSON.stringify(choice)}`);
}

// ---- generation config ----

/** GeminiOpenThink: the thoughts are asked for, for the models it names, unless thinking is off. */
function withThoughtsShown(config: Json | undefined, openThink: boolean): Json | undefined {
  if (!openThink || config?.thinkingBudget === 0) return config;
  return { ...config, includeThoughts: true };
}

function thinkingConfigOf(request: ChatRequest, suffix: boolean): Json | undefined {
  const verbatim = thinkingExtraOf(request);
  if (verbatim) return verbatim;
  const effort = request.reasoning_effort as string | undefined;
  if (effort === 'none') return { thinkingBudget: 0 };
  const reasoning = isRecord(request.reasoning) ? request.reasoning : undefined;
  const exact = getExtra(request, ANTHROPIC_BUDGET) ?? (reasoning ? num(reasoning.max_tokens) || undefined : undefined);
  if (exact !== undefined && exact > 0) return { thinkingBudget: exact, includeThoughts: true };
  const named = (effort ?? str(reasoning?.effort)) as Effort | undefined;
  if (named && named in EFFORT_BUDGETS) return { thinkingBudget: EFFORT_BUDGETS[named], includeThoughts: true };
  if (suffix) return { thinkingBudget: -1, includeThoughts: true };
  return undefined;
}

function generationConfigOf(request: ChatRequest, model: string, suffix: boolean, openThink: boolean): Json {
  const config: Json = {};
  const number = (value: unknown, name: string) => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${name}: expected a number`);
    return value;
  };
  const set = (key: string, value: unknown) => {
    if (value !== undefined) config[key] = value;
  };
  set('temperature', number(request.temperature, 'temperature'));
  set('topP', number(request.top_p, 'top_p'));
  set('topK', number(request.top_k, 'top_k'));
  const maxTokens =
    number(request.max_completion_tokens, 'max_completion_tokens') ?? number(request.max_tokens, 'max_tokens');
  if (maxTokens) config.maxOutputTokens = maxTokens;
  if (typeof request.stop === 'string') config.stopSequences = [request.stop];
  else if (Array.isArray(request.stop) && request.stop.length > 0) config.stopSequences = request.stop;
  set('candidateCount', number(request.n, 'n'));
  set('seed', number(request.seed, 'seed'));
  set('presencePenalty', number(request.presence_penalty, 'presence_penalty'));
  set('frequencyPenalty', number(request.frequency_penalty, 'frequency_penalty'));
  const format = request.response_format;
  if (isRecord(format) && format.type === 'json_object') config.responseMimeType = 'application/json';
  if (isRecord(format) && format.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const spec = isRecord(format.json_schema) ? format.json_schema : {};
    const schema = toGeminiSchema(spec.schema);
    if (schema) config.responseSchema = schema;
  }
  // Models that answer with pictures must be told so.
  if (/flash-exp|-image/.test(model)) config.responseModalities = ['TEXT', 'IMAGE'];
  const thinking = thinkingExtraOf(request)
    ? thinkingConfigOf(request, suffix)
    : withThoughtsShown(thinkingConfigOf(request, suffix), openThink);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

/**
 * Whether function calls without a signature get Google's placeholder: only where the field
 * exists (not on the `v1` API) and is checked (not on the 1.x/2.x models, which never need it).
 */
function wantsPlaceholder(model: string, version: string): boolean {
  return version !== 'v1' && !/^gemini-[12][.-]/.test(model);
}

/** The Gemini `GenerateContentRequest` body for a canonical request. */
export function toGeminiRequest(
  request: ChatRequest,
  model: string,
  suffix: boolean,
  plugin: Json,
  version = 'v1beta',
  settings?: TranslationSettings,
): Json {
  const { contents, system } = toContents(request.messages, wantsPlaceholder(model, version));
  const body: Json = { contents };
  if (system.length > 0) body.systemInstruction = { parts: system };
  const tools = withCodeExecution(toolsOf(request), plugin);
  if (tools) body.tools = tools;
  const toolConfig = toolConfigOf(request.tool_choice);
  if (toolConfig && tools) body.toolConfig = toolConfig;
  body.safetySettings = safetySettings(plugin, getExtra(request, GEMINI_SAFETY));
  const generationConfig = generationConfigOf(request, model, suffix, settings?.geminiOpenThink[model] === true);
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  return body;
}
