/**
 * The meeting point of the importer: every source product (One Hub, one-api, new-api) is read
 * into One Hub's own row shapes (reference §3.1), and one writer turns those into this server's
 * rows. A product profile only translates; it never writes.
 */

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

export type ProductName = 'one-hub' | 'one-api' | 'new-api';

/** One Hub's `users` row. */
export interface LegacyUser {
  id: number;
  username: string;
  /** bcrypt hash, carried over as is. */
  password: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  avatar_url: string;
  oidc_id: string;
  github_id: string;
  github_id_new: number;
  wechat_id: string;
  lark_id: string;
  telegram_id: number;
  /** The management access token in clear, as the source stores it ('' when none). */
  access_token: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history: number;
  inviter_id: number;
  last_login_time: number;
  last_login_ip: string;
  created_time: number;
  /** Unix seconds, or null when not deleted. */
  deleted_at: number | null;
}

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
export interface LegacyChannel {
  id: number;
  type: number;
  key: string;
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  response_time: number;
  base_url: string;
  other: string;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  tag: string;
  used_quota: number;
  model_mapping: string;
  model_headers: string;
  custom_parameter: string;
  priority: number;
  proxy: string;
  test_model: string;
  only_chat: boolean;
  pre_cost: number;
  compatible_response: boolean;
  allow_extra_body: boolean;
  /** JSON array text. */
  disabled_stream: string;
  /** JSON object text. */
  plugin: string;
  deleted_at: number | null;
}

export interface LegacyUserGroup {
  symbol: string;
  name: string;
  ratio: number;
  api_rate: number;
  public: boolean;
  promotion: boolean;
  min: number;
  max: number;
  enable: boolean;
}

export interface LegacyPrice {
  model: string;
  type: 'tokens' | 'times';
  channel_type: number;
  input: number;
  output: number;
  locked: boolean;
  extra_ratios: Record<string, number>;
}

export interface LegacyRedemption {
  id: number;
  user_id: number;
  /** The code in clear. */
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  /** 0 when the source does not record who redeemed it. */
  redeemed_user_id: number;
}

export interface LegacyLog {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  channel_id: number;
  request_time: number;
  is_stream: boolean;
  source_ip: string;
  /** JSON object text ('' when none). */
  metadata: string;
}

export interface LegacyStatistic {
  /** YYYY-MM-DD. */
  date: string;
  user_id: number;
  channel_id: number;
  model_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

export interface LegacyModelOwner {
  id: number;
  name: string;
  icon: string;
}

export interface LegacyModelInfo {
  model: string;
  name: string;
  description: string;
  context_length: number;
  max_tokens: number;
  /** JSON array texts. */
  input_modalities: string;
  output_modalities: string;
  tags: string;
  support_url: string;
  created_at: number;
  updated_at: number;
}

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
  /** Small tables, read whole; `options` is the source's options table as key → value. */
  userGroups(source: SourceDb, options: Map<string, string>): Promise<LegacyUserGroup[]>;
  prices(source: SourceDb, options: Map<string, string>): Promise<LegacyPrice[]>;
  statistics(source: SourceDb): Promise<LegacyStatistic[]>;
  modelOwners(source: SourceDb): Promise<LegacyModelOwner[]>;
  modelInfo(source: SourceDb): Promise<LegacyModelInfo[]>;
  /** The source options translated to One Hub's keys (reference §3.2); keys with no meaning here are left out and reported. */
  options(options: Map<string, string>): { options: Map<string, string>; skipped: Skipped[] };
  /** Tables the product has that are not carried over, with the reason (payments, top_ups, midjourneys…). */
  notCarried(schema: Map<string, Set<string>>): Skipped[];
}
