import { createHash } from 'node:crypto';
import { ChannelStatus, type ChannelTagView, type ChannelView, type UpdateChannelTagBody } from '@one-hub/contracts';
import { nowSeconds } from '../../platform/clock.js';
import { toBoolean } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { auditedChannelChange } from './audit.js';
import { MAX_KEYS_AT_ONCE, sharedTagPatch, splitKeys } from './fields.js';
import { toChannelDetailView, toChannelView } from './presenter.js';
import type { ChannelPatch, ChannelRecord, ChannelRepository, NewChannel } from './repo.js';
import { checkChannelRules, checkRelayableType } from './rules.js';

/** Keys are compared by digest so the tag editor's key map never needs the keys themselves. */
function keyDigest(key: string): string {
  return createHash('md5').update(key).digest('hex');
}

export interface TagEditResult {
  added: number;
  removed: number;
  updated: number;
}

/** A clone of the tag's first channel for a newly listed key. */
function cloneFor(template: ChannelRecord, shared: ChannelPatch, key: string, name: string): NewChannel {
  const { id: _id, deleted_at: _deletedAt, ...columns } = template;
  return {
    ...columns,
    // SQLite and MySQL read booleans back as 0/1.
    only_chat: toBoolean(columns.only_chat),
    compatible_response: toBoolean(columns.compatible_response),
    allow_extra_body: toBoolean(columns.allow_extra_body),
    ...shared,
    key,
    name,
    // A new key starts enabled unless an administrator switched the tag off.
    status: template.status === ChannelStatus.manuallyDisabled ? ChannelStatus.manuallyDisabled : ChannelStatus.enabled,
    created_time: nowSeconds(),
    test_time: 0,
    response_time: 0,
    balance: 0,
    balance_updated_time: 0,
    used_quota: 0,
  };
}

/** Channels sharing a tag are managed as one: one key each, common settings. */
export class ChannelTagService {
  constructor(
    private readonly repo: ChannelRepository,
    private readonly changed: (id?: number) => Promise<void>,
  ) {}

  private async requireTag(tag: string): Promise<ChannelRecord[]> {
    const channels = await this.repo.findByTag(tag);
    if (channels.length === 0) throw AppError.notFound(`tag '${tag}' not found`);
    return channels;
  }

  private async requireIds(tag: string): Promise<number[]> {
    const ids = await this.repo.idsOfTag(tag);
    if (ids.length === 0) throw AppError.notFound(`tag '${tag}' not found`);
    return ids;
  }

  async all(): Promise<Array<{ id: 0; tag: string }>> {
    return (await this.repo.distinctTags()).map((tag) => ({ id: 0, tag }));
  }

  async list(tag: string): Promise<ChannelView[]> {
    const rows = await this.repo.listByTag(tag);
    if (rows.length === 0) throw AppError.notFound(`tag '${tag}' not found`);
    return rows.map(toChannelView);
  }

  /** The first channel of the tag, with every key of the tag (one a line) and digest → channel id. */
  async get(tag: string): Promise<ChannelTagView> {
    const channels = await this.requireTag(tag);
    const [first] = channels;
    if (!first) throw AppError.notFound(`tag '${tag}' not found`);
    const keyMap: Record<string, number> = {};
    for (const channel of channels) keyMap[keyDigest(channel.key)] ??= channel.id;
    return {
      ...toChannelDetailView(first),
      key: channels.map((channel) => channel.key).join('\n'),
      KeyMap: keyMap,
    };
  }

  /**
   * Keys no longer listed lose their channel, new keys get a clone of the first channel, and the
   * shared settings are written to every channel of the tag, all in one transaction.
   */
  async update(tag: string, body: UpdateChannelTagBody): Promise<TagEditResult> {
    const channels = await this.requireTag(tag);
    const [template] = channels;
    if (!template) throw AppError.notFound(`tag '${tag}' not found`);
    const wanted = splitKeys(body.key);
    const wantedDigests = new Set(wanted.map(keyDigest));
    const existingDigests = new Set(channels.map((channel) => keyDigest(channel.key)));
    const removed = channels.filter((channel) => !wantedDigests.has(keyDigest(channel.key)));
    const kept = channels.filter((channel) => wantedDigests.has(keyDigest(channel.key)));
    const newKeys = wanted.filter((key) => !existingDigests.has(keyDigest(key)));
    if (kept.length + newKeys.length > MAX_KEYS_AT_ONCE) {
      throw AppError.badRequest(`a tag may hold at most ${MAX_KEYS_AT_ONCE} keys`, 'key');
    }

    const shared = sharedTagPatch(body);
    // New keys become new channels of the template's type.
    if (newKeys.length > 0) checkRelayableType(template.type);
    const types = [...new Set(channels.map((channel) => channel.type))];
    await checkChannelRules(
      this.repo,
      types.map((type) => ({ ...template, ...shared, type })),
      { checkType: true, checkGroups: shared.group !== undefined },
    );
    const baseName = body.name || template.name;
    const clones = newKeys.map((key, index) =>
      cloneFor(template, shared, key, `${baseName}_${channels.length + index + 1}`),
    );
    await auditedChannelChange(
      this.repo,
      channels.map((channel) => channel.id),
      async (executor) => {
        await this.repo.softDelete(
          removed.map((channel) => channel.id),
          executor,
        );
        await this.repo.update(
          kept.map((channel) => channel.id),
          shared,
          executor,
        );
        return this.repo.insertMany(clones, executor);
      },
      (createdIds) => createdIds,
    );
    await this.changed();
    return { added: clones.length, removed: removed.length, updated: kept.length };
  }

  async delete(tag: string): Promise<number> {
    const count = await auditedChannelChange(this.repo, await this.requireIds(tag), (executor, ids) =>
      this.repo.softDelete([...ids], executor),
    );
    await this.changed();
    return count;
  }

  async deleteDisabled(tag: string): Promise<number> {
    await this.requireIds(tag);
    const count = await auditedChannelChange(
      this.repo,
      (executor) => this.repo.disabledIds(tag, executor),
      (executor, ids) => this.repo.softDelete([...ids], executor),
    );
    await this.changed();
    return count;
  }

  async setPriority(tag: string, priority: number): Promise<number> {
    const count = await auditedChannelChange(this.repo, await this.requireIds(tag), (executor, ids) =>
      this.repo.update([...ids], { priority }, executor),
    );
    await this.changed();
    return count;
  }

  async setStatus(tag: string, status: 'enable' | 'disable'): Promise<number> {
    const value = status === 'enable' ? ChannelStatus.enabled : ChannelStatus.manuallyDisabled;
    const count = await auditedChannelChange(this.repo, await this.requireIds(tag), (executor, ids) =>
      this.repo.update([...ids], { status: value }, executor),
    );
    await this.changed();
    return count;
  }
}
