/**
 * The meeting point of the importer: every source product (One Hub, one-api, new-api) is read
 * into One Hub's own row shapes (reference §3.1), and one writer turns those into this server's
 * rows. A product profile only translates; it never writes.
 */

import type { ColumnType } from 'kysely';
import type {
  ChannelsTable,
  DbBoolean,
  LogsTable,
  MidjourneysTable,
  ModelInfoTable,
  OrdersTable,
  PaymentsTable,
  RedemptionsTable,
  StatisticsTable,
  TasksTable,
  TelegramMenusTable,
  UserGroupsTable,
  UsersTable,
} from '../platform/db/schema.js';

/**
 * A target table's row as the importer carries it before writing: the same columns as the table
 * (so the two cannot drift apart), with ids plain numbers and booleans real booleans.
 */
type Carried<T> = {
  // biome-ignore lint/suspicious/noExplicitAny: ColumnType's insert and update types do not matter here.
  [K in keyof T]: T[K] extends DbBoolean ? boolean : T[K] extends ColumnType<infer S, any, any> ? S : T[K];
};

/** A plain row as the source driver returns it (booleans may be 0/1, numbers may be strings or bigints). */
export type SourceRow = Record<string, unknown>;

/** Read-only access to the source database, whatever its dialect. */
export interface SourceDb {
  readonly dialect: 'sqlite' | 'postgres' | 'mysql';
  /** Table name → its column names (lower case), for product detection and optional columns. */
  schema(): Promise<Map<string, Set<string>>>;
  /** Rows of `table` with integer `id` greater than `afterId`, ascending, at most `limit` of them. */
  rowsAfter(table: string, afterId: number, limit: number): Promise<SourceRow[]>;
  /** Every row of a small table (options, prices, groups…), in no particular order. */
  allRows(table: string): Promise<SourceRow[]>;
  close(): Promise<void>;
  /** How many rows `table` holds (for the progress display); absent on sources that cannot tell cheaply. */
  count?(table: string): Promise<number>;
}

/** Every row of `table`, or none when the source has no such table (an older schema). */
export async function rowsIfPresent(source: SourceDb, table: string): Promise<SourceRow[]> {
  return (await source.schema()).has(table) ? source.allRows(table) : [];
}

export type ProductName = 'one-hub' | 'one-api' | 'new-api';

/** One Hub's `users` row. */
export type LegacyUser = Omit<
  Carried<UsersTable>,
  | 'access_token_hash'
  | 'email_verified'
  | 'inviter_reward_pending'
  | 'password_change_required'
  | 'session_generation'
  // Budgets are ours (issue 33): no source has them, so imported users start with none.
  | 'budgets'
> & {
  /** The access token in clear, as the source stores it; the writer keeps only its digest. */
  access_token: string;
};

/** One Hub's `tokens` row; `key` is the body without `sk-`, exactly as a client's old key has it. */
export interface LegacyToken {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  used_quota: number;
  group: string;
  backup_group: string;
  /** One Hub's token `setting` object (heartbeat, limits.limit_model_setting, limits.limits_ip_setting). */
  setting: unknown;
  deleted_at: number | null;
}

/** One Hub's `channels` row; `key` in clear as the source stores it. */
export type LegacyChannel = Carried<ChannelsTable>;

/** Budgets and TPM are ours (issue 33): imported groups start without them. */
export type LegacyUserGroup = Omit<
  Carried<UserGroupsTable>,
  'id' | 'budgets' | 'tpm' | 'routing_strategy' | 'fallbacks' | 'cache_affinity'
>;

export interface LegacyPrice {
  model: string;
  type: 'tokens' | 'times';
  channel_type: number;
  input: number;
  output: number;
  locked: boolean;
  extra_ratios: Record<string, number>;
}

export type LegacyRedemption = Omit<Carried<RedemptionsTable>, 'key_cipher' | 'key_hash'> & { key: string };

export type LegacyLog = Omit<Carried<LogsTable>, 'request_id' | 'token_id'>;

export type LegacyStatistic = StatisticsTable;

export interface LegacyModelOwner {
  id: number;
  name: string;
  icon: string;
}

export type LegacyModelInfo = Omit<Carried<ModelInfoTable>, 'id'>;

