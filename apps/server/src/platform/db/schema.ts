import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Booleans come back as 0/1 from SQLite and MySQL and as true/false from PostgreSQL; repositories
 * normalise them with `toBoolean` before anything leaves the data layer.
 */
export type DbBoolean = ColumnType<boolean | number, boolean, boolean>;

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
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  inviter_id: number;
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
}

export interface Database {
  users: UsersTable;
  options: OptionsTable;
  user_groups: UserGroupsTable;
  logs: LogsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type UserGroupRow = Selectable<UserGroupsTable>;
export type NewLogRow = Insertable<LogsTable>;

export function toBoolean(value: boolean | number | string | null | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true';
}
