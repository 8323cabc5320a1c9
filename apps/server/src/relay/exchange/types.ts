import type { Json } from '@one-hub/contracts';
import type { ActivePlanReader } from '../../domain/active-plan.js';
import type { OptionReader } from '../../domain/options.js';
import type { RelayHttpReply, RelayHttpRequest } from '../../http/relay-front.js';
import type { Logger } from '../../platform/logger.js';
import type { ImageStorage } from '../../platform/storage/index.js';
import type { ConcurrencyGate } from '../access/concurrency.js';
import type { GroupDirectory } from '../access/groups.js';
import type { KeyAuthenticator, RelayCaller } from '../access/keys.js';
import type { RateLimiter } from '../access/limits.js';
import type { CompletionEstimates } from '../billing/completion-estimates.js';
import type { consumeLogRow } from '../billing/consume-log.js';
import type { QuotaLedger } from '../billing/ledger.js';
import type { LowBalanceReminder } from '../billing/low-balance.js';
import type { PromptCountOptions } from '../billing/metering.js';
import type { Price, Usage } from '../billing/quota.js';
import type {
  AdapterContext,
  ChatAdapter,
  ChatRequest,
  ChatUsage,
  NativeStreamMeter,
  SurfaceTranslator,
  TextSink,
  UpstreamCall,
} from '../providers/types.js';
import type { RouteTrace } from '../routing/route-trace.js';
import type { ChannelRouter, RouterChannel } from '../routing/router.js';
import type { StreamedResponse, UpstreamClient } from '../transport/executor.js';
import type { ImageFetcher } from '../transport/image-fetch.js';
import type { MultipartForm } from '../transport/multipart.js';
import type { StreamRelay } from '../transport/respond.js';
import type { HeartbeatTiming } from './heartbeat.js';
import type { UpstreamFailure } from './upstream-errors.js';

/**
 * The relay's vocabulary, in the order a request meets it: the endpoint it came to and its input,
 * the attempt, one exchange with one channel, and the answer that exchange hands the transport.
 * Types only, so every stage can name them without importing another stage's code.
 */

/** A client request as the pipeline sees it, whatever its encoding. */
export interface RelayInput {
  model: string;
  stream: boolean;
  /** The JSON body, or the text fields of a multipart form (all strings). */
  fields: Json;
  /** Multipart requests only: the body as received, forwarded unchanged but for the model. */
  form?: MultipartForm;
  /** The request in the canonical chat shape, once a translation needed it (translated.ts). */
  chat?: ChatRequest;
}

/** How the server-sent events of a passed-through stream are metered and, if need be, rewritten. */
export interface StreamFormat {
  /** The usage an event reports, in billing form. */
  usageOf(event: Json): Usage | undefined;
  /** Generated text carried by an event, counted when the upstream reports no usage. */
  textOf(event: Json): string;
  /**
   * `textOf` of an event's data read without parsing it, for an event that surely reports no
   * usage; undefined when the event must be parsed (it runs once per streamed event).
   */
  quickText?(data: string): string | undefined;
  /** What the client gets instead of the event: undefined keeps it as sent, null drops it. */
  rewrite?(event: Json, input: RelayInput): Json | null | undefined;
  /**
   * False when `rewrite` surely keeps this event (its text alone tells): such events are sent
   * before they are read. Without it, every event of a format with `rewrite` is read first.
   */
  mayRewrite?(eventText: string, input: RelayInput): boolean;
  /** The data of the event that ends a complete stream (`[DONE]`), sent if the upstream left it out. */
  endMarker?: string;
}

/**
 * One endpoint of the relay: how its request is read and checked, how its prompt is estimated and
 * counted, where its usage is found, what kind of body a success returns, and (chat surfaces) the
 * client's wire format, which decides how it reaches each channel (exchange.ts).
 */
