import type { ChannelListQuery, Paged } from '@one-hub/contracts';
import { ChannelStatus, splitChannelList } from '@one-hub/contracts';
import { sql } from 'kysely';
import { nowSeconds } from '../../platform/clock.js';
import {
  type ChannelRow,
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  type NewChannelRow,
} from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secret-box.js';
import { applyChannelFilter } from './filters.js';

/** A channel as lists read it: everything but the key. */
export type ChannelListRow = Omit<ChannelRow, 'key'>;
/** A channel with its key decrypted; '' when the key cannot be opened (the server secret changed). */
export type ChannelRecord = ChannelListRow & { key: string };
/** Columns of a new channel, key in plain text (sealed here). */
export type NewChannel = Omit<NewChannelRow, 'id' | 'deleted_at'>;
export type ChannelPatch = Partial<NewChannel>;

export const CHANNEL_SORT_FIELDS = [
  'id',
  'name',
  'group',
  'type',
  'status',
  'response_time',
  'balance',
  'priority',
  'weight',
] as const;

const LIST_COLUMNS = [
  'id',
  'type',
  'status',
  'name',
  'weight',
  'created_time',
  'test_time',
  'response_time',
  'base_url',
  'other',
  'balance',
  'balance_updated_time',
  'models',
  'group',
  'tag',
  'used_quota',
  'model_mapping',
  'model_headers',
  'custom_parameter',
  'priority',
  'proxy',
  'test_model',
  'only_chat',
  'pre_cost',
  'compatible_response',
  'allow_extra_body',
  'disabled_stream',
  'plugin',
  'routing_strategy',
  'deleted_at',
] as const;

/** Exact-key search decrypts candidates; past this many it asks for narrower filters instead. */
const KEY_SEARCH_LIMIT = 50_000;
const KEY_SEARCH_BATCH = 500;

export class ChannelRepository {
  constructor(
    readonly handle: DatabaseHandle,
    readonly secrets: SecretBox,
  ) {}

