/**
 * Channel health as the relay tracks it (issue 34): what `GET /api/channel/health` returns and
 * what a log row's `route` metadata records. Types only; the relay owns the numbers.
 */

/** Why one try on a channel failed, as far as the channel's health is concerned. */
export const FAILURE_CLASSES = ['5xx', 'timeout', 'connection', 'malformed', 'rate_limit', 'account'] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

/** healthy → degraded (less weight) → open (no traffic) → half_open (trials) → healthy. */
export const CHANNEL_HEALTH_STATES = ['healthy', 'degraded', 'open', 'half_open'] as const;
export type ChannelHealthState = (typeof CHANNEL_HEALTH_STATES)[number];

/** Why the router passed a channel over for one request. */
export const ROUTE_SKIP_REASONS = ['excluded', 'cooling', 'open', 'half_open', 'tools', 'stream'] as const;
export type RouteSkipReason = (typeof ROUTE_SKIP_REASONS)[number];

/** One channel's health on the node that answers, over the health window. */
export interface ChannelHealthView {
  channel_id: number;
  state: ChannelHealthState;
  /** Tries counted in the window (successes and failures that count). */
  samples: number;
  /** Successes over samples, 0..1; null with no sample. */
  success_rate: number | null;
  /** Median duration of the recent successful tries, milliseconds; null with none. */
  p50_latency_ms: number | null;
  /** Median time to the first byte of the recent successful tries, milliseconds; null with none. */
  p50_first_byte_ms: number | null;
  /** Unix milliseconds the channel stays open until (no traffic), when open. */
  open_until: number | null;
  /** The last failure: its class, the message the client was told (key and address masked), when. */
  last_error: { class: FailureClass; message: string; at: number } | null;
}

/** How a request was routed, kept in its log row's metadata (`route`); each list at most 8 long. */
export interface RouteExplanation {
  strategy: string;
  /** Channels called, in order, with how each try ended and how long it took. */
  tried: Array<{ id: number; outcome: 'ok' | FailureClass | 'refused'; ms: number }>;
  /** Channels passed over, and why. */
  skipped: Array<{ id: number; reason: RouteSkipReason }>;
}

/** One minute of a channel's history on the answering process (GET /api/channel/health/:id). */
export interface ChannelHealthMinute {
  /** Unix milliseconds the minute starts at. */
  at: number;
  successes: number;
  /** Failures that count toward health: 5xx, timeout, connection, malformed answer, account. */
  failures: number;
  /** 429s: they rest the channel through the cooldowns and do not count toward health. */
  rate_limited: number;
  /** Mean duration of the minute's successes, milliseconds; null with none. */
  mean_latency_ms: number | null;
}

/** GET /api/channel/health/:id: the channel's last hour by minute and its recent state changes. */
export interface ChannelHealthHistory {
  channel_id: number;
  /** Sixty minutes, oldest first, the current one last. */
  minutes: ChannelHealthMinute[];
  /** The channel's last state changes on the answering process, oldest first (Unix milliseconds). */
  changes: Array<{ state: ChannelHealthState; at: number }>;
}

/**
 * How a user group's requests choose among the channels of one priority tier: weighted random
 * (the default, One Hub's), the lowest recent latency, or the fewest requests in flight.
 */
export const BALANCING_STRATEGIES = ['weighted', 'latency', 'least_in_flight'] as const;
export type BalancingStrategy = (typeof BALANCING_STRATEGIES)[number];
