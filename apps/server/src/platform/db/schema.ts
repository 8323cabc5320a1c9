import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { DbBoolean } from './column-types.js';
import type {
  BudgetUsageTable,
  OrdersTable,
  PaymentsTable,
  PlansTable,
  RedemptionsTable,
  SubscriptionsTable,
} from './schema-money.js';

export type { DbBoolean } from './column-types.js';
// The tables of money paid in and allowances sold live in their own file.
export * from './schema-money.js';

export interface UsersTable {
  id: Generated<number>;
  username: string;
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
  /** SHA-256 of the management access token; the token itself is shown once and never stored. */
  access_token_hash: string | null;
  /** Bumped on sign-out, password change or reset: session cookies of an older generation are refused. */
  session_generation: Generated<number>;
  /** 1 once the address was proved (e-mail code or a provider's verified flag); 0 otherwise. */
  email_verified: Generated<number>;
  /** 1 while the inviter's reward waits for `InviterRewardCondition`; the payment clears it. */
  inviter_reward_pending: Generated<number>;
  /** 1 while the password is one the server generated: the console asks for a new one at sign-in. */
  password_change_required: Generated<number>;
  /** JSON list of the user's budget windows (contracts budget.ts). */
  budgets: Generated<string>;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  inviter_id: number;
  /** Invitees registered with this user's invite code. */
  aff_count: Generated<number>;
  /** Invite reward quota earned (JSON `aff_quota`); rewards go straight into `quota` too. */
  aff_quota: Generated<number>;
  /** All-time invite reward quota (JSON `aff_history_quota`, the reference's column name). */
  aff_history: Generated<number>;
  last_login_time: number;
  last_login_ip: string;
  created_time: number;
  deleted_at: number | null;
}

export interface OptionsTable {
  key: string;
  value: string;
}

export interface UserGroupsTable {
  id: Generated<number>;
  symbol: string;
  name: string;
  ratio: number;
  api_rate: number;
  public: DbBoolean;
  promotion: DbBoolean;
  min: number;
  max: number;
  enable: DbBoolean;
  /** Tokens per minute for each member; 0 = none. */
  tpm: Generated<number>;
  /** JSON list of budget windows applying to each member (contracts budget.ts). */
  budgets: Generated<string>;
  /** How the group's requests choose among a tier's channels (contracts BALANCING_STRATEGIES). */
  routing_strategy: Generated<string>;
  /** JSON object model → fallback models (contracts fallbacks.ts). */
  fallbacks: Generated<string>;
  /** Conversations stay on one channel while it works (relay/routing/affinity.ts); defaults to on. */
  cache_affinity: ColumnType<boolean | number, boolean | undefined, boolean>;
}

export interface LogsTable {
  id: Generated<number>;
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
  is_stream: DbBoolean;
  source_ip: string;
  /** JSON text. */
  metadata: string;
  token_id: number;
  request_id: string;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_hash: string;
  key_cipher: string;
  status: number;
  created_time: number;
  accessed_time: number;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: DbBoolean;
  used_quota: number;
  group: string;
  backup_group: string;
  /** JSON text. */
  setting: string;
  deleted_at: number | null;
}

export interface ChannelsTable {
  id: Generated<number>;
  type: number;
  /** Encrypted provider credential. */
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
  /** Comma-separated; an entry may end with `*`. */
  models: string;
  /** Comma-separated user-group symbols. */
  group: string;
  tag: string;
  used_quota: number;
  /** JSON text for the next five. */
  model_mapping: string;
  model_headers: string;
  custom_parameter: string;
  priority: number;
  proxy: string;
  test_model: string;
  only_chat: DbBoolean;
  pre_cost: number;
  compatible_response: DbBoolean;
  allow_extra_body: DbBoolean;
  disabled_stream: string;
  plugin: string;
  /** '' follows the group's strategy (0025). */
  routing_strategy: Generated<string>;
  deleted_at: number | null;
}