export interface Endpoint {
  path: string;
  body: 'json' | 'multipart';
  /** Used when the request names no model; without it the model is required. */
  defaultModel?: string;
  /** A non-streamed success: JSON metered from its body, or bytes forwarded as they arrive. */
  output: 'json' | 'binary';
  /** Present when `stream: true` makes the upstream answer with server-sent events. */
  stream?: StreamFormat;
  /** Checks the fields the endpoint needs beyond the model; throws a 400 naming the field. */
  validate?(input: RelayInput): void;
  /** Fast, generous estimate used to size the reservation (images left out when `options.images` is false). */
  estimatePrompt(input: RelayInput, options?: PromptCountOptions): number;
  /** Exact prompt count for the billed model, used when the upstream reports no usage. */
  countPrompt(input: RelayInput, billedModel: string): number;
  /** The usage a JSON success body reports, in billing form. */
  usageOf(body: unknown): Usage | undefined;
  /** Completion tokens of a success body that reports no usage (generated text, transcripts). */
  countCompletion?(raw: Buffer, contentType: string): number;
  /** Whether a parsed 2xx body is this endpoint's answer; absent when any body goes (text transcripts). */
  isAnswer?(body: unknown): boolean;
  /**
   * A chat endpoint: the client's format (OpenAI chat, Anthropic Messages, Gemini, Responses).
   * Channels of that format get the body passed through; every other one is reached by translation.
   * Without it the endpoint is OpenAI's: passed through to OpenAI-format channels, translated whole
   * where a channel's adapter serves it (embeddings, rerank).
   */
  surface?: SurfaceBinding;
  /**
   * A vendor's own endpoint (Recraft's tools): only channels whose adapter has this `format` serve
   * it; any other channel that lists the model is skipped as unable to.
   */
  onlyFormat?: string;
  /** Chat surfaces (OpenAI chat, Anthropic, Gemini) honour a key's heartbeat (heartbeat.ts). */
  heartbeat?: boolean;
  /** OpenAI chat: a model ending in `#search` is answered with web search results (relay/web-search/). */
  webSearch?: boolean;
  /** The API key as the client's SDK sends it, when not in `Authorization` (x-api-key, ?key=). */
  credential?(request: RelayHttpRequest): string | undefined;
  /** The model when the client names it outside the body (Gemini puts it in the path). */
  modelOf?(request: RelayHttpRequest): string | undefined;
  /** Whether the client asked for a stream, when not by `stream: true` (Gemini: the method name). */
  isStream?(request: RelayHttpRequest, fields: Json): boolean;
}

/** A client wire format, how its streams carry an error raised mid-way, and who takes it as it is. */
export interface SurfaceBinding {
  translator: SurfaceTranslator;
  /** An error after the stream started, in the surface's stream framing. */
  streamError(message: string): string;
  /** The client's own stream encoder, when it depends on the request (OpenAI's usage chunk). */
  encoderFor?(input: RelayInput): ReturnType<SurfaceTranslator['encodeStream']>;
  /**
   * Whether a channel takes this surface's body unchanged (same format): `'openai'` for the OpenAI
   * pass-through, a native pass-through, or undefined when the channel is reached by translation.
   */
  passThrough(
    channelType: number,
    upstreamModel: string,
    adapter: ChatAdapter | undefined,
    channel?: ChannelFlags,
  ): PassThrough | undefined;
}

/** The channel's own say in how a surface reaches it. */
export type ChannelFlags = Pick<RouterChannel, 'compatible_response'>;

/** How a request reaches a channel of the same wire format: OpenAI's pass-through, or a native one. */
export type PassThrough = 'openai' | NativePassThrough;

/** Same format in and out: the body goes through but for the model; usage is read on the way. */
export interface NativePassThrough {
  prepare(
    body: Json,
    context: AdapterContext,
    request: RelayHttpRequest | undefined,
    adapter: ChatAdapter,
  ): UpstreamCall | Promise<UpstreamCall>;
  usageOf(body: Json): ChatUsage | undefined;
  /** Reads usage from a passing stream, handing its generated text to `onText` for counting. */
  meter(onText: TextSink): NativeStreamMeter;
  /** A stream not in the client's framing (Bedrock's event stream) is re-framed on the way. */
  reframe?(): { push(bytes: Buffer): string; end(): string };
}

