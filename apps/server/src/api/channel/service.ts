import {
  type ChannelBatchValueBody,
  type ChannelDetailView,
  type ChannelListQuery,
  ChannelStatus,
  type ChannelView,
  type CreateChannelBody,
  type Paged,
  type ProviderView,
  splitChannelList,
  type UpdateChannelBody,
} from '@one-hub/contracts';
import { providerByType, providerRegistry } from '../../domain/channel-types/registry.js';
import type { ChangeBus } from '../../platform/changes.js';
import { nowSeconds } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { auditedChannelChange } from './audit.js';
import { channelsToCreate, editToPatch } from './fields.js';
import { toChannelDetailView, toChannelView, toProviderView } from './presenter.js';
import type { ChannelRecord, ChannelRepository } from './repo.js';
import { type RoutingChannel, toRoutingChannel } from './routing.js';
import { checkChannelRules, checkRelayableType } from './rules.js';
import { ChannelTagService } from './tags.js';

export type { RoutingChannel } from './routing.js';

/** The only status an automatic change may start from, by the status it sets. */
const AUTOMATIC_MOVES: Partial<Record<ChannelStatus, ChannelStatus>> = {
  [ChannelStatus.autoDisabled]: ChannelStatus.enabled,
  [ChannelStatus.enabled]: ChannelStatus.autoDisabled,
};

/** `created` of every entry of GET /api/channel/models, as the reference answers. */
const MODEL_LIST_CREATED = 1677649963;

export interface ChannelModelList {
  object: 'list';
  data: Array<{ id: string; object: 'model'; created: number; owned_by: string }>;
}

export class ChannelService {
  readonly tags: ChannelTagService;

  constructor(
    readonly repo: ChannelRepository,
    readonly changes: ChangeBus,
  ) {
    this.tags = new ChannelTagService(repo, (id) => this.changed(id));
  }

  /** Tells every node's router to reload; `id` names the channel when only one changed. */
  private async changed(id?: number): Promise<void> {
    await this.changes.publish('channels', id === undefined ? {} : { id });
  }

  private async require(id: number): Promise<ChannelRecord> {
    const channel = await this.repo.findById(id);
    if (!channel) throw AppError.notFound(`channel ${id} not found`);
    return channel;
  }

  async list(query: ChannelListQuery): Promise<Paged<ChannelView>> {
    const page = await this.repo.list(query);
    return { ...page, data: page.data.map(toChannelView) };
  }

  async get(id: number): Promise<ChannelDetailView> {
    return toChannelDetailView(await this.require(id));
  }

  /** Every type, so stored channels of any type show; `supported` marks those the picker offers. */
  providers(): ProviderView[] {
    return [...providerRegistry.values()].map(toProviderView);
  }

  /** Every priced model, in the shape of OpenAI's model list. */
  async models(): Promise<ChannelModelList> {
    const rows = await this.repo.pricedModels();
    return {
      object: 'list',
      data: rows.map((row) => ({
        id: row.model,
        object: 'model',
        created: MODEL_LIST_CREATED,
        owned_by: providerByType(row.channel_type)?.name ?? 'unknown',
      })),
    };
  }

  /** One channel per key line, all or none. */
  async create(body: CreateChannelBody): Promise<ChannelView[]> {
    const channels = channelsToCreate(body, nowSeconds());
    checkRelayableType(body.type);
    await checkChannelRules(this.repo, channels, { checkType: true, checkGroups: true });
    const ids = await auditedChannelChange(
      this.repo,
      [],
      (executor) => this.repo.insertMany(channels, executor),
      (created) => created,
    );
    await this.changed(ids.length === 1 ? ids[0] : undefined);
    return (await this.repo.listByIds(ids)).map(toChannelView);
  }

  /** Writes the fields present in the body; see updateChannelBody for partial versus whole updates. */
  async update(body: UpdateChannelBody): Promise<ChannelView> {
    const { id, ...edit } = body;
    const current = await this.require(id);
    const patch = editToPatch(edit);
    if (patch.type !== undefined && patch.type !== current.type) checkRelayableType(patch.type);
    await checkChannelRules(this.repo, [{ ...current, ...patch }], {
      checkType: patch.type !== undefined || patch.base_url !== undefined || patch.other !== undefined,
      checkGroups: patch.group !== undefined,
    });
    await auditedChannelChange(this.repo, [id], (executor) => this.repo.update([id], patch, executor));
    await this.changed(id);
    return toChannelView(await this.require(id));
  }

