import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BpeCounter, deserialiseRanks, packRanks, type RankList } from './bpe.js';

/**
 * Token counts. The real tokenizer (o200k, the GPT-4o family's) is loaded only when it is needed,
 * that is when an upstream reports no usage; reservations use a fast estimate instead and
 * settlement uses real counts. Our own counter over a packed merge table (bpe.ts) costs about
 * 5 MB where the library's encoder costs 40 to 70 MB; the library supplies the table and the
 * pre-tokenisation pattern, and a test holds the two to the same counts.
 */
type CountTokens = (text: string) => number;
let countTokens: CountTokens | undefined;

/**
 * The o200k counter, from the packed table when `ranksFile` exists (the build writes it beside
 * the bundle, see tsup.config.ts), else packed at load from the library's table (running from
 * source, as tests do).
 */
export function loadTokenCounter(ranksFile: URL): CountTokens {
  const load = createRequire(import.meta.url);
  const { O200K_TOKEN_SPLIT_REGEX } = load('gpt-tokenizer/encodingParams/constants') as {
    O200K_TOKEN_SPLIT_REGEX: RegExp;
  };
  const ranks = existsSync(ranksFile)
    ? deserialiseRanks(readFileSync(ranksFile))
    : packRanks((load('gpt-tokenizer/bpeRanks/o200k_base') as { default: RankList }).default);
  const counter = new BpeCounter(ranks, O200K_TOKEN_SPLIT_REGEX);
  return (text) => counter.count(text);
}

function tokenizer(): CountTokens {
  countTokens ??= loadTokenCounter(new URL('./o200k_base.bin', import.meta.url));
  return countTokens;
}

/** ApproximateTokenEnabled's rule (reference §5.3): 0.38 tokens a byte of UTF-8, rounded down. */
export function approximateTokens(text: string): number {
  return Math.trunc(Buffer.byteLength(text) * 0.38);
}

let approximate: () => boolean = () => false;

/**
 * Makes every count use `approximateTokens` while `enabled()` says so (the relay passes the
 * ApproximateTokenEnabled setting): no tokenizer is loaded or run then, which spares CPU on large
 * prompts at the cost of exactness.
 */
export function countApproximatelyWhen(enabled: () => boolean): void {
  approximate = enabled;
}

export function countTextTokens(text: string): number {
  if (!text) return 0;
  return approximate() ? approximateTokens(text) : tokenizer()(text);
}

// Per-message framing OpenAI adds around each chat message.
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;
const TOKENS_PER_IMAGE = 85;

type TextCounter = (text: string) => number;

/** What a prompt count takes in: images are left out for channels whose `pre_cost` is 2. */
export interface PromptCountOptions {
  images?: boolean;
}

/** On the generous side for English (about four characters a token) and for CJK (about one). */
export const estimateTextTokens: TextCounter = (text) => Math.ceil(text.length / 2);

function chatTokens(
  body: { messages?: unknown; tools?: unknown },
  count: TextCounter,
  options: PromptCountOptions = {},
): number {
  let total = TOKENS_PER_REPLY;
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      total += TOKENS_PER_MESSAGE;
      if (!message || typeof message !== 'object') continue;
      const { content, name, role } = message as { content?: unknown; name?: unknown; role?: unknown };
      if (typeof role === 'string') total += 1;
      if (typeof name === 'string') total += count(name) + 1;
      total += contentTokens(content, count, options);
    }
  }
  if (body.tools !== undefined) total += count(JSON.stringify(body.tools));
  return total;
}

function contentTokens(content: unknown, count: TextCounter, options: PromptCountOptions = {}): number {
  if (typeof content === 'string') return count(content);
  if (!Array.isArray(content)) return 0;
  let total = 0;
  for (const part of content) {
    if (!part || typeof part !== 'object') continue;
    const { type, text } = part as { type?: unknown; text?: unknown };
    if (typeof text === 'string') total += count(text);
    else if ((type === 'image_url' || type === 'input_image') && options.images !== false) total += TOKENS_PER_IMAGE;
  }
  return total;
}

function inputTokens(input: unknown, count: TextCounter): number {
  if (typeof input === 'string') return count(input);
  if (Array.isArray(input))
    return input.reduce<number>((sum, item) => sum + (typeof item === 'string' ? count(item) : 0), 0);
  return 0;
}

