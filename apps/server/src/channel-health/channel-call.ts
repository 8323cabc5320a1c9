import type { RoutingChannel } from '../api/channel/service.js';
import { mapModel } from '../domain/model-mapping.js';
import { readBody } from '../platform/read-body.js';
import { exchangeFor } from '../relay/exchange/exchange.js';
import type { Endpoint, ExchangeCall, ExchangeDeps } from '../relay/exchange/types.js';
import { isFailure, type UpstreamFailure } from '../relay/exchange/upstream-errors.js';
import { chatAdapterFor } from '../relay/providers/adapters.js';
import { endpoints } from '../relay/surfaces/openai.js';
import type { UpstreamClient } from '../relay/transport/executor.js';

/**
 * One request the gateway writes itself to a channel (tests, checks), made the way the relay
 * makes a client's: through the exchange the channel's type and the endpoint call for, so the URL,
 * the translation and the reading of errors are the relay's own. Nothing is billed or logged.
 */

export type ProbePath = '/v1/chat/completions' | '/v1/embeddings' | '/v1/images/generations' | '/v1/audio/speech';

export interface ChannelRequest {
  channel: RoutingChannel;
  /** The channel's base URL, worked out (and refused with a 400) before anything is sent. */
  baseUrl: string;
  path: ProbePath;
  /** The OpenAI-format body, without the model. */
  body: Record<string, unknown>;
  /** The model as a client would ask for it; the channel's mapping applies. */
  model: string;
  /** DisableChannelKeywords: the gateway wrote the request, so its error messages can be trusted. */
  keywords: readonly string[];
  /** Ends the call: the test's own timeout, shutdown, or the administrator gone. */
  signal: AbortSignal;
  /** An answer larger than this is not a test answer; reading stops there. */
  limit: number;
}

export interface ChannelOutcome {
  /** The upstream's answer as it came, error answers included; absent when none came. */
  raw: { status: number; body: Buffer } | undefined;
  /** Why the call failed, as the relay would classify it; absent on success. */
  failure: UpstreamFailure | undefined;
  /** From sending to the answer's last byte. */
  elapsedMs: number;
}

const endpointByPath = new Map<string, Endpoint>(endpoints.map((endpoint) => [endpoint.path, endpoint]));

/** Sends `request` through the relay's exchange for its channel and endpoint. */
export async function callChannel(upstream: UpstreamClient, request: ChannelRequest): Promise<ChannelOutcome> {
  const { channel, model } = request;
  const endpoint = endpointByPath.get(request.path);
  if (!endpoint) throw new Error(`${request.path} is not a relay endpoint`);
  const adapter = chatAdapterFor(channel.type);
  const { upstreamModel, billedModel } = mapModel(channel, model);
  let raw: ChannelOutcome['raw'];
  const deps: ExchangeDeps = {
    upstream: readingWithin(upstream, request, (answer) => {
      raw = answer;
    }),
    baseUrlOf: () => request.baseUrl,
  };
  const startedAt = performance.now();
  const call: ExchangeCall = {
    deps,
    endpoint,
    attempt: { input: { model, stream: false, fields: { ...request.body, model } }, startedAt: Date.now() },
    channel,
    // The lookup answers a channel without an adapter with a failure before it reads this.
    adapter: adapter as NonNullable<typeof adapter>,
    upstreamModel,
    billedModel,
    trustedKeywords: request.keywords,
  };
  const answer = await exchangeFor(endpoint, channel.type, upstreamModel, adapter)(call);
  const elapsedMs = performance.now() - startedAt;
  return { raw, failure: isFailure(answer) ? answer : undefined, elapsedMs };
}

/**
 * The executor as the exchange sees it, but each whole answer is read within the request's signal
 * and limit (the relay's own timeouts are far longer) and shown to `seen` as it came.
 */
function readingWithin(
  upstream: UpstreamClient,
  request: ChannelRequest,
  seen: (answer: { status: number; body: Buffer }) => void,
): UpstreamClient {
  return {
    send: (sent) => upstream.send(sent),
    async fetchWhole(sent) {
      const response = await upstream.send({ ...sent, signal: request.signal });
      const body = await readBody(response.body, request.limit);
      seen({ status: response.status, body });
      return { status: response.status, headers: response.headers, body };
    },
    openStream: () => Promise.reject(new Error('channel tests read whole answers')),
    close: () => Promise.resolve(),
  };
}