  transaction<Result>(work: (executor: Executor) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  /**
   * What the console's getting-started list ticks: how many channels there are, whether one was
   * ever tested, and how many live keys `userId` has. One round trip's worth of small counts.
   */
  async setupFacts(userId: number): Promise<{ channels: number; tested: boolean; keys: number }> {
    const count = sql<number | string>`count(*)`.as('total');
    const [channels, tested, keys] = await Promise.all([
      this.live().select(count).executeTakeFirst(),
      this.live().select('id').where('test_time', '>', 0).limit(1).executeTakeFirst(),
      this.handle.db
        .selectFrom('tokens')
        .select(count)
        .where('user_id', '=', userId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),
    ]);
    return { channels: Number(channels?.total ?? 0), tested: tested !== undefined, keys: Number(keys?.total ?? 0) };
  }

  private live(executor: Executor = this.handle.db) {
    return executor.selectFrom('channels').where('deleted_at', 'is', null);
  }

  private openKey(sealed: string): string {
    try {
      return this.secrets.open(sealed);
    } catch {
      return '';
    }
  }

  private toRecord(row: ChannelRow): ChannelRecord {
    return { ...row, key: this.openKey(row.key) };
  }

  private seal<Patch extends { key?: string }>(patch: Patch): Patch {
    return patch.key === undefined ? patch : { ...patch, key: this.secrets.seal(patch.key) };
  }

  async list(query: ChannelListQuery): Promise<Paged<ChannelListRow>> {
    let filtered = applyChannelFilter(this.live().select(LIST_COLUMNS), query);
    if (query.key) {
      const ids = await this.idsWithKey(applyChannelFilter(this.live(), query), query.key);
      // An empty IN list is not valid SQL; no channel has id 0.
      filtered = filtered.where('id', 'in', ids.length > 0 ? ids : [0]);
    }
    return fetchPage(filtered, query, CHANNEL_SORT_FIELDS);
  }

  /** Keys are sealed with a random IV, so equal keys differ in the database: open the candidates in batches. */
  private async idsWithKey(candidates: ReturnType<ChannelRepository['live']>, key: string): Promise<number[]> {
    const matches: number[] = [];
    let afterId = 0;
    for (let scanned = 0; ; ) {
      const rows = await candidates
        .select(['id', 'key'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(KEY_SEARCH_BATCH)
        .execute();
      for (const row of rows) if (this.openKey(row.key) === key) matches.push(row.id);
      scanned += rows.length;
      const last = rows[rows.length - 1];
      if (!last || rows.length < KEY_SEARCH_BATCH) return matches;
      if (scanned >= KEY_SEARCH_LIMIT) {
        throw AppError.badRequest('too many channels to search by key; narrow the search with other filters', 'key');
      }
      afterId = last.id;
    }
  }

  async findById(id: number, executor?: Executor): Promise<ChannelRecord | undefined> {
    const row = await this.live(executor).selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.toRecord(row);
  }

  /** The live channels among `ids`, keys opened, by id. */
  async findManyById(ids: readonly number[], executor?: Executor): Promise<ChannelRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.live(executor)
      .selectAll()
      .where('id', 'in', [...new Set(ids)])
      .orderBy('id')
      .execute();
    return rows.map((row) => this.toRecord(row));
  }

  listByIds(ids: number[]): Promise<ChannelListRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.live().select(LIST_COLUMNS).where('id', 'in', ids).orderBy('id').execute();
  }

  async findByTag(tag: string, executor?: Executor): Promise<ChannelRecord[]> {
    const rows = await this.live(executor).selectAll().where('tag', '=', tag).orderBy('id').execute();
    return rows.map((row) => this.toRecord(row));
  }

  listByTag(tag: string): Promise<ChannelListRow[]> {
    return this.live().select(LIST_COLUMNS).where('tag', '=', tag).orderBy('id').execute();
  }

  async distinctTags(): Promise<string[]> {
    const rows = await this.live().select('tag').distinct().where('tag', '!=', '').orderBy('tag').execute();
    return rows.map((row) => row.tag);
  }

  /** Ids of enabled or automatically disabled channels that have a test model, for bulk tests. */
  async testableIds(): Promise<number[]> {
    const rows = await this.live()
      .select('id')
      .where('status', 'in', [ChannelStatus.enabled, ChannelStatus.autoDisabled])
      .where('test_model', '!=', '')
      .orderBy('id')
      .execute();
    return rows.map((row) => row.id);
  }

  /** Enabled channels' type, models and groups only: no key is read or decrypted. */
  async enabledOfferings(): Promise<Array<{ type: number; models: string[]; groups: string[] }>> {
    const rows = await this.live()
      .select(['type', 'models', 'group'])
      .where('status', '=', ChannelStatus.enabled)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      type: row.type,
      models: splitChannelList(row.models),
      groups: splitChannelList(row.group),
    }));
  }

  async enabled(): Promise<ChannelRecord[]> {
    const rows = await this.live().selectAll().where('status', '=', 1).orderBy('id').execute();
    return rows.map((row) => this.toRecord(row));
  }

  async insertMany(channels: NewChannel[], executor: Executor): Promise<number[]> {
    const ids: number[] = [];
    for (const channel of channels) {
      ids.push(await insertReturningId(this.handle, executor.insertInto('channels').values(this.seal(channel))));
    }
    return ids;
  }

  /** Updates live channels among `ids` (only those in status `fromStatus`, when given); returns how many. */
  async update(
    ids: number[],
    patch: ChannelPatch,
    executor: Executor = this.handle.db,
    fromStatus?: number,
  ): Promise<number> {
    if (ids.length === 0 || Object.keys(patch).length === 0) return 0;
    let query = executor
      .updateTable('channels')
      .set(this.seal(patch))
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null);
    if (fromStatus !== undefined) query = query.where('status', '=', fromStatus);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async softDelete(ids: number[], executor: Executor = this.handle.db): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await executor
      .updateTable('channels')
      .set({ deleted_at: nowSeconds() })
      .where('id', 'in', ids)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Ids of the disabled channels (status 2 or 3), of one tag when given: what "delete disabled" removes. */
  async disabledIds(tag: string | undefined, executor?: Executor): Promise<number[]> {
    let query = this.live(executor)
      .select('id')
      .where('status', 'in', [ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled]);
    if (tag !== undefined) query = query.where('tag', '=', tag);
    return (await query.execute()).map((row) => row.id);
  }

  async idsOfTag(tag: string): Promise<number[]> {
    const rows = await this.live().select('id').where('tag', '=', tag).execute();
    return rows.map((row) => row.id);
  }

  /** Group symbols among `symbols` that no user group has. */
  async missingGroups(symbols: string[]): Promise<string[]> {
    if (symbols.length === 0) return [];
    const rows = await this.handle.db
      .selectFrom('user_groups')
      .select('symbol')
      .where('symbol', 'in', symbols)
      .execute();
    const known = new Set(rows.map((row) => row.symbol));
    return symbols.filter((symbol) => !known.has(symbol));
  }

  /** Models of the price table with the channel type that owns them. */
  pricedModels(): Promise<Array<{ model: string; channel_type: number }>> {
    return this.handle.db.selectFrom('prices').select(['model', 'channel_type']).orderBy('model').execute();
  }
}