/** Prompt tokens of a chat request, exactly (text parts and tools; images at a flat low-detail cost). */
export const countChatPromptTokens = (body: { messages?: unknown; tools?: unknown }) =>
  chatTokens(body, countTextTokens);
export const estimateChatPromptTokens = (body: { messages?: unknown; tools?: unknown }, options?: PromptCountOptions) =>
  chatTokens(body, estimateTextTokens, options);
/** Prompt tokens of a legacy completion or an embeddings input (a string or a list of strings). */
export const countInputTokens = (input: unknown) => inputTokens(input, countTextTokens);
export const estimateInputTokens = (input: unknown) => inputTokens(input, estimateTextTokens);

interface ResponsesBody {
  input?: unknown;
  instructions?: unknown;
  tools?: unknown;
}

function responsesItemTokens(item: unknown, count: TextCounter, options?: PromptCountOptions): number {
  if (typeof item === 'string') return count(item);
  if (!item || typeof item !== 'object') return 0;
  const { content, output, arguments: args, role } = item as Record<string, unknown>;
  let total = contentTokens(content, count, options);
  if (typeof role === 'string') total += 1;
  if (typeof output === 'string') total += count(output);
  if (typeof args === 'string') total += count(args);
  return total;
}

function responsesTokens(body: ResponsesBody, count: TextCounter, options?: PromptCountOptions): number {
  let total = TOKENS_PER_REPLY;
  if (typeof body.instructions === 'string') total += TOKENS_PER_MESSAGE + count(body.instructions);
  const items = Array.isArray(body.input) ? body.input : body.input === undefined ? [] : [body.input];
  for (const item of items) total += TOKENS_PER_MESSAGE + responsesItemTokens(item, count, options);
  if (body.tools !== undefined) total += count(JSON.stringify(body.tools));
  return total;
}

/** Prompt tokens of a Responses API request: `instructions` and every item of `input`, chat-style. */
export const countResponsesPromptTokens = (body: ResponsesBody) => responsesTokens(body, countTextTokens);
export const estimateResponsesPromptTokens = (body: ResponsesBody, options?: PromptCountOptions) =>
  responsesTokens(body, estimateTextTokens, options);

// Documents without text (images) are counted at a flat rate.
const TOKENS_PER_TEXTLESS_DOCUMENT = 10;

function rerankTokens(body: { query?: unknown; documents?: unknown }, count: TextCounter): number {
  let total = typeof body.query === 'string' ? count(body.query) : 0;
  for (const document of Array.isArray(body.documents) ? body.documents : []) {
    const text = typeof document === 'string' ? document : (document as { text?: unknown } | null | undefined)?.text;
    total += typeof text === 'string' ? count(text) : TOKENS_PER_TEXTLESS_DOCUMENT;
  }
  return total;
}

/** Prompt tokens of a rerank request: the query and every document. */
export const countRerankTokens = (body: { query?: unknown; documents?: unknown }) =>
  rerankTokens(body, countTextTokens);
export const estimateRerankTokens = (body: { query?: unknown; documents?: unknown }) =>
  rerankTokens(body, estimateTextTokens);

/** Text-to-speech is billed per character of the input (code points, not UTF-16 units). */
export function characterCount(text: unknown): number {
  return typeof text === 'string' ? [...text].length : 0;
}

const TALLY_PENDING_CHARS = 16 * 1024;

/**
 * Counts streamed text as if it were one string, holding at most about 16K characters: deltas
 * split words, so counting each on its own would over-count. Text is counted at a whitespace
 * boundary once enough has gathered, the rest at the end; a stream whose upstream reports usage
 * usually never needs the tokenizer at all.
 */
export class TextTally {
  private pending = '';
  private counted = 0;

  push(text: string): void {
    if (!text) return;
    this.pending += text;
    if (this.pending.length < TALLY_PENDING_CHARS) return;
    const cut = Math.max(this.pending.lastIndexOf(' '), this.pending.lastIndexOf('\n'));
    const at = cut > 0 ? cut : this.pending.length;
    this.counted += countTextTokens(this.pending.slice(0, at));
    this.pending = this.pending.slice(at);
  }

  total(): number {
    return this.counted + countTextTokens(this.pending);
  }
}
