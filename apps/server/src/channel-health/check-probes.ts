import { isRecord, parseJson } from '@one-hub/contracts';
import type { RoutingChannel } from '../api/channel/service.js';
import { providerByType } from '../domain/channel-types/registry.js';
import { speaksOpenAi } from '../relay/exchange/exchange.js';
import { adminMessage, maskKey, networkFailure } from '../relay/exchange/upstream-errors.js';
import { chatAdapterFor } from '../relay/providers/adapters.js';
import type { UpstreamClient } from '../relay/transport/executor.js';
import { callChannel } from './channel-call.js';
import type { BeaconVisit, ImageBeacon } from './check-beacon.js';
import { channelBaseUrl } from './probe.js';

/**
 * The probes of a channel check (POST /api/sse/channel/check): a few non-stream chat requests
 * sent straight to the channel, each judged on what came back. Nothing is billed or logged and
 * the channel's status is left alone: this is a look, not a test with consequences.
 *
 * The image probe sends an image URL on this server (check-beacon.ts) and reports who fetched
 * it, so an administrator can tell the provider's own fetcher from a relay in front of it; it
 * needs ServerAddress to be reachable from the upstream.
 */
export const CheckStatus = { failed: 0, passed: 1, unknown: 2 } as const;
export type CheckStatus = (typeof CheckStatus)[keyof typeof CheckStatus];

export interface CheckResult {
  name: string;
  status: CheckStatus;
  remark: string;
}

export interface CheckProcess {
  name: string;
  results: CheckResult[];
  /** The upstream's answer as text, shortened, with the channel's key masked. */
  response: string;
}

export interface ModelCheck {
  model: string;
  process: CheckProcess[];
}

/** Where a channel's probes go; undefined when its type does not speak OpenAI's format. */
export interface CheckTarget {
  baseUrl: string;
}

interface ProbeAnswer {
  status: number;
  text: string;
  parsed: unknown;
  elapsedMs: number;
}

/** What one model's probes share: the image beacon opened for them, when the server has one. */
interface ProbeContext {
  image?: { url: string; visits(): Promise<BeaconVisit[]> };
}

interface Probe {
  name: string;
  /** The request body; undefined when the probe cannot run in this context. */
  body: Record<string, unknown> | ((context: ProbeContext) => Record<string, unknown> | undefined);
  /** Judges a 2xx answer; error answers are judged by `expectsError` alone. */
  judge(answer: ProbeAnswer, context: ProbeContext): CheckResult[] | Promise<CheckResult[]>;
  /** The probe is an invalid request: an error answer is the good outcome. */
  expectsError?: boolean;
}

const MAX_CHECK_ANSWER = 1024 * 1024;
const PROBE_TIMEOUT_MS = 60_000;
/** How much of an answer is shown to the administrator. */
const SHOWN_RESPONSE = 2000;
const SHOWN_CONTENT = 100;

const HELLO = [{ role: 'user', content: "You just need to output 'hi' next." }];

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Gets the current weather of a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string', description: 'The name of the city' } },
      required: ['city'],
    },
  },
};

/** The channel's OpenAI chat endpoint, or undefined for types the check cannot speak to yet. */
export function checkTarget(channel: RoutingChannel): CheckTarget | undefined {
  const provider = providerByType(channel.type);
  if (!provider || !speaksOpenAi(chatAdapterFor(channel.type))) return undefined;
  // Throws a 400 before the stream starts when the channel has no base URL to call.
  return { baseUrl: channelBaseUrl(channel, provider) };
}

export function unsupportedCheck(model: string): ModelCheck {
  const result = { name: 'support', status: CheckStatus.unknown, remark: 'not supported yet' };
  return { model, process: [{ name: 'basic', results: [result], response: '' }] };
}

function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

function firstMessage(parsed: unknown): Record<string, unknown> | undefined {
  if (!isRecord(parsed) || !Array.isArray(parsed.choices)) return undefined;
  const choice: unknown = parsed.choices[0];
  return isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
}

function contentOf(parsed: unknown): string {
  const content = firstMessage(parsed)?.content;
  return typeof content === 'string' ? content : '';
}

const basicProbe: Probe = {
  name: 'basic',
  body: { messages: HELLO, stream: false },
  judge({ parsed }) {
    const content = contentOf(parsed);
    const usage = isRecord(parsed) && isRecord(parsed.usage) ? parsed.usage : undefined;
    return [
      content.trim()
        ? { name: 'content', status: CheckStatus.passed, remark: shorten(content, SHOWN_CONTENT) }
        : { name: 'content', status: CheckStatus.failed, remark: 'no choice with content came back' },
      typeof usage?.total_tokens === 'number'
        ? { name: 'usage', status: CheckStatus.passed, remark: `${usage.total_tokens} tokens` }
        : { name: 'usage', status: CheckStatus.unknown, remark: 'no usage reported' },
    ];
  },
};

const jsonProbe: Probe = {
  name: 'json_format',
  body: {
    messages: [
      { role: 'system', content: 'You answer with one JSON object and nothing else.' },
      { role: 'user', content: 'Reply with exactly this JSON object: {"ok": true}' },
    ],
    response_format: { type: 'json_object' },
    stream: false,
  },
  judge({ parsed }) {
    const content = contentOf(parsed);
    const answer = parseJson(content);
    if (!isRecord(answer)) {
      const remark = content ? `not a JSON object: ${shorten(content, SHOWN_CONTENT)}` : 'no content came back';
      return [{ name: 'json', status: CheckStatus.failed, remark }];
    }
    const remark = answer.ok === true ? 'answered {"ok": true}' : 'a JSON object, without "ok": true';
    return [{ name: 'json', status: CheckStatus.passed, remark }];
  },
};