/** One Hub's `payments` row (a gateway); money columns as decimal text, `config` as the source stores it. */
export type LegacyPayment = Omit<Carried<PaymentsTable>, 'fixed_fee' | 'percent_fee'> & {
  fixed_fee: string;
  percent_fee: string;
};

/** One Hub's `orders` row; money columns as decimal text. */
/** One Hub's orders buy no plans: `plan_id` keeps its default, 0. */
export type LegacyOrder = Omit<Carried<OrdersTable>, 'order_amount' | 'fee' | 'discount' | 'plan_id'> & {
  order_amount: string;
  fee: string;
  discount: string;
};

/** One Hub's `midjourneys` row (times in milliseconds, JSON columns as text). */
// `budget_use` is ours (issue 33): no source counted on our budget windows, so imported tasks have none.
export type LegacyMidjourney = Omit<Carried<MidjourneysTable>, 'budget_use'>;

/** One Hub's `tasks` row (times in seconds, `properties` and `data` as JSON text). */
export type LegacyTask = Omit<Carried<TasksTable>, 'budget_use'>;

export type LegacyTelegramMenu = Omit<Carried<TelegramMenusTable>, 'id'>;

/** Why a source row or a whole table was not carried over, for the final report. */
export interface Skipped {
  table: string;
  /** The source row's id or key, when it is about one row. */
  row?: string | number;
  reason: string;
  /** How many rows this entry stands for when it summarises several (log rows); 1 when absent. */
  count?: number;
}

/**
 * A source product: how to recognise it and how to read each table into One Hub's shapes.
 * Streaming tables (`users`, `tokens`, `channels`, `redemptions`, `logs`) are read in id order in
 * batches so memory stays bounded; the rest are small and read whole.
 */
export interface ProductProfile {
  product: ProductName;
  /** True when the tables and columns are this product's (checked in the order one-hub, new-api, one-api). */
  detect(schema: Map<string, Set<string>>): boolean;
  /** A short description of the version found (e.g. "one-api ≥ v0.6 (has abilities, no user_groups)"). */
  version(schema: Map<string, Set<string>>): string;
  users(rows: SourceRow[]): LegacyUser[];
  tokens(rows: SourceRow[]): LegacyToken[];
  channels(rows: SourceRow[]): LegacyChannel[];
  /** What changed on the way for these channels (a type with no equivalent kept disabled, dropped settings…). */
  channelNotes?(rows: SourceRow[]): Skipped[];
  redemptions(rows: SourceRow[]): LegacyRedemption[];
  logs(rows: SourceRow[]): LegacyLog[];
  /** Payment gateways and their orders (One Hub only; the others have no such tables). */
  payments?(source: SourceDb): Promise<LegacyPayment[]>;
  orders?(rows: SourceRow[]): LegacyOrder[];
  /** Asynchronous tasks (One Hub; new-api's midjourneys and Suno tasks), streamed like logs. */
  midjourneys?(rows: SourceRow[]): LegacyMidjourney[];
  tasks?(rows: SourceRow[]): LegacyTask[];
  /** What was left out of a batch of tasks on purpose (platforms with no equivalent here). */
  taskNotes?(rows: SourceRow[]): Skipped[];
  /** The Telegram bot's custom commands (One Hub only). */
  telegramMenus?(source: SourceDb): Promise<LegacyTelegramMenu[]>;
  /** Small tables, read whole; `options` is the source's options table as key → value. */
  userGroups(source: SourceDb, options: Map<string, string>): Promise<LegacyUserGroup[]>;
  prices(source: SourceDb, options: Map<string, string>): Promise<LegacyPrice[]>;
  statistics(source: SourceDb): Promise<LegacyStatistic[]>;
  modelOwners(source: SourceDb): Promise<LegacyModelOwner[]>;
  modelInfo(source: SourceDb): Promise<LegacyModelInfo[]>;
  /** The source options translated to One Hub's keys (reference §3.2); keys with no meaning here are left out and reported. */
  options(options: Map<string, string>): { options: Map<string, string>; skipped: Skipped[] };
  /** Tables the product has that are not carried over, with the reason (top_ups, webauthn_credentials…). */
  notCarried(schema: Map<string, Set<string>>): Skipped[];
}
