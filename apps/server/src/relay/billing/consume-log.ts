import { LogType, type RouteExplanation } from '@one-hub/contracts';
import { fitLogColumn } from '../../domain/log-rows.js';
import type { NewLogRow } from '../../platform/db/index.js';
import { primaryGroupOf, type RelayCaller } from '../access/keys.js';
import { consumeMetadataText } from './consume-metadata.js';
import type { SettleResult } from './ledger.js';
import type { LowBalanceReminder } from './low-balance.js';
import type { Price, SettledQuota, Usage } from './quota.js';

/** Who is billed, for which model, through which channel and group, at what price: known before the upstream answers. */
export interface BilledCall {
  caller: RelayCaller;
  requestId: string;
  sourceIp: string;
  /** The model billed (after the channel's mapping). */
  model: string;
  channelId: number;
  group: string;
  groupRatio: number;
  price: Price;
  startedAt: number;
}

export interface ConsumeRecord extends BilledCall {
  settled: SettledQuota;
  /** Raw usage as reported (or counted): logs keep raw tokens, ratios go in the metadata. */
  usage: Usage;
  charged: number;
  shortfall: number;
  firstByteMs: number | undefined;
  stream: boolean;
  clientGone: boolean;
  /** Answered from the chat cache: no upstream was called. */
  cached?: boolean;
  /** For a plan holder: who paid, and what the plan's allowance took (the balance is charged `charged`). */
  paidBy?: 'plan' | 'balance' | undefined;
  planPaid?: number | undefined;
  /** How the request was routed (route-trace.ts); absent for a chat-cache hit, which called no channel. */
  route?: RouteExplanation | undefined;
  /** A fallback served (routing/fallbacks.ts): the model the client asked for; `model` is the one billed. */
  requestedModel?: string | undefined;
}

/** Whether the key's backup group served the request: the primary group had no channel for it. */
function servedByBackupGroup(caller: RelayCaller, group: string): boolean {
  const backup = caller.token.backup_group;
  return backup !== '' && group === backup && group !== primaryGroupOf(caller);
}

/** What the settlement answered, as the log row records it. */
type Charge = Pick<ConsumeRecord, 'charged' | 'shortfall' | 'paidBy' | 'planPaid'>;

/**
 * The consume-log row of one relayed request (reference §4.7 fields and metadata): the call, and
 * what its settlement charged (`charge`, or the record's own fields).
 */
export function consumeLogRow(record: ChargedCall, charge: Charge = record as ConsumeRecord): NewLogRow {
  const metadata = consumeMetadataText({
    group: record.group,
    groupRatio: record.groupRatio,
    price: record.price,
    backupGroup: servedByBackupGroup(record.caller, record.group) ? record.group : undefined,
    firstByteMs: record.firstByteMs,
    extraTokens: record.settled.extraTokens,
    shortfall: charge.shortfall,
    clientGone: record.clientGone,
    cached: record.cached,
    requestedModel: record.requestedModel,
    paidBy: charge.paidBy,
    planPaid: charge.planPaid,
    route: record.route,
  });
  return {
    user_id: record.caller.user.id,
    username: fitLogColumn('username', record.caller.user.username),
    created_at: Math.floor(Date.now() / 1000),
    type: LogType.consume,
    content: '',
    token_name: fitLogColumn('token_name', record.caller.token.name),
    token_id: record.caller.token.id,
    // A wildcard channel serves any name after its prefix, however long.
    model_name: fitLogColumn('model_name', record.model),
    quota: charge.charged,
    // Whole numbers whatever the upstream sent: a missing count must not lose the row.
    prompt_tokens: record.settled.promptTokens,
    completion_tokens: record.settled.completionTokens,
    channel_id: record.channelId,
    request_time: Date.now() - record.startedAt,
    is_stream: record.stream,
    source_ip: fitLogColumn('source_ip', record.sourceIp),
    request_id: fitLogColumn('request_id', record.requestId),
    metadata,
  };
}

/** What follows every charge the relay settles: a request's, a realtime response's, a task's. */
export interface ChargeEffects {
  options: { getBoolean(key: 'LogConsumeEnabled'): boolean };
  writeLog(row: NewLogRow): void;
  commitJournal?(): Promise<void> | undefined;
  remindLowBalance: LowBalanceReminder;
}

/** The consume record but for what the settlement answers. */
export type ChargedCall = Omit<ConsumeRecord, 'charged' | 'shortfall' | 'paidBy' | 'planPaid'>;

/**
 * After a settlement: the low-balance reminder when the charge crossed its threshold, the consume
 * log row when LogConsumeEnabled (`content` names a task), and the journal's commit, so the
 * settlement and its row are durable before the answer ends (journal.ts): await what it returns
 * before sending the answer.
 */
export function recordCharge(
  deps: ChargeEffects,
  call: ChargedCall,
  result: SettleResult,
  content?: string,
): Promise<void> | undefined {
  const { charged, balance } = result;
  if (balance !== undefined && charged > 0) deps.remindLowBalance(call.caller.user.id, balance + charged, balance);
  if (deps.options.getBoolean('LogConsumeEnabled')) {
    const row = consumeLogRow(call, result);
    if (content !== undefined) row.content = content;
    deps.writeLog(row);
  }
  return deps.commitJournal?.();
}