/** What the pipeline needs from the rest of the server; all of it answers from memory. */
export interface RelayDeps {
  keys: KeyAuthenticator;
  upstream: UpstreamClient;
  router: ChannelRouter;
  ledger: QuotaLedger;
  limiter: RateLimiter;
  concurrency: ConcurrencyGate;
  groups: GroupDirectory;
  /** Users' subscription plans, drawn on before the balance (budgets/budgeted-ledger.ts). */
  plans?: ActivePlanReader;
  options: OptionReader;
  prices: { lookup(model: string): Price };
  baseUrlOf(channel: RouterChannel): string;
  writeLog(row: ReturnType<typeof consumeLogRow>): void;
  /**
   * Writes the settlements and log rows recorded so far to the crash journal, with those of every
   * other request of this turn of the event loop (Journal.commitTogether); the answer waits for the
   * returned promise, so a process killed after the client saw it loses neither. Without a journal
   * (tests that build the relay by hand) there is nothing to write.
   */
  commitJournal?(): Promise<void> | undefined;
  /** The low-balance e-mail, if a charge crossed the reminder threshold (low-balance.ts). */
  remindLowBalance: LowBalanceReminder;
  /** Switches a channel off after its failure; true when this call switched it (Services.disableChannel). */
  disableChannel(channel: RouterChannel, reason: string): Promise<boolean>;
  logger: Logger;
  heartbeat: HeartbeatTiming;
  /** Told how each request ends (the metrics); absent, the pipeline does nothing extra. */
  observer?: RelayObserver | undefined;
  /** ChatCacheEnabled's cache of answers (chat-cache.ts); absent, nothing is cached. */
  chatCache?: ChatCache | undefined;
  /** Image URLs fetched for upstreams that take images only inline (transport/image-fetch.ts). */
  images?: ImageFetcher | undefined;
  /** Image hosts for generated images answered as URLs (exchange/stored-images.ts); absent, none. */
  imageStorage?: ImageStorage | undefined;
  /** What this node learned of each model's answer lengths, to size reservations; absent, PreConsumedQuota is held. */
  completions?: CompletionEstimates | undefined;
  /** Conversations' pinned channels (routing/affinity.ts); absent, every request is routed afresh. */
  affinity?: ChannelPins | undefined;
  /** `#search` models' step before routing (relay/web-search/); absent when no searcher is configured. */
  webSearch?: WebSearchStep | undefined;
}

/**
 * Runs before a `#search` request is routed: asks for a search query, searches, and rewrites the
 * attempt's last user message with the results. It never fails the request: without results the
 * request goes on as the client sent it.
 */
export interface WebSearchStep {
  prepare(endpoint: Endpoint, attempt: Attempt, request: RelayHttpRequest, reply: RelayHttpReply): Promise<void>;
}

/** Conversations' pinned channels, expiring `ttlMs` after their last use (routing/affinity.ts's AffinityPins). */
export interface ChannelPins {
  get(key: string): number | undefined;
  set(key: string, channelId: number, ttlMs: number): void;
}

/**
 * Watches the relay from outside (metrics/relay-metrics.ts, observability/tracing/): a request
 * starts, its attempt is put on its record once the body is read, each channel tried may be
 * watched, and it finishes with the status the client got. Several are combined by observers.ts.
 */
export interface RelayObserver {
  /** `request` names the request and carries its headers (a trace's parent); absent where there is none. */
  started(route: string, request?: ObservedRequest): RelayRecord;
  /** `error` is what failed the request, when it failed by an error. */
  finished(record: RelayRecord, status: number, error?: unknown): void;
  /** One channel failed one try (the request may still be answered by another). */
  upstreamFailed(channelId: number): void;
  /** One try on one channel begins (attempt.ts); absent, or answering undefined, tries are not watched. */
  channelTry?(record: RelayRecord, channel: TriedChannel): ChannelTryWatch | undefined;
  /** Rows the log writer holds, read when the metrics are scraped. */
  watchLogBacklog(rows: () => number): void;
}

export interface ObservedRequest {
  id: string;
  headers: RelayHttpRequest['headers'];
}

export interface RelayRecord {
  attempt: Attempt | undefined;
}

/** The channel of one try, and the model name it is sent. */
export interface TriedChannel {
  id: number;
  type: number;
  upstreamModel: string;
}

/** Hears how one try on one channel went. */
export interface ChannelTryWatch {
  /** The channel failed before anything reached the client. */
  failed(failure: UpstreamFailure): void;
  /** The channel answered with `status`; a tap, when answered, is shown what the client is sent. */
  answered(status: number): AnswerTap | undefined;
  /** The answer was sent (or broke off, or the client left). */
  ended(outcome: { clientGone: boolean; failure?: unknown }): void;
}

/** Is shown an answer as the client gets it: a whole body, or a stream's writes in order. */
export interface AnswerTap {
  whole(body: Buffer | string): void;
  chunk(data: string | Uint8Array): void;
}

