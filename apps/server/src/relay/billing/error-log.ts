import { LogType, type RouteExplanation } from '@one-hub/contracts';
import { fitLogColumn } from '../../domain/log-rows.js';
import type { RelayHttpRequest } from '../../http/relay-front.js';
import type { NewLogRow } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { maskText } from '../../platform/logger.js';
import type { RelayCaller } from '../access/keys.js';
import type { Attempt } from '../exchange/types.js';

/** A relay request that failed for good: what its error log row is made of. */
export interface FailureRecord {
  caller: RelayCaller;
  requestId: string;
  sourceIp: string;
  model: string;
  stream: boolean;
  startedAt: number;
  /** Every channel called, in order; the last one gave the answer the client got. */
  channelsTried: readonly number[];
  error: AppError;
  /** How the request was routed (route-trace.ts), when it was. */
  route?: RouteExplanation | undefined;
}

const CONTENT_LIMIT = 2000;

/**
 * Whether a failure is worth an error row: the gateway's or the upstream's (5xx, an upstream's
 * 429, no channel left) and content safety's refusals, never the client's own other mistakes (bad input, bad key, a model nobody
 * serves, its own limits), which anyone could send by the thousand to fill the table.
 */
export function isRecordedFailure(error: unknown): error is AppError {
  if (!(error instanceof AppError)) return false;
  if (error.status >= 500) return true;
  // The administrator turned content safety on to see what it stops.
  if (error.details.code === 'content_security_policy_blocking') return true;
  return error.code === 'upstream_error' && error.status === 429;
}

/**
 * The error row of a failed relay request (type 5, as new-api numbers it). Quota 0: nothing was
 * charged. The text is the one the client read (the channel key was already taken out of it),
 * masked again because an upstream may quote any credential, and its owner can read the row.
 */
export function errorLogRow(record: FailureRecord): NewLogRow {
  const { error, channelsTried } = record;
  const metadata = {
    status: error.status,
    error_code: typeof error.details.code === 'string' ? error.details.code : error.code,
    attempts: channelsTried.length,
    channels_tried: channelsTried,
    ...(record.route ? { route: record.route } : {}),
  };
  const text = maskText(error.message);
  return {
    user_id: record.caller.user.id,
    username: fitLogColumn('username', record.caller.user.username),
    created_at: Math.floor(Date.now() / 1000),
    type: LogType.error,
    content: text.length > CONTENT_LIMIT ? `${text.slice(0, CONTENT_LIMIT - 1)}…` : text,
    token_name: fitLogColumn('token_name', record.caller.token.name),
    token_id: record.caller.token.id,
    model_name: fitLogColumn('model_name', record.model),
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    channel_id: channelsTried.at(-1) ?? 0,
    request_time: Date.now() - record.startedAt,
    is_stream: record.stream,
    source_ip: fitLogColumn('source_ip', record.sourceIp),
    request_id: fitLogColumn('request_id', record.requestId),
    metadata: JSON.stringify(metadata),
  };
}

/**
 * Writes the error row of a request that failed for good, through the batched log writer like a
 * consume row (never a database write on the request path); the client's mistakes are left out.
 */
export function recordFailure(
  writeLog: (row: NewLogRow) => void,
  attempt: Attempt,
  request: RelayHttpRequest,
  error: unknown,
): void {
  if (!isRecordedFailure(error)) return;
  writeLog(
    errorLogRow({
      caller: attempt.caller,
      requestId: request.id,
      sourceIp: request.ip,
      model: attempt.input.model,
      stream: attempt.input.stream,
      startedAt: attempt.startedAt,
      channelsTried: attempt.channelsTried,
      error,
      route: attempt.route?.toJSON(),
    }),
  );
}
