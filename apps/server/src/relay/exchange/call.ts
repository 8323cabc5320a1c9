import type { StreamedResponse, UpstreamRequest, WholeResponse } from '../transport/executor.js';
import { streamHeaders } from '../transport/respond.js';
import type { ExchangeDeps, MeteredStream, StreamAnswer } from './types.js';
import { networkFailure, type UpstreamFailure } from './upstream-errors.js';

/**
 * The one way an exchange calls its channel: send, and hand back the answer or the one failure
 * the retry loop acts on. Error answers are read in the channel's own format by `failureOf`.
 */

const MAX_UPSTREAM_BODY = 64 * 1024 * 1024;
const MAX_ERROR_BODY = 1024 * 1024;

/** Reads an error answer (its status and the start of its body) into what the relay does about it. */
export type FailureReader = (status: number, body: Buffer) => UpstreamFailure;

type Sent = Omit<UpstreamRequest, 'signal'>;

/** The whole answer, or the failure to hand back for a retry. */
export async function fetchAnswer(
  deps: ExchangeDeps,
  sent: Sent,
  failureOf: FailureReader,
): Promise<WholeResponse | UpstreamFailure> {
  let answer: WholeResponse;
  try {
    answer = await deps.upstream.fetchWhole(sent, MAX_UPSTREAM_BODY);
  } catch (error) {
    return networkFailure(error);
  }
  if (answer.status < 400) return answer;
  return failureOf(answer.status, answer.body.subarray(0, MAX_ERROR_BODY));
}

/** The upstream's answer at its headers, its body still to come, or the failure to hand back for a retry. */
export async function openAnswer(
  deps: ExchangeDeps,
  sent: Sent,
  failureOf: FailureReader,
): Promise<StreamedResponse | UpstreamFailure> {
  let upstream: StreamedResponse;
  try {
    upstream = await deps.upstream.openStream(sent);
  } catch (error) {
    return networkFailure(error);
  }
  if (upstream.status < 400) return upstream;
  return failureOf(upstream.status, await readRest(upstream));
}

/** What is left of a body that will not be forwarded (an error, a page in place of a stream). */
export function readRest(upstream: StreamedResponse): Promise<Buffer> {
  return upstream.readAll(MAX_ERROR_BODY).catch(() => Buffer.alloc(0));
}

/** An upstream stream to forward to the client as server-sent events through `relay`. */
export function eventStreamAnswer(upstream: StreamedResponse, relay: MeteredStream): StreamAnswer {
  return { kind: 'stream', upstream, status: 200, headers: streamHeaders, relay };
}