export interface PricesTable {
  model: string;
  type: string;
  channel_type: number;
  input: number;
  output: number;
  locked: DbBoolean;
  /** JSON text. */
  extra_ratios: string;
}

export interface LedgerFlushesTable {
  id: string;
  created_at: number;
}

/** The highest settlement of each node's crash journal that reached the database through Redis. */
export interface JournalMarksTable {
  journal_id: string;
  seq: number;
  updated_at: number;
}

/** Daily usage per (date, user, channel, model), added to by the log writer with each batch of consume logs. */
export interface StatisticsTable {
  /** YYYY-MM-DD in the server's time zone; text, so no driver shifts it by a time zone. */
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

/** `statistics` summed over users, channels and models: one row a day, kept by the same writes (migration 0012). */
export interface StatisticsDaysTable {
  date: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

/** `statistics` summed per day and channel (migration 0015), kept by the same writes. */
export interface StatisticsChannelDaysTable extends StatisticsDaysTable {
  channel_id: number;
}

/** `statistics` summed per day and model (migration 0015), kept by the same writes. */
export interface StatisticsModelDaysTable extends StatisticsDaysTable {
  model_name: string;
}

/** Consume logs summed per local day, user, key name and model (migration 0028), kept by the same writes. */
export interface StatisticsTokenDaysTable extends StatisticsDaysTable {
  user_id: number;
  token_name: string;
  model_name: string;
}

/** Consume logs summed per hour (migration 0028): `hour_start` is the Unix time the UTC hour starts at. */
export interface StatisticsHoursTable extends Omit<StatisticsDaysTable, 'date'> {
  hour_start: number;
}

/** Each user's usage per model and month (migration 0018), built once the month is over. */
export interface StatisticsMonthsTable {
  /** The month's first day, YYYY-MM-01. */
  date: string;
  user_id: number;
  model_name: string;
  request_count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  request_time: number;
}

/** The months whose invoices were built, and how many rows each got. */
export interface StatisticsMonthGeneratedHistoriesTable {
  id: Generated<number>;
  date: string;
  count: number;
  created_at: number;
}

/** Owners added by administrators; ids above 1000 (the built-in ones live in code). */
export interface ModelOwnedByTable {
  id: number;
  name: string;
  icon: string;
}

export interface ModelInfoTable {
  id: Generated<number>;
  model: string;
  name: string;
  description: string;
  context_length: number;
  max_tokens: number;
  /** JSON arrays of strings, as text, for the next four. */
  input_modalities: string;
  output_modalities: string;
  tags: string;
  support_url: string;
  created_at: number;
  updated_at: number;
}

/** Midjourney-proxy tasks (reference `midjourneys`); times in milliseconds. */
export interface MidjourneysTable {
  id: Generated<number>;
  /** The proxy's submit code (1 submitted, 21 exists, 22 queued…). */
  code: number;
  user_id: number;
  /** IMAGINE, UPSCALE, VARIATION… as the proxy names it. */
  action: string;
  /** The proxy's task id. */
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  state: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  image_url: string;
  /** NOT_START | SUBMITTED | IN_PROGRESS | FAILURE | SUCCESS | MODAL… as the proxy reports it. */
  status: string;
  /** "0%" … "100%". */
  progress: string;
  fail_reason: string;
  channel_id: number;
  quota: number;
  /** JSON text: the proxy's buttons. */
  buttons: string;
  /** JSON text: the proxy's properties. */
  properties: string;
  /** fast | turbo | relax */
  mode: string;
  token_id: number;
  /** JSON text: what the submission counted on budget windows, given back if the task fails. */
  budget_use: string | null;
}

/** Suno and Kling tasks (reference `tasks`); times in seconds. */
export interface TasksTable {
  id: Generated<number>;
  created_at: number;
  updated_at: number;
  /** The upstream's task id. */
  task_id: string;
  /** suno | kling */
  platform: string;
  user_id: number;
  channel_id: number;
  quota: number;
  /** MUSIC | LYRICS (Suno), text2video | image2video (Kling). */
  action: string;
  /** NOT_START | SUBMITTED | QUEUED | IN_PROGRESS | FAILURE | SUCCESS | UNKNOWN */
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  /** 0–100 */
  progress: number;
  /** JSON text: what was submitted (model, mode…). */
  properties: string;
  /** JSON text: the upstream's last answer about the task. */
  data: string;
  notify_hook: string;
  token_id: number;
  /** JSON text: what the submission counted on budget windows, given back if the task fails. */
  budget_use: string | null;
}

/** The Telegram bot's custom commands (reference `telegram_menus`). */
export interface TelegramMenusTable {
  id: Generated<number>;
  command: string;
  description: string;
  /** MarkdownV2 | Markdown | HTML | '' (plain text) */
  parse_mode: string;
  reply_message: string;
}

/** Passkeys (reference `webauthn_credentials`); ids and keys are base64url text. */
export interface WebauthnCredentialsTable {
  id: Generated<number>;
  user_id: number;
  /** base64url of the credential id, as the browser reports it. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  attestation_type: string;
  alias: string;
  backup_eligible: DbBoolean;
  backup_state: DbBoolean;
  aaguid: string;
  sign_count: number;
  clone_warning: DbBoolean;
  /** platform | cross-platform | '' */
  attachment: string;
  created_time: number;
}

/** One change made through the management API (issue 36); see migration 0026. */
export interface AuditLogsTable {
  id: Generated<number>;
  created_at: number;
  actor_id: number;
  actor_name: string;
  actor_role: number;
  resource: string;
  action: string;
  target_id: string;
  target_name: string;
  /** JSON `{field: {before, after}}`, or `{field: {secret: true}}` for a secret. */
  changes: string;
  ip: string;
  request_id: string;
}

export interface Database {
  users: UsersTable;
  options: OptionsTable;
  user_groups: UserGroupsTable;
  logs: LogsTable;
  tokens: TokensTable;
  channels: ChannelsTable;
  prices: PricesTable;
  ledger_flushes: LedgerFlushesTable;
  journal_marks: JournalMarksTable;
  statistics: StatisticsTable;
  statistics_days: StatisticsDaysTable;
  statistics_channel_days: StatisticsChannelDaysTable;
  statistics_model_days: StatisticsModelDaysTable;
  statistics_token_days: StatisticsTokenDaysTable;
  statistics_hours: StatisticsHoursTable;
  statistics_months: StatisticsMonthsTable;
  statistics_month_generated_histories: StatisticsMonthGeneratedHistoriesTable;
  redemptions: RedemptionsTable;
  model_owned_by: ModelOwnedByTable;
  model_info: ModelInfoTable;
  payments: PaymentsTable;
  orders: OrdersTable;
  midjourneys: MidjourneysTable;
  tasks: TasksTable;
  telegram_menus: TelegramMenusTable;
  webauthn_credentials: WebauthnCredentialsTable;
  budget_usage: BudgetUsageTable;
  // Subscription plans (issue 33).
  plans: PlansTable;
  subscriptions: SubscriptionsTable;
  audit_logs: AuditLogsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type UserGroupRow = Selectable<UserGroupsTable>;
export type NewLogRow = Insertable<LogsTable>;
export type LogRow = Selectable<LogsTable>;
export type TokenRow = Selectable<TokensTable>;
export type NewTokenRow = Insertable<TokensTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type NewChannelRow = Insertable<ChannelsTable>;
export type PriceRow = Selectable<PricesTable>;
export type StatisticsRow = Selectable<StatisticsTable>;
export type ModelOwnedByRow = Selectable<ModelOwnedByTable>;
export type ModelInfoRow = Selectable<ModelInfoTable>;

export function toBoolean(value: boolean | number | string | null | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}