/** One client request on its way through the channels. */
export interface Attempt {
  caller: RelayCaller;
  input: RelayInput;
  group: string;
  groupRatio: number;
  startedAt: number;
  /** The channels called so far, in order (the error log names the last). */
  channelsTried: number[];
  /** Quota charged once it settled (metrics, traces). */
  charged?: number;
  /** The usage it was billed on, once it settled (traces). */
  usage?: Usage;
  /** The observers' record of this request (watching each channel tried); absent when none observes. */
  record?: RelayRecord | undefined;
  /** The chat cache's entry this request's answer fills (chat-cache.ts); absent when it may not. */
  cacheKey?: string;
  /** How the request was routed, for its log row; absent where nothing routes (forced channels still trace). */
  route?: RouteTrace;
  /** The last channel failure of the current model's round: whether a fallback may follow (routing/fallbacks.ts). */
  lastFailure?: UpstreamFailure | undefined;
  /** Set while a fallback model serves: the model the client asked for (`input.model` is the fallback). */
  requestedModel?: string;
  /** The conversation's pin key when cache affinity applies (routing/affinity.ts). */
  affinityKey?: string | undefined;
  /**
   * Set for a call the gateway makes on the client's behalf (a `#search` query, web-search/): its
   * whole answer is handed here, settled and logged as usual, instead of being sent to the client.
   */
  keepAnswer?: ((answer: WholeAnswer) => void) | undefined;
}

/** What an exchange needs of the server: the executor and the channel's base URL, nothing more. */
export type ExchangeDeps = Pick<RelayDeps, 'upstream' | 'baseUrlOf' | 'imageStorage'> & {
  /** The settings translations follow (exchange/settings.ts); without them, their defaults. */
  options?: Pick<OptionReader, 'get' | 'getNumber'>;
  /** Fetches images by URL for upstreams that take them only inline; without it such URLs are refused. */
  images?: ImageFetcher | undefined;
};

/**
 * What one exchange is given: the request, the channel, and the model names its mapping gave.
 * Channel tests (channel-health/) make calls of their own through the same exchanges.
 */
export interface ExchangeCall {
  deps: ExchangeDeps;
  endpoint: Endpoint;
  /** Exchanges read only the input and when it began; the rest is the pipeline's. */
  attempt: Pick<Attempt, 'input' | 'startedAt'>;
  channel: RouterChannel;
  /** The channel type's adapter; OpenAI's for OpenAI-format channels. */
  adapter: ChatAdapter;
  upstreamModel: string;
  billedModel: string;
  /** Absent for calls the gateway makes itself (channel tests): no client request behind them. */
  request?: RelayHttpRequest;
  /**
   * The DisableChannelKeywords, for requests the gateway wrote itself (channel tests) only: a
   * client's error may repeat its own input (upstream-errors.ts).
   */
  trustedKeywords?: readonly string[];
}

/**
 * One call to one channel: the answer, ready for the transport to write, or the one failure to
 * hand back to the retry loop. Nothing has reached the client when it returns.
 */
export type Exchange = (call: ExchangeCall) => Promise<Answer | UpstreamFailure>;

/** An answer read whole, its usage known. */
export interface WholeAnswer {
  kind: 'whole';
  status: number;
  contentType: string;
  body: Buffer | string;
  usage: Usage;
}

/** An answer to forward as it arrives; its usage is known once the pump has ended. */
export interface StreamAnswer {
  kind: 'stream';
  upstream: StreamedResponse;
  status: number;
  headers: Record<string, string>;
  relay: MeteredStream;
}

/** A stream relay that keeps the counters billing needs, and only those. */
export interface MeteredStream extends StreamRelay {
  usage(): Usage;
}

export type Answer = WholeAnswer | StreamAnswer;

/** A stored answer of the chat cache (chat-cache.ts). */
export interface CachedChat {
  contentType: string;
  body: string;
  usage: Usage;
}

export interface ChatCache {
  /** The entry key for this request, or undefined when the request may not use the cache. */
  keyFor(endpoint: Endpoint, attempt: Attempt): string | undefined;
  read(key: string): Promise<CachedChat | undefined>;
  /** Keeps a successful JSON answer (status 200) for the configured time. */
  write(key: string, answer: WholeAnswer): Promise<void>;
  /** ChatCacheRatio. */
  ratio(): number;
}
