import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolCall,
  ChatToolChoice,
  Json,
} from '../types.js';
import {
  type Effort,
  effortForBudget,
  field,
  fromGeminiSchema,
  GEMINI_MIME,
  GEMINI_SAFETY,
  GEMINI_SIGNATURE,
  GEMINI_THINKING,
  isRecord,
  setExtra,
  str,
} from './common.js';

/**
 * A Gemini client's request (`GenerateContentRequest`) → the canonical chat request: the
 * `toChat` half of the Gemini surface (see surface.ts for the choices).
 */

const BUILTIN_NAMES: Record<string, string> = {
  googleSearch: 'googleSearch',
  googleSearchRetrieval: 'googleSearch',
  codeExecution: 'codeExecution',
  urlContext: 'urlContext',
};

function numberAt(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${path}: expected a number`);
  return value;
}

function partsOf(value: unknown, path: string): Json[] {
  if (!Array.isArray(value)) throw new Error(`${path}: expected a list of parts`);
  return value.map((part, index) => {
    if (!isRecord(part)) throw new Error(`${path}[${index}]: expected an object`);
    return part;
  });
}

function systemMessage(value: unknown): ChatMessage | undefined {
  if (typeof value === 'string') return value ? { role: 'system', content: value } : undefined;
  if (!isRecord(value)) throw new Error('systemInstruction: expected a content object with parts');
  const texts: string[] = [];
  partsOf(value.parts, 'systemInstruction.parts').forEach((part, index) => {
    if (typeof part.text !== 'string') throw new Error(`systemInstruction.parts[${index}].text: expected a string`);
    if (part.text) texts.push(part.text);
  });
  if (texts.length === 0) return undefined;
  const content = texts.length === 1 ? (texts[0] as string) : texts.map((text) => ({ type: 'text' as const, text }));
  return { role: 'system', content };
}

/** inlineData / fileData → a canonical content part. */
function mediaPart(part: Json, path: string): ChatContentPart | undefined {
  const inline = field(part, 'inlineData');
  if (inline !== undefined) {
    if (!isRecord(inline)) throw new Error(`${path}.inlineData: expected an object`);
    const mimeType = field(inline, 'mimeType');
    if (typeof mimeType !== 'string' || !mimeType) throw new Error(`${path}.inlineData.mimeType: expected a string`);
    if (typeof inline.data !== 'string') throw new Error(`${path}.inlineData.data: expected a base64 string`);
    const url = `data:${mimeType};base64,${inline.data}`;
    if (mimeType.startsWith('image/')) return { type: 'image_url', image_url: { url } };
    if (mimeType.startsWith('audio/')) {
      const subtype = mimeType.slice('audio/'.length).split(';')[0] ?? '';
      const audio: ChatContentPart = {
        type: 'input_audio',
        input_audio: { data: inline.data, format: subtype === 'mpeg' ? 'mp3' : subtype },
      };
      setExtra(audio, GEMINI_MIME, mimeType);
      return audio;
    }
    return { type: 'file', file: { file_data: url } };
  }
  const file = field(part, 'fileData');
  if (file !== undefined) {
    if (!isRecord(file)) throw new Error(`${path}.fileData: expected an object`);
    const uri = field(file, 'fileUri');
    if (typeof uri !== 'string' || !uri) throw new Error(`${path}.fileData.fileUri: expected a string`);
    const mimeType = str(field(file, 'mimeType'));
    const converted: ChatContentPart =
      !mimeType || mimeType.startsWith('image/')
        ? { type: 'image_url', image_url: { url: uri } }
        : { type: 'file', file: { file_id: uri } };
    if (mimeType) setExtra(converted, GEMINI_MIME, mimeType);
    return converted;
  }
  return undefined;
}

/** Code execution parts, shown as text wherever they appear. */
function codeText(part: Json): string | undefined {
  const code = field(part, 'executableCode');
  if (isRecord(code) && typeof code.code === 'string') {
    return `\n\`\`\`${String(code.language ?? '').toLowerCase() || 'python'}\n${code.code}\n\`\`\`\n`;
  }
  const result = field(part, 'codeExecutionResult');
  if (isRecord(result)) return `\n\`\`\`output\n${str(result.output) ?? ''}\n\`\`\`\n`;
  return undefined;
}

const isSignatureOnly = (part: Json) =>
  Object.keys(part).every((key) => key === 'thoughtSignature' || key === 'thought_signature' || key === 'thought');

interface OpenCall {
  id: string;
  name: string;
}

class ContentsReader {
  readonly messages: ChatMessage[] = [];
  private readonly open: OpenCall[] = [];
  private counter = 0;