  async setAzureApiVersion(body: ChannelBatchValueBody): Promise<number> {
    const count = await auditedChannelChange(this.repo, body.ids, (executor, ids) =>
      this.repo.update([...ids], { other: body.value }, executor),
    );
    await this.changed();
    return count;
  }

  /** Removes one model from each channel's list; returns how many channels listed it. */
  async removeModel(body: ChannelBatchValueBody): Promise<number> {
    const changedIds = await auditedChannelChange(this.repo, body.ids, async (executor, ids) => {
      const changed: number[] = [];
      for (const id of new Set(ids)) {
        const channel = await this.repo.findById(id, executor);
        if (!channel) continue;
        const models = splitChannelList(channel.models);
        if (!models.includes(body.value)) continue;
        const remaining = models.filter((model) => model !== body.value).join(',');
        await this.repo.update([id], { models: remaining }, executor);
        changed.push(id);
      }
      return changed;
    });
    await this.changed();
    return changedIds.length;
  }

  async deleteMany(ids: number[]): Promise<number> {
    const count = await auditedChannelChange(this.repo, [...new Set(ids)], (executor, live) =>
      this.repo.softDelete([...live], executor),
    );
    await this.changed();
    return count;
  }

  async deleteDisabled(): Promise<number> {
    const count = await auditedChannelChange(
      this.repo,
      (executor) => this.repo.disabledIds(undefined, executor),
      (executor, ids) => this.repo.softDelete([...ids], executor),
    );
    await this.changed();
    return count;
  }

  async delete(id: number): Promise<void> {
    await this.require(id);
    await auditedChannelChange(this.repo, [id], (executor) => this.repo.softDelete([id], executor));
    await this.changed(id);
  }

  async clearTag(id: number): Promise<void> {
    await this.require(id);
    await auditedChannelChange(this.repo, [id], (executor) => this.repo.update([id], { tag: '' }, executor));
    await this.changed(id);
  }

  // ---- for the relay and the channel jobs ----

  /** Every enabled channel, ready for the router; channels whose key cannot be opened are left out. */
  /** What the public model listing needs of the enabled channels: type, models, groups; no key. */
  listOfferings(): Promise<Array<{ type: number; models: string[]; groups: string[] }>> {
    return this.repo.enabledOfferings();
  }

  async listForRouting(): Promise<RoutingChannel[]> {
    const channels = await this.repo.enabled();
    return channels.filter((channel) => channel.key !== '').map(toRoutingChannel);
  }

  /**
   * Channels worth testing in a bulk run: enabled or automatically disabled, with a test model.
   * Manually disabled ones are left alone: nothing can follow from their test but a cost.
   */
  listTestableIds(): Promise<number[]> {
    return this.repo.testableIds();
  }

  /** One channel whatever its status (channel tests also probe disabled ones), or undefined. */
  async findForRouting(id: number): Promise<RoutingChannel | undefined> {
    const channel = await this.repo.findById(id);
    return channel && channel.key !== '' ? toRoutingChannel(channel) : undefined;
  }

  /**
   * Enables or disables a channel (auto-disable after failures, auto-enable after a good test);
   * true when the status changed. Automatic moves go only from enabled to auto-disabled and back:
   * a channel an administrator disabled while a request or a test was in flight stays off.
   * `reason` is for the caller's log and notifications; the table has no column for it.
   */
  async setStatus(id: number, status: ChannelStatus, _reason?: string): Promise<boolean> {
    const from = AUTOMATIC_MOVES[status];
    const count = await this.repo.update([id], { status }, undefined, from);
    if (count > 0) await this.changed(id);
    return count > 0;
  }

  /**
   * Test results and balances are not routing facts: the routers are not reloaded for them (a test
   * of all channels would otherwise reload every node once per channel, decrypting every key).
   */
  async recordTest(id: number, responseTimeMs: number): Promise<void> {
    await this.repo.update([id], { response_time: Math.round(responseTimeMs), test_time: nowSeconds() });
  }

  /** Balance in US dollars, as the provider's balance endpoint reports it. */
  async recordBalance(id: number, balance: number): Promise<void> {
    await this.repo.update([id], { balance, balance_updated_time: nowSeconds() });
  }
}
