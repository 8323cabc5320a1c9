import { keyRefOf, planOf } from '../access/budget-rules.js';
import { type BilledCall, recordCharge } from '../billing/consume-log.js';
import type { Reservation } from '../billing/ledger.js';
import { type Price, reservationQuota, settledQuota, type Usage } from '../billing/quota.js';
import type { RelayDeps } from '../exchange/types.js';

type BillingDeps = Pick<
  RelayDeps,
  | 'ledger'
  | 'options'
  | 'writeLog'
  | 'commitJournal'
  | 'remindLowBalance'
  | 'logger'
  | 'completions'
  | 'groups'
  | 'plans'
>;

interface RealtimeUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_token_details?: { cached_tokens?: number; text_tokens?: number; audio_tokens?: number; image_tokens?: number };
  output_token_details?: { text_tokens?: number; audio_tokens?: number };
}

const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A Realtime API usage object in billing form: details re-price parts of the totals (quota.ts). */
export function realtimeUsage(usage: RealtimeUsage): Usage {
  const input = usage.input_token_details ?? {};
  const output = usage.output_token_details ?? {};
  return {
    prompt_tokens: number(usage.input_tokens) ?? 0,
    completion_tokens: number(usage.output_tokens) ?? 0,
    prompt_tokens_details: {
      cached_tokens: number(input.cached_tokens) ?? 0,
      text_tokens: number(input.text_tokens) ?? 0,
      audio_tokens: number(input.audio_tokens) ?? 0,
      image_tokens: number(input.image_tokens) ?? 0,
    },
    completion_tokens_details: {
      text_tokens: number(output.text_tokens) ?? 0,
      audio_tokens: number(output.audio_tokens) ?? 0,
    },
  };
}

/** Responses under way, by id, for the time each took; bounded whatever the upstream sends. */
const MAX_OPEN_RESPONSES = 64;

interface ResponseEvent {
  type?: unknown;
  response?: { id?: unknown; usage?: RealtimeUsage | null };
}

/**
 * Billing of one realtime session, response by response. Every `response.done` the upstream sends
 * carries the usage of that response (OpenAI's Realtime API: `response.usage`); it is billed at
 * once on the quota held for it, written as one consume log row, and the quota for the next
 * response is held again. A session that cannot hold it any more is out of quota and is closed.
 * Billing each response as it ends, rather than the whole session at its close, keeps what a
 * long session used billed if the process stops, and holds no more than one response's quota.
 */
export class SessionBilling {
  private held: Reservation | undefined;
  private work: Promise<void> = Promise.resolve();
  private readonly responseStarts = new Map<string, number>();
  private closed = false;
  /** Quota charged over the session so far. */
  charged = 0;

  constructor(
    private readonly deps: BillingDeps,
    private readonly account: BilledCall,
    firstReservation: Reservation,
    /** Told once when the quota for the next response cannot be held. */
    private readonly onExhausted: (error: unknown) => void,
  ) {
    this.held = firstReservation;
  }

  /** Reads an upstream text message; only response lifecycle events matter, and only they are parsed. */
  observe(message: Buffer): void {
    if (message.indexOf('"response.') < 0) return;
    if (message.indexOf('response.done') < 0 && message.indexOf('response.created') < 0) return;
    let event: ResponseEvent;
    try {
      event = JSON.parse(message.toString('utf8')) as ResponseEvent;
    } catch {
      return;
    }
    const id = typeof event.response?.id === 'string' ? event.response.id : '';
    if (event.type === 'response.created') {
      if (this.responseStarts.size >= MAX_OPEN_RESPONSES) this.responseStarts.clear();
      this.responseStarts.set(id, Date.now());
    } else if (event.type === 'response.done') {
      const startedAt = this.responseStarts.get(id) ?? this.account.startedAt;
      this.responseStarts.delete(id);
      const usage = realtimeUsage(event.response?.usage ?? {});
      this.work = this.work.then(() => this.bill(usage, startedAt)).catch((error: unknown) => this.failed(error));
    }
  }

  /** At the session's end: what is being billed is finished, and the held quota goes back. */
  async close(): Promise<void> {
    this.closed = true;
    await this.work;
    const held = this.held;
    this.held = undefined;
    if (held) await this.deps.ledger.settle(held, 0);
  }

  private async bill(usage: Usage, startedAt: number): Promise<void> {
    const { deps, account } = this;
    const settled = settledQuota({ price: account.price, groupRatio: account.groupRatio, usage });
    deps.completions?.record(account.model, settled.completionTokens);
    const held = this.held ?? (await this.reserve());
    this.held = undefined;
    const result = await deps.ledger.settle(held, settled.quota, account.channelId, {
      tokens: settled.promptTokens + settled.completionTokens,
    });
    this.charged += result.charged;
    // Journaled now (journal.ts). A session forwards `response.done` as it reads it, so here the
    // client may see the event a moment before its charge is on disk; HTTP answers wait for it.
    void recordCharge(
      deps,
      { ...account, settled, usage, startedAt, firstByteMs: undefined, stream: true, clientGone: false },
      result,
    );
    if (!this.closed) this.held = await this.reserve();
  }

  /** Holds the quota of the next response, as an HTTP request holds its own before it is sent. */
  private async reserve(): Promise<Reservation> {
    const { account, deps } = this;
    const plan = await planOf(deps, account.caller.user.id, account.model);
    return deps.ledger.reserve(
      account.caller.user.id,
      keyRefOf(deps, account.caller, 0, plan),
      realtimeReservation(deps, account.model, account.price, account.groupRatio),
    );
  }

  private failed(error: unknown): void {
    if (this.closed) {
      // Nothing is left to stop: the session is ending anyway, but the loss must be known.
      this.deps.logger.error({ err: error, reqId: this.account.requestId }, 'billing a realtime response failed');
      return;
    }
    this.closed = true;
    this.onExhausted(error);
  }
}

/**
 * What a session (and, after each response, the next one) holds: one response's output as HTTP
 * requests hold theirs (the learned estimate for the model, else the pre-consumed quota), or one
 * call. The input a response reads is not known before it runs, so none is held for it.
 */
export function realtimeReservation(
  deps: Pick<RelayDeps, 'options' | 'completions'>,
  model: string,
  price: Price,
  groupRatio: number,
): number {
  return reservationQuota({
    price,
    groupRatio,
    promptTokens: 0,
    completionTokens: deps.completions?.estimate(model),
    preConsumedQuota: deps.options.getNumber('PreConsumedQuota'),
  });
}