const toolProbe: Probe = {
  name: 'tool_call',
  body: {
    messages: [{ role: 'user', content: 'What is the weather in Paris right now? Use the tool.' }],
    tools: [WEATHER_TOOL],
    stream: false,
  },
  judge({ parsed }) {
    const calls = firstMessage(parsed)?.tool_calls;
    const first: unknown = Array.isArray(calls) ? calls[0] : undefined;
    if (!isRecord(first) || !isRecord(first.function)) {
      return [{ name: 'tool_calls', status: CheckStatus.failed, remark: 'no tool call came back' }];
    }
    const { name, arguments: args } = first.function;
    const argumentsValid = typeof args === 'string' && isRecord(parseJson(args));
    return [
      { name: 'tool_calls', status: CheckStatus.passed, remark: `called ${String(name)}` },
      argumentsValid
        ? { name: 'arguments', status: CheckStatus.passed, remark: shorten(String(args), SHOWN_CONTENT) }
        : { name: 'arguments', status: CheckStatus.failed, remark: 'the arguments are not a JSON object' },
    ];
  },
};

const errorProbe: Probe = {
  name: 'error_format',
  body: { messages: HELLO, max_tokens: -1, stream: false },
  expectsError: true,
  judge: () => [{ name: 'error', status: CheckStatus.failed, remark: 'the upstream accepted an invalid request' }],
};

const imageProbe: Probe = {
  name: 'image',
  body: ({ image }) =>
    image && {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What colour is this image? Answer in one word.' },
            { type: 'image_url', image_url: { url: image.url } },
          ],
        },
      ],
      stream: false,
    },
  async judge({ parsed }, { image }) {
    const content = contentOf(parsed);
    const visits = (await image?.visits()) ?? [];
    const first = visits[0];
    return [
      content.trim()
        ? { name: 'content', status: CheckStatus.passed, remark: shorten(content, SHOWN_CONTENT) }
        : { name: 'content', status: CheckStatus.failed, remark: 'no choice with content came back' },
      first
        ? {
            name: 'fetch',
            status: CheckStatus.passed,
            remark: `fetched ${visits.length}× by "${shorten(first.user_agent, SHOWN_CONTENT)}" from ${first.ip}`,
          }
        : {
            name: 'fetch',
            status: CheckStatus.unknown,
            remark: 'the image URL was not fetched: the upstream may not reach ServerAddress, or did not look',
          },
    ];
  },
};

export const CHECK_PROBES: readonly Probe[] = [basicProbe, jsonProbe, toolProbe, errorProbe, imageProbe];

/** An error answer in OpenAI's envelope: `{"error": {"message": "…"}}`. */
function judgeError(answer: ProbeAnswer): CheckResult {
  const error = isRecord(answer.parsed) ? answer.parsed.error : undefined;
  if (isRecord(error) && typeof error.message === 'string') {
    const remark = `HTTP ${answer.status}: ${shorten(error.message, SHOWN_CONTENT)}`;
    return { name: 'error', status: CheckStatus.passed, remark };
  }
  return { name: 'error', status: CheckStatus.failed, remark: `HTTP ${answer.status}, not in OpenAI's error format` };
}

async function judge(probe: Probe, answer: ProbeAnswer, context: ProbeContext): Promise<CheckResult[]> {
  const succeeded = answer.status >= 200 && answer.status < 300;
  if (probe.expectsError) return succeeded ? probe.judge(answer, context) : [judgeError(answer)];
  const took = `HTTP ${answer.status} in ${Math.round(answer.elapsedMs)} ms`;
  if (!succeeded) {
    const error = isRecord(answer.parsed) && isRecord(answer.parsed.error) ? answer.parsed.error.message : undefined;
    const remark = typeof error === 'string' ? `${took}: ${shorten(error, SHOWN_CONTENT)}` : took;
    return [{ name: 'request', status: CheckStatus.failed, remark }];
  }
  return [{ name: 'request', status: CheckStatus.passed, remark: took }, ...(await probe.judge(answer, context))];
}

async function runProbe(
  upstream: UpstreamClient,
  channel: RoutingChannel,
  target: CheckTarget,
  model: string,
  probe: Probe,
  context: ProbeContext,
  signal: AbortSignal,
): Promise<CheckProcess | undefined> {
  const body = typeof probe.body === 'function' ? probe.body(context) : probe.body;
  if (!body) return undefined;
  const { raw, failure, elapsedMs } = await callChannel(upstream, {
    channel,
    baseUrl: target.baseUrl,
    path: '/v1/chat/completions',
    body,
    model,
    keywords: [],
    signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
    limit: MAX_CHECK_ANSWER,
  });
  if (!raw) {
    const remark = maskKey(adminMessage(failure ?? networkFailure('no answer')), channel.key);
    return { name: probe.name, results: [{ name: 'request', status: CheckStatus.failed, remark }], response: '' };
  }
  const text = maskKey(raw.body.toString('utf8'), channel.key);
  const answer = { status: raw.status, text, parsed: parseJson(text), elapsedMs };
  return { name: probe.name, results: await judge(probe, answer, context), response: shorten(text, SHOWN_RESPONSE) };
}

/**
 * Runs every probe for one model, side by side; `signal` stops them all (client gone, shutdown).
 * Without a `beacon` the image probe is left out.
 */
export async function checkModel(
  upstream: UpstreamClient,
  channel: RoutingChannel,
  target: CheckTarget,
  model: string,
  signal: AbortSignal,
  beacon?: ImageBeacon,
): Promise<ModelCheck> {
  const context: ProbeContext = beacon ? { image: await beacon.open() } : {};
  const process = await Promise.all(
    CHECK_PROBES.map((probe) => runProbe(upstream, channel, target, model, probe, context, signal)),
  );
  return { model, process: process.filter((step) => step !== undefined) };
}