  model(parts: Json[], path: string): void {
    let text = '';
    let reasoning = '';
    const calls: ChatToolCall[] = [];
    parts.forEach((part, index) => {
      const at = `${path}[${index}]`;
      const call = field(part, 'functionCall');
      if (call !== undefined) {
        if (!isRecord(call) || typeof call.name !== 'string' || !call.name) {
          throw new Error(`${at}.functionCall.name: expected a string`);
        }
        if (call.args !== undefined && !isRecord(call.args))
          throw new Error(`${at}.functionCall.args: expected an object`);
        const id = str(call.id) || `call_${this.counter++}`;
        const toolCall: ChatToolCall = {
          id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
        };
        const signature = str(field(part, 'thoughtSignature'));
        if (signature) setExtra(toolCall, GEMINI_SIGNATURE, signature);
        calls.push(toolCall);
        this.open.push({ id, name: call.name });
        return;
      }
      if (typeof part.text === 'string') {
        if (part.thought === true) reasoning += part.text;
        else text += part.text;
        return;
      }
      const code = codeText(part);
      if (code !== undefined) {
        text += code;
        return;
      }
      if (field(part, 'functionResponse') !== undefined) {
        throw new Error(`${at}.functionResponse: function responses belong in a "user" turn`);
      }
      // Media the model produced cannot be part of an assistant message; signature-only parts carry nothing.
      if (mediaPart(part, at) !== undefined || isSignatureOnly(part)) return;
      throw new Error(`${at}: unsupported part (expected text, functionCall, inlineData or fileData)`);
    });
    const message: ChatMessage = { role: 'assistant', content: text || (calls.length > 0 ? null : '') };
    if (reasoning) message.reasoning_content = reasoning;
    if (calls.length > 0) message.tool_calls = calls;
    this.messages.push(message);
  }

  user(parts: Json[], path: string): void {
    const content: ChatContentPart[] = [];
    parts.forEach((part, index) => {
      const at = `${path}[${index}]`;
      const response = field(part, 'functionResponse');
      if (response !== undefined) {
        this.messages.push(this.toolMessage(response, `${at}.functionResponse`));
        return;
      }
      if (typeof part.text === 'string') {
        if (part.text) content.push({ type: 'text', text: part.text });
        return;
      }
      const media = mediaPart(part, at);
      if (media) {
        content.push(media);
        return;
      }
      const code = codeText(part);
      if (code !== undefined) {
        content.push({ type: 'text', text: code });
        return;
      }
      if (field(part, 'functionCall') !== undefined) {
        throw new Error(`${at}.functionCall: function calls belong in a "model" turn`);
      }
      if (isSignatureOnly(part)) return;
      throw new Error(`${at}: unsupported part (expected text, inlineData, fileData or functionResponse)`);
    });
    if (content.length === 0) return;
    const only = content[0];
    this.messages.push({
      role: 'user',
      content: content.length === 1 && only?.type === 'text' ? only.text : content,
    });
  }

  private toolMessage(response: unknown, path: string): ChatMessage {
    if (!isRecord(response) || typeof response.name !== 'string' || !response.name) {
      throw new Error(`${path}.name: expected a string`);
    }
    const id = str(response.id);
    let at = id ? this.open.findIndex((call) => call.id === id) : -1;
    if (at < 0) at = this.open.findIndex((call) => call.name === response.name);
    const call = this.open[at];
    if (!call) {
      throw new Error(`${path}: no earlier functionCall named ${JSON.stringify(response.name)} awaits a response`);
    }
    this.open.splice(at, 1);
    const result = response.response;
    const keys = isRecord(result) ? Object.keys(result) : [];
    const content =
      isRecord(result) && keys.length === 1 && typeof result.result === 'string'
        ? result.result
        : JSON.stringify(result ?? {});
    return { role: 'tool', tool_call_id: call.id, content };
  }
}

function toolsOf(value: unknown): ChatTool[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new Error('tools: expected a list');
  const tools: ChatTool[] = [];
  value.forEach((tool, index) => {
    if (!isRecord(tool)) throw new Error(`tools[${index}]: expected an object`);
    let known = false;
    const declarations = field(tool, 'functionDeclarations');
    if (declarations !== undefined) {
      known = true;
      if (!Array.isArray(declarations)) throw new Error(`tools[${index}].functionDeclarations: expected a list`);
      declarations.forEach((declaration, position) => {
        const at = `tools[${index}].functionDeclarations[${position}]`;
        if (!isRecord(declaration) || typeof declaration.name !== 'string' || !declaration.name) {
          throw new Error(`${at}.name: expected a string`);
        }
        const jsonSchema = field(declaration, 'parametersJsonSchema');
        const parameters = isRecord(jsonSchema)
          ? jsonSchema
          : declaration.parameters !== undefined
            ? fromGeminiSchema(declaration.parameters)
            : { type: 'object', properties: {} };
        if (!isRecord(parameters)) throw new Error(`${at}.parameters: expected a schema object`);
        const fn: ChatTool['function'] = { name: declaration.name, parameters };
        if (typeof declaration.description === 'string' && declaration.description) {
          fn.description = declaration.description;
        }
        tools.push({ type: 'function', function: fn });
      });
    }
    for (const [key, name] of Object.entries(BUILTIN_NAMES)) {
      if (field(tool, key) === undefined) continue;
      known = true;
      if (!tools.some((existing) => existing.function.name === name)) {
        tools.push({ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } });
      }
    }
    if (!known) {
      throw new Error(
        `tools[${index}]: unsupported tool (expected functionDeclarations, googleSearch, codeExecution or urlContext)`,
      );
    }
  });
  return tools;
}

