import { createHash } from 'node:crypto';
import { isRecord, type Json } from '@one-hub/contracts';
import type { RelayHttpRequest } from '../../http/relay-front.js';
import { primaryGroupOf } from '../access/keys.js';
import type { Attempt, ChannelPins, Endpoint, RelayDeps } from '../exchange/types.js';
import type { RouterChannel, SelectionFilter } from './router.js';

/**
 * Cache affinity (issue 34): the requests of one conversation go to the channel that served it
 * last (one channel is one upstream key: a multi-key channel is stored as one channel per key), so
 * the provider's prompt cache keeps hitting. A conversation is named by the client's own hint —
 * the `X-Session-Id` header, else OpenAI's `prompt_cache_key`, Anthropic's `metadata.user_id`,
 * OpenAI's `user` — else by a digest of its stable prefix (system prompt and first message); with
 * the API key and the model, hashed: no text is kept. The pin holds while its channel may take the
 * request and no higher priority tier has a channel that may; otherwise the router picks as usual
 * and the conversation is pinned to what it picked (so a failed channel loses its conversations to
 * the channel that answered them). Pins live in this process's memory, bounded (LRU) and expiring
 * CacheAffinitySeconds after their last use.
 */

const MAX_PINS = 100_000;
/** A part longer than twice this is digested by its head, its tail and its length: bounded CPU per request. */
const DIGEST_SPAN = 4096;

interface Pin {
  channelId: number;
  until: number;
}

export class AffinityPins implements ChannelPins {
  /** In order of last use, oldest first: the first entry is the one to evict. */
  private readonly pins = new Map<string, Pin>();
  /**
   * The key set last, which is the map's last entry: using it again changes no order, so its pin is
   * renewed in place. Deleting and setting it again would leave a deleted slot in the map's table each
   * time, and the map makes a new table every few of them (promoted, as the map is long-lived).
   */
  private newest: string | undefined;

  constructor(
    private readonly maxPins = MAX_PINS,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): number | undefined {
    const pin = this.pins.get(key);
    if (!pin) return undefined;
    if (pin.until > this.now()) return pin.channelId;
    this.forget(key);
    return undefined;
  }

  set(key: string, channelId: number, ttlMs: number): void {
    const now = this.now();
    const newest = key === this.newest ? this.pins.get(key) : undefined;
    if (newest) {
      newest.channelId = channelId;
      newest.until = now + ttlMs;
    } else {
      this.pins.delete(key);
      this.pins.set(key, { channelId, until: now + ttlMs });
      this.newest = key;
    }
    // Every pin lives as long after its last use, so the oldest expire first: a few are swept each time.
    for (let swept = 0; swept < 2; swept++) {
      const oldest = this.pins.entries().next().value;
      if (!oldest || (oldest[1].until > now && this.pins.size <= this.maxPins)) break;
      this.forget(oldest[0]);
    }
  }

  private forget(key: string): void {
    this.pins.delete(key);
    if (key === this.newest) this.newest = undefined;
  }

  get size(): number {
    return this.pins.size;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The client's own name for the conversation, if it gives one. */
function clientHint(fields: Json, headers: RelayHttpRequest['headers']): string | undefined {
  const header = headers['x-session-id'];
  const anthropicUser = isRecord(fields.metadata) ? text(fields.metadata.user_id) : undefined;
  return (
    text(Array.isArray(header) ? header[0] : header) ??
    text(fields.prompt_cache_key) ??
    anthropicUser ??
    text(fields.user)
  );
}

const isInstruction = (item: unknown) => isRecord(item) && (item.role === 'system' || item.role === 'developer');

/**
 * What stays the same through a conversation, whatever the surface: the system prompt (Anthropic's
 * `system`, Gemini's `systemInstruction`, Responses' `instructions`, leading system and developer
 * messages) and the first message after it. Undefined when the request has no message list.
 */
function stablePrefix(fields: Json): unknown[] | undefined {
  const parts: unknown[] = [fields.system, fields.systemInstruction, fields.instructions];
  const list = fields.messages ?? fields.contents ?? fields.input;
  if (typeof list === 'string') parts.push(list);
  else if (Array.isArray(list)) {
    const first = list.findIndex((item) => !isInstruction(item));
    parts.push(...list.slice(0, first < 0 ? list.length : first + 1));
  } else return undefined;
  return parts;
}

/**
 * One part as it goes into the digest. Text (a string, or a message whose content is one) goes in as
 * it is, without a JSON copy; a long one by its head, its tail and its length, so a long system
 * prompt costs no more than a short one.
 */
function partText(part: unknown): string {
  let role = '';
  let value: string;
  if (typeof part === 'string') value = part;
  else if (isRecord(part) && typeof part.content === 'string') {
    role = String(part.role);
    value = part.content;
  } else value = part === undefined ? '' : JSON.stringify(part);
  if (value.length > 2 * DIGEST_SPAN) value = value.slice(0, DIGEST_SPAN) + value.slice(-DIGEST_SPAN) + value.length;
  return `${role}${value}\u0000`;
}

/** The parts joined into one text and hashed in one call: each call into the hash costs more than short text. */
function digest(scope: string, kind: string, parts: unknown[]): string {
  let text = scope + kind;
  for (const part of parts) text += partText(part);
  return createHash('sha256').update(text).digest('base64url').slice(0, 24);
}

/**
 * The pin's key for this request, or undefined when affinity does not apply: not a chat surface,
 * a request pinned to a channel by its key, affinity off for the user's group or the site
 * (CacheAffinitySeconds 0), or nothing to name the conversation by.
 */
export function conversationKeyOf(
  deps: Pick<RelayDeps, 'groups' | 'options'>,
  endpoint: Endpoint,
  attempt: Attempt,
  request: Pick<RelayHttpRequest, 'headers'>,
): string | undefined {
  const { caller, input } = attempt;
  if (!endpoint.surface || caller.forcedChannelId !== undefined) return undefined;
  if (!(deps.options.getNumber('CacheAffinitySeconds') > 0)) return undefined;
  if (deps.groups.enabled(primaryGroupOf(caller))?.cache_affinity === false) return undefined;
  const scope = `${caller.token.id}\u0000${input.model}\u0000`;
  const hint = clientHint(input.fields, request.headers);
  if (hint !== undefined) return digest(scope, 'hint', [hint]);
  const prefix = stablePrefix(input.fields);
  return prefix === undefined ? undefined : digest(scope, 'prefix', prefix);
}

/** The router's pick for the filter, kept to the conversation's pinned channel while it may take the request. */
export function selectChannel(
  deps: Pick<RelayDeps, 'router' | 'affinity' | 'options'>,
  attempt: Attempt,
  filter: SelectionFilter,
): RouterChannel | undefined {
  const key = attempt.affinityKey;
  const pins = deps.affinity;
  if (key === undefined || !pins) return deps.router.select(filter);
  const pinnedId = pins.get(key);
  const chosen =
    (pinnedId === undefined ? undefined : deps.router.pinned(pinnedId, filter)) ?? deps.router.select(filter);
  if (chosen) pins.set(key, chosen.id, deps.options.getNumber('CacheAffinitySeconds') * 1000);
  return chosen;
}
