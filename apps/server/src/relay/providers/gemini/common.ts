import type { ChatRequest, ChatToolCall, ChatUsage, FinishReason, Json } from '../types.js';
import { isRecord, num } from '../values.js';

export { isRecord, num };

/**
 * Pieces shared by the Gemini adapter (OpenAI → Gemini upstream), the Gemini surface (Gemini
 * clients → any upstream) and the native pass-through meter.
 */

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * A field of a Gemini REST object under its camelCase name or its snake_case twin: Google's JSON
 * parser accepts both, and the documentation's curl examples often use `inline_data`,
 * `system_instruction`, `function_declarations`.
 */
export function field(object: Json, camel: string): unknown {
  if (object[camel] !== undefined) return object[camel];
  return object[camel.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}

// ---- in-memory extras that never reach the wire ----
//
// A Gemini client translated into the canonical request and back into a Gemini upstream should
// not lose what the canonical shape cannot say (an exact thinking budget, its safety settings, a
// file's MIME type, a function call's thought signature). These ride along under symbol keys:
// JSON.stringify skips them, so an OpenAI-format upstream never sees them, while the Gemini
// adapter reads them back. Symbol.for, so the same key works across module instances.

/** On a ChatRequest: the client's `generationConfig.thinkingConfig`, verbatim. */
export const GEMINI_THINKING: unique symbol = Symbol.for('one-hub.gemini.thinking_config');
/** On a ChatRequest: the client's `safetySettings`, verbatim. */
export const GEMINI_SAFETY: unique symbol = Symbol.for('one-hub.gemini.safety_settings');
/** On a ChatToolCall: the `thoughtSignature` of the functionCall part it came from. */
export const GEMINI_SIGNATURE: unique symbol = Symbol.for('one-hub.gemini.thought_signature');
/** On a content part made from `fileData`: the file's declared MIME type. */
export const GEMINI_MIME: unique symbol = Symbol.for('one-hub.gemini.mime_type');
/** The Anthropic surface's exact thinking budget (same convention, read when present). */
export const ANTHROPIC_BUDGET: unique symbol = Symbol.for('one-hub.anthropic.thinking_budget');

type Extras = {
  [GEMINI_THINKING]?: Json;
  [GEMINI_SAFETY]?: unknown[];
  [GEMINI_SIGNATURE]?: string;
  [GEMINI_MIME]?: string;
  [ANTHROPIC_BUDGET]?: number;
};

export function getExtra<K extends keyof Extras>(target: object, key: K): Extras[K] {
  return (target as Extras)[key];
}

export function setExtra<K extends keyof Extras>(target: object, key: K, value: NonNullable<Extras[K]>): void {
  (target as Extras)[key] = value;
}

/**
 * A tool call as Google's own OpenAI-compatible endpoint returns it: the Gemini thought signature
 * rides in `extra_content.google.thought_signature` (not in the contract's ChatToolCall type).
 */
export interface GeminiToolCall extends ChatToolCall {
  extra_content?: { google: { thought_signature: string } };
}

/** The thought signature carried by a canonical tool call, either way it can be carried. */
export function signatureOf(call: ChatToolCall): string | undefined {
  const own = getExtra(call, GEMINI_SIGNATURE);
  if (own) return own;
  const extra = (call as GeminiToolCall).extra_content;
  return isRecord(extra) && isRecord(extra.google) ? str(extra.google.thought_signature) : undefined;
}

/**
 * Gemini 3 answers 400 when a functionCall part in the history has no thought signature. For
 * calls the model did not make through us (another vendor's turn, a hand-written history) Google
 * documents this placeholder, which skips the check.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

// ---- thinking ----

/**
 * Thinking budgets per OpenAI reasoning effort. low/medium/high follow Google's own OpenAI
 * compatibility layer (1K / 8K / 24K tokens); minimal is 512, the smallest budget every 2.5 model
 * accepts (Flash-Lite's floor; Pro's is 128, Flash's 0).
 */
export const EFFORT_BUDGETS = { minimal: 512, low: 1024, medium: 8192, high: 24576 } as const;
export type Effort = keyof typeof EFFORT_BUDGETS;

/**
 * The effort nearest to a Gemini `thinkingBudget`, on a log scale (budgets grow geometrically).
 * 0 (thinking off) maps to minimal, the least thinking the canonical shape can ask for; -1
 * (dynamic) has no effort: the caller leaves reasoning_effort unset.
 */
export function effortForBudget(budget: number): Effort | undefined {
  if (budget < 0) return undefined;
  let best: Effort = 'minimal';
  const distance = (effort: Effort) => Math.abs(Math.log(EFFORT_BUDGETS[effort]) - Math.log(Math.max(budget, 1)));
  for (const effort of Object.keys(EFFORT_BUDGETS) as Effort[]) {
    if (distance(effort) < distance(best)) best = effort;
  }
  return best;
}

export function thinkingExtraOf(request: ChatRequest): Json | undefined {
  const value = getExtra(request, GEMINI_THINKING);
  return isRecord(value) ? value : undefined;
}

// ---- usage and finish reasons ----

function modalityTokens(details: unknown, modality: string): number {
  if (!Array.isArray(details)) return 0;
  let total = 0;
  for (const entry of details) {
    if (isRecord(entry) && entry.modality === modality) total += num(entry.tokenCount);
  }
  return total;
}

/** Per-modality counts (`promptTokensDetails`, `candidatesTokensDetails`) as usage details: text, image, audio. */
function modalityDetails(details: unknown): { text_tokens?: number; image_tokens?: number; audio_tokens?: number } {
  const counts: { text_tokens?: number; image_tokens?: number; audio_tokens?: number } = {};
  const text = modalityTokens(details, 'TEXT');
  const image = modalityTokens(details, 'IMAGE');
  const audio = modalityTokens(details, 'AUDIO');
  if (text > 0) counts.text_tokens = text;
  if (image > 0) counts.image_tokens = image;
  if (audio > 0) counts.audio_tokens = audio;
  return counts;
}

/**
 * Gemini `usageMetadata` → OpenAI usage. The prompt counts tool-use prompt tokens (search results
 * fed back to the model, billed as input by Google); the completion counts thoughts, which Google
 * bills as output. The per-modality counts (text, image, audio) go into the token details, where
 * billing prices each kind at its own ratio (input/output image and audio tokens, for instance).
 * Undefined when the metadata carries no count at all.
 */
export function usageFromGemini(meta: unknown): ChatUsage | undefined {
  if (!isRecord(meta)) return undefined;
  const counts = ['promptTokenCount', 'candidatesTokenCount', 'totalTokenCount', 'thoughtsTokenCount'];
  if (!counts.some((name) => typeof meta[name] === 'number')) return undefined;
  const prompt = num(meta.promptTokenCount) + num(meta.toolUsePromptTokenCount);
  const thoughts = num(meta.thoughtsTokenCount);
  const completion = num(meta.candidatesTokenCount) + thoughts;
  const usage: ChatUsage = {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: num(meta.totalTokenCount) || prompt + completion,
  };
  const cached = num(meta.cachedContentTokenCount);
  const promptDetails = {
    ...(cached > 0 ? { cached_tokens: cached } : {}),
    ...modalityDetails(meta.promptTokensDetails),
  };
  if (Object.keys(promptDetails).length > 0) usage.prompt_tokens_details = promptDetails;
  const completionDetails = {
    ...(thoughts > 0 ? { reasoning_tokens: thoughts } : {}),
    ...modalityDetails(meta.candidatesTokensDetails),
  };
  if (Object.keys(completionDetails).length > 0) usage.completion_tokens_details = completionDetails;
  return usage;
}

/** Gemini finish reasons that mean "a filter withheld the output". */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/**
 * A Gemini `finishReason` → OpenAI's. A candidate that called functions finished for `tool_calls`
 * unless it hit the token limit or a filter; STOP, OTHER, LANGUAGE, MALFORMED_FUNCTION_CALL and
 * unknown reasons are a plain stop.
 */
export function finishFromGemini(reason: string, hasToolCalls: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/** OpenAI finish reason → Gemini's (function calls finish with STOP on Gemini). */
export function finishToGemini(reason: FinishReason | null | undefined): string {
  if (reason === 'length') return 'MAX_TOKENS';
  if (reason === 'content_filter') return 'SAFETY';
  return 'STOP';
}

// ---- secrets, MIME types, data URLs ----

/**
 * Masks API keys a message might echo: `key=AIza…` (a URL's query) → `key=***`, and any bare
 * Google API key (`AIza` + 35 characters) → `AIza***`.
 */
export function maskSecrets(text: string): string {
  return text.replace(/\b([a-z_]*key=)[^&\s"'<>]+/gi, '$1***').replace(/AIza[0-9A-Za-z_-]{20,}/g, 'AIza***');
}

const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  mov: 'video/mov',
  webm: 'video/webm',
};

/** The MIME type implied by a URL's file extension; image/jpeg when there is none we know. */
export function guessMime(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && MIME_BY_EXTENSION[extension]) || 'image/jpeg';
}

/** `data:<mime>;base64,<data>` → its parts; undefined when it is not a base64 data URL. */
export function parseDataUrl(url: string): { mimeType: string; data: string } | undefined {
  const match = /^data:([^;,]*)((?:;[^;,]*)*);base64,/i.exec(url);
  if (!match) return undefined;
  return { mimeType: match[1] || 'application/octet-stream', data: url.slice(match[0].length) };
}

// ---- schemas ----

/** Schema keys Gemini's OpenAPI-subset `Schema` accepts; everything else is dropped. */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** `format` values Gemini accepts, per type (the Developer API rejects the others). */
const FORMATS: Record<string, Set<string>> = {
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
};

const MAX_SCHEMA_DEPTH = 48;

function resolveRef(ref: string, root: Json): Json | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match?.[1] || !match[2]) return undefined;
  const defs = root[match[1]];
  const target = isRecord(defs)
    ? defs[decodeURIComponent(match[2]).replace(/~1/g, '/').replace(/~0/g, '~')]
    : undefined;
  return isRecord(target) ? target : undefined;
}