function toolChoiceOf(value: unknown): ChatToolChoice | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw new Error('toolConfig: expected an object');
  const config = field(value, 'functionCallingConfig');
  if (config === undefined) return undefined;
  if (!isRecord(config)) throw new Error('toolConfig.functionCallingConfig: expected an object');
  const mode = config.mode ?? 'AUTO';
  const allowed = field(config, 'allowedFunctionNames');
  switch (mode) {
    case 'AUTO':
    case 'VALIDATED':
    case 'MODE_UNSPECIFIED':
      return 'auto';
    case 'NONE':
      return 'none';
    case 'ANY':
      if (Array.isArray(allowed) && allowed.length === 1 && typeof allowed[0] === 'string') {
        return { type: 'function', function: { name: allowed[0] } };
      }
      return 'required';
    default:
      throw new Error(`toolConfig.functionCallingConfig.mode: unsupported mode ${JSON.stringify(mode)}`);
  }
}

const LEVELS: Record<string, Effort> = { MINIMAL: 'minimal', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };

function applyGenerationConfig(request: ChatRequest, value: unknown): void {
  if (value === undefined) return;
  if (!isRecord(value)) throw new Error('generationConfig: expected an object');
  const at = (name: string) => `generationConfig.${name}`;
  const set = (key: string, camel: string) => {
    const number = numberAt(field(value, camel), at(camel));
    if (number !== undefined) request[key] = number;
  };
  set('temperature', 'temperature');
  set('top_p', 'topP');
  set('top_k', 'topK');
  set('max_tokens', 'maxOutputTokens');
  set('n', 'candidateCount');
  set('seed', 'seed');
  set('presence_penalty', 'presencePenalty');
  set('frequency_penalty', 'frequencyPenalty');
  const stops = field(value, 'stopSequences');
  if (stops !== undefined) {
    if (!Array.isArray(stops) || !stops.every((stop) => typeof stop === 'string')) {
      throw new Error(`${at('stopSequences')}: expected a list of strings`);
    }
    if (stops.length > 0) request.stop = stops;
  }
  const mime = field(value, 'responseMimeType');
  if (mime === 'application/json') {
    const jsonSchema = field(value, 'responseJsonSchema');
    const schema = field(value, 'responseSchema');
    if (isRecord(jsonSchema) || isRecord(schema)) {
      request.response_format = {
        type: 'json_schema',
        json_schema: { name: 'response', schema: isRecord(jsonSchema) ? jsonSchema : fromGeminiSchema(schema) },
      };
    } else {
      request.response_format = { type: 'json_object' };
    }
  }
  const thinking = field(value, 'thinkingConfig');
  if (thinking !== undefined) {
    if (!isRecord(thinking)) throw new Error(`${at('thinkingConfig')}: expected an object`);
    setExtra(request, GEMINI_THINKING, thinking);
    const budget = numberAt(field(thinking, 'thinkingBudget'), at('thinkingConfig.thinkingBudget'));
    const level = field(thinking, 'thinkingLevel');
    const effort =
      typeof level === 'string'
        ? LEVELS[level.toUpperCase()]
        : budget !== undefined
          ? effortForBudget(budget)
          : undefined;
    if (effort) request.reasoning_effort = effort;
  }
}

/** A Gemini `GenerateContentRequest` → the canonical chat request. */
export function geminiToChat(body: Json, model: string): ChatRequest {
  if (!isRecord(body)) throw new Error('body: expected a JSON object');
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) {
    throw new Error('contents: a non-empty list of contents is required');
  }
  const reader = new ContentsReader();
  const system = field(body, 'systemInstruction');
  if (system !== undefined) {
    const message = systemMessage(system);
    if (message) reader.messages.push(message);
  }
  contents.forEach((content, index) => {
    const path = `contents[${index}]`;
    if (!isRecord(content)) throw new Error(`${path}: expected an object`);
    const role = content.role ?? 'user';
    if (role !== 'user' && role !== 'model' && role !== 'function') {
      throw new Error(`${path}.role: must be "user" or "model", got ${JSON.stringify(role)}`);
    }
    const parts = partsOf(content.parts, `${path}.parts`);
    if (parts.length === 0) throw new Error(`${path}.parts: a non-empty list of parts is required`);
    if (role === 'model') reader.model(parts, `${path}.parts`);
    else reader.user(parts, `${path}.parts`);
  });
  const request: ChatRequest = { model, messages: reader.messages };
  const tools = toolsOf(body.tools);
  if (tools && tools.length > 0) request.tools = tools;
  const choice = toolChoiceOf(field(body, 'toolConfig'));
  if (choice && request.tools) request.tool_choice = choice;
  applyGenerationConfig(request, field(body, 'generationConfig'));
  const safety = field(body, 'safetySettings');
  if (Array.isArray(safety)) setExtra(request, GEMINI_SAFETY, safety);
  return request;
}