/**
 * A JSON schema (OpenAI tool parameters, `json_schema` response formats) → Gemini's `Schema`:
 * only the keys Gemini knows survive (`$schema`, `additionalProperties`, `strict`, `$id`,
 * `examples`, `exclusiveMinimum`… are dropped), local `$ref`s are inlined, `oneOf` becomes
 * `anyOf`, a single-member `allOf` is merged, `type: [T, "null"]` becomes `type: T` +
 * `nullable`, `const` becomes a one-value enum, enums of a non-string type are moved into the
 * description, formats Gemini rejects are dropped, `required` keeps only declared properties,
 * and type names are upper-cased (STRING, OBJECT…, Gemini's own spelling).
 */
export function toGeminiSchema(schema: unknown, root?: Json, depth = 0): Json | undefined {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return undefined;
  const top = root ?? schema;
  let source: Json = schema;
  if (typeof source.$ref === 'string') {
    const target = resolveRef(source.$ref, top);
    const { $ref: _ref, ...siblings } = source;
    source = target ? { ...target, ...siblings } : siblings;
  }
  if (Array.isArray(source.allOf)) {
    const { allOf, ...rest } = source;
    const members = allOf.filter(isRecord);
    if (members.length === 1 && members[0]) source = { ...members[0], ...rest };
    else if (members.every((member) => isRecord(member.properties) || typeof member.$ref === 'string')) {
      const merged: Json = { ...rest, type: 'object', properties: {}, required: [] };
      for (const member of members) {
        const resolved = typeof member.$ref === 'string' ? (resolveRef(member.$ref, top) ?? {}) : member;
        Object.assign(merged.properties as Json, isRecord(resolved.properties) ? resolved.properties : {});
        if (Array.isArray(resolved.required)) (merged.required as unknown[]).push(...resolved.required);
      }
      source = merged;
    } else source = rest;
  }
  const out: Json = {};
  let nullable = source.nullable === true;
  let types: string[] = [];
  if (typeof source.type === 'string') types = [source.type];
  else if (Array.isArray(source.type)) types = source.type.filter((t): t is string => typeof t === 'string');
  if (types.some((t) => t.toLowerCase() === 'null')) nullable = true;
  types = types.filter((t) => t.toLowerCase() !== 'null').map((t) => t.toUpperCase());
  let anyOf = Array.isArray(source.anyOf) ? source.anyOf : Array.isArray(source.oneOf) ? source.oneOf : undefined;
  if (types.length > 1 && !anyOf) anyOf = types.map((type) => ({ type }));
  const type = types.length === 1 ? types[0] : undefined;
  if (type) out.type = type;

  for (const [key, value] of Object.entries(source)) {
    if (!SCHEMA_KEYS.has(key) || value === undefined) continue;
    switch (key) {
      case 'type':
      case 'nullable':
      case 'anyOf':
        break;
      case 'properties': {
        if (!isRecord(value)) break;
        const properties: Json = {};
        for (const [name, child] of Object.entries(value)) {
          const converted = toGeminiSchema(child, top, depth + 1);
          if (converted) properties[name] = converted;
        }
        out.properties = properties;
        break;
      }
      case 'items': {
        const item = Array.isArray(value) ? value[0] : value;
        const converted = toGeminiSchema(item, top, depth + 1);
        if (converted) out.items = converted;
        break;
      }
      case 'format':
        if (typeof value === 'string' && type && FORMATS[type]?.has(value)) out.format = value;
        break;
      case 'enum':
        if (Array.isArray(value)) out.enum = value;
        break;
      case 'required':
      case 'propertyOrdering':
        if (Array.isArray(value)) out[key] = value.filter((name) => typeof name === 'string');
        break;
      default:
        out[key] = value;
    }
  }
  if (source.const !== undefined && out.enum === undefined) out.enum = [source.const];
  if (Array.isArray(out.enum)) {
    const values = out.enum as unknown[];
    if (values.includes(null)) nullable = true;
    const kept = values.filter((value) => value !== null);
    if (kept.every((value) => typeof value === 'string') && (!type || type === 'STRING')) {
      out.enum = kept;
    } else {
      // Gemini's enum is for strings: a numeric enum is said in words instead.
      delete out.enum;
      const allowed = `Allowed values: ${kept.map((value) => JSON.stringify(value)).join(', ')}.`;
      out.description = typeof out.description === 'string' ? `${out.description} ${allowed}` : allowed;
    }
  }
  if (anyOf) {
    const members = anyOf.map((member) => toGeminiSchema(member, top, depth + 1)).filter(isRecord);
    // `{type: "null"}` came out as `{nullable: true}`: it makes the whole schema nullable instead.
    const isNull = (member: Json) =>
      member.type === 'NULL' || (Object.keys(member).length === 1 && member.nullable === true);
    const nonNull = members.filter((member) => !isNull(member));
    if (nonNull.length < members.length) nullable = true;
    if (nonNull.length === 1 && nonNull[0] && !out.type) Object.assign(out, nonNull[0]);
    else if (nonNull.length > 0) out.anyOf = nonNull;
  }
  if (nullable) out.nullable = true;
  if (Array.isArray(out.required) && isRecord(out.properties)) {
    const declared = out.properties;
    out.required = (out.required as string[]).filter((name) => name in declared);
  }
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  return out;
}

/** True when a (Gemini or JSON) object schema declares no property: Gemini rejects those. */
export function isEmptyObjectSchema(schema: Json | undefined): boolean {
  if (!schema) return true;
  const properties = schema.properties;
  return (!isRecord(properties) || Object.keys(properties).length === 0) && !Array.isArray(schema.anyOf);
}

/**
 * Gemini's `Schema` → JSON schema for the canonical request: type names lower-cased and
 * `nullable: true` written as `type: [T, "null"]`; every other key kept (JSON-schema consumers
 * ignore the ones they do not know).
 */
export function fromGeminiSchema(schema: unknown, depth = 0): unknown {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'type') continue;
    if (key === 'properties' && isRecord(value)) {
      const properties: Json = {};
      for (const [name, child] of Object.entries(value)) properties[name] = fromGeminiSchema(child, depth + 1);
      out.properties = properties;
    } else if (key === 'items') out.items = fromGeminiSchema(value, depth + 1);
    else if (key === 'anyOf' && Array.isArray(value))
      out.anyOf = value.map((item) => fromGeminiSchema(item, depth + 1));
    else out[key] = value;
  }
  const type = typeof schema.type === 'string' ? schema.type.toLowerCase() : undefined;
  if (type && type !== 'type_unspecified') out.type = schema.nullable === true ? [type, 'null'] : type;
  else if (schema.nullable === true) out.nullable = true;
  return out;
}

/** The largest stream event a Gemini stream may send: it carries generated images inline. */
export const MAX_GEMINI_EVENT_CHARS = 32 * 1024 * 1024;
