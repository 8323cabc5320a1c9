import {
  type CreateOwnedByBody,
  type ModelInfoBody,
  type ModelInfoView,
  type OwnedByView,
  RESERVED_OWNER_ID_MAX,
  type UpdateModelInfoBody,
  type UpdateOwnedByBody,
} from '@one-hub/contracts';
import type { ChangeBus } from '../../platform/changes.js';
import { nowSeconds } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import { type RowAudit, recordRowChange } from '../audit/row-change.js';
import { MODEL_OWNERS } from '../price/owners.js';
import type { ModelMetadataRepository } from './repo.js';

/** Concurrent creations may pick the same next id; the loser tries the one after. */
const ID_ATTEMPTS = 5;

function reservedId(id: number): AppError {
  return AppError.badRequest(
    `invalid id ${id}; ids up to ${RESERVED_OWNER_ID_MAX} belong to the built-in owners and cannot be changed`,
    'id',
  );
}

function modelTaken(model: string): AppError {
  return AppError.conflict(`model identifier already exists: ${model}`, 'model');
}

/**
 * Model owners (makers) and model information. Built-in owners come from code; administrators add
 * owners with ids above 1000. Owners are kept in memory, since every price listing names them,
 * and reloaded on every node when one of them changes.
 */
export class ModelMetadataService {
  private custom: readonly OwnedByView[] = [];
  private loading: Promise<void> | undefined;
  private loaded = false;
  private reloadsStarted = 0;
  private reloadsApplied = 0;

  constructor(
    readonly repo: ModelMetadataRepository,
    readonly changes: ChangeBus,
    private readonly logger?: Pick<Logger, 'error'>,
  ) {
    changes.on('modelMetadata', (_change, origin) => {
      if (origin === 'local') return;
      this.reload().catch((error: unknown) => this.logger?.error({ err: error }, 'reloading model owners failed'));
    });
  }

  /** Reads the custom owners into memory (start-up; later reloads follow every change). */
  load(): Promise<void> {
    return this.reload();
  }

  /** Every owner by id: the built-in ones and the custom ones (the shape of `GET /api/ownedby`). */
  async ownedBy(): Promise<Record<string, OwnedByView>> {
    await this.ensureLoaded();
    const all: Record<string, OwnedByView> = { ...MODEL_OWNERS };
    for (const owner of this.custom) all[String(owner.id)] = owner;
    return all;
  }

  /** Every owner as a list in id order (the shape of `GET /api/model_ownedby/`). */
  async owners(): Promise<OwnedByView[]> {
    return Object.values(await this.ownedBy()).sort((left, right) => left.id - right.id);
  }

  /**
   * The owner's name from memory, for listings built on the hot path; custom owners appear once
   * the first load finished (which any owner listing triggers).
   */
  ownerName(id: number): string | undefined {
    if (!this.loaded) void this.ensureLoaded().catch(() => {});
    return MODEL_OWNERS[String(id)]?.name ?? this.custom.find((owner) => owner.id === id)?.name;
  }

  async owner(id: number): Promise<OwnedByView> {
    const owner = MODEL_OWNERS[String(id)] ?? (await this.repo.owner(id));
    if (!owner) throw AppError.notFound(`no owner with id ${id}`, 'id');
    return owner;
  }

  async createOwner(body: CreateOwnedByBody): Promise<OwnedByView> {
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const id = body.id || Math.max(RESERVED_OWNER_ID_MAX, await this.repo.largestOwnerId()) + 1;
      const owner = { id, name: body.name, icon: body.icon };
      try {
        await this.repo.transaction(async (transaction) => {
          await this.repo.insertOwner(owner, transaction);
          await recordRowChange(transaction, METADATA_AUDIT, 'create', undefined, owner);
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (body.id) throw AppError.conflict(`an owner with id ${id} already exists`, 'id');
        continue;
      }
      await this.changed();
      return owner;
    }
    throw AppError.conflict('owners are being added at the same moment; try again', 'id');
  }

  async updateOwner(body: UpdateOwnedByBody): Promise<OwnedByView> {
    if (body.id <= RESERVED_OWNER_ID_MAX) throw reservedId(body.id);
    const owner = { id: body.id, name: body.name, icon: body.icon };
    await this.repo.transaction(async (transaction) => {
      const before = await this.repo.owner(body.id, transaction);
      if (!before) throw AppError.notFound(`no owner with id ${body.id}`, 'id');
      await this.repo.updateOwner(owner, transaction);
      await recordRowChange(transaction, METADATA_AUDIT, 'update', before, owner);
    });
    await this.changed();
    return owner;
  }

  /** Refused while prices still name the owner: they would show as "Unknown". */
  async deleteOwner(id: number): Promise<void> {
    if (id <= RESERVED_OWNER_ID_MAX) throw reservedId(id);
    if (!(await this.repo.owner(id))) throw AppError.notFound(`no owner with id ${id}`, 'id');
    const prices = await this.repo.pricesOwnedBy(id);
    if (prices > 0) {
      throw AppError.conflict(`owner ${id} is used by ${prices} price(s); give them another owner first`, 'id');
    }
    await this.repo.transaction(async (transaction) => {
      const before = await this.repo.owner(id, transaction);
      if (!before || !(await this.repo.deleteOwner(id, transaction))) {
        throw AppError.notFound(`no owner with id ${id}`, 'id');
      }
      await recordRowChange(transaction, METADATA_AUDIT, 'delete', before, undefined);
    });
    await this.changed();
  }

  infos(): Promise<ModelInfoView[]> {
    return this.repo.infos();
  }

  async info(id: number): Promise<ModelInfoView> {
    const info = await this.repo.info(id);
    if (!info) throw AppError.notFound(`no model information with id ${id}`, 'id');
    return info;
  }

  async createInfo(body: ModelInfoBody): Promise<ModelInfoView> {
    if ((await this.repo.infoIdOf(body.model)) !== undefined) throw modelTaken(body.model);
    try {
      return await this.repo.transaction(async (transaction) => {
        const created = await this.repo.info(await this.repo.insertInfo(body, nowSeconds(), transaction), transaction);
        if (!created) throw new Error(`the model information of ${body.model} just inserted is missing`);
        await recordRowChange(transaction, METADATA_AUDIT, 'create', undefined, created);
        return created;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw modelTaken(body.model);
      throw error;
    }
  }

  async updateInfo(body: UpdateModelInfoBody): Promise<ModelInfoView> {
    const { id, ...fields } = body;
    await this.info(id);
    const holder = await this.repo.infoIdOf(fields.model);
    if (holder !== undefined && holder !== id) throw modelTaken(fields.model);
    try {
      await this.repo.transaction(async (transaction) => {
        const before = await this.repo.info(id, transaction);
        if (!before) throw AppError.notFound(`no model information with id ${id}`, 'id');
        await this.repo.updateInfo(id, fields, nowSeconds(), transaction);
        await recordRowChange(transaction, METADATA_AUDIT, 'update', before, await this.repo.info(id, transaction));
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw modelTaken(fields.model);
      throw error;
    }
    return this.info(id);
  }

  async deleteInfo(id: number): Promise<void> {
    await this.repo.transaction(async (transaction) => {
      const before = await this.repo.info(id, transaction);
      if (!before || !(await this.repo.deleteInfo(id, transaction))) {
        throw AppError.notFound(`no model information with id ${id}`, 'id');
      }
      await recordRowChange(transaction, METADATA_AUDIT, 'delete', before, undefined);
    });
  }

  private ensureLoaded(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    this.loading ??= this.reload().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** Reloads may overlap (a write here, a notice from another node): only the latest one started wins. */
  private async reload(): Promise<void> {
    const sequence = ++this.reloadsStarted;
    const owners = await this.repo.owners();
    if (sequence < this.reloadsApplied) return;
    this.reloadsApplied = sequence;
    this.custom = owners;
    this.loaded = true;
  }

  private async changed(): Promise<void> {
    await this.reload();
    await this.changes.publish('modelMetadata', {});
  }
}

/** Owners (target `owner:<id>`, named by their name) and model information (target its id, named by the model). */
const METADATA_AUDIT: RowAudit<OwnedByView | ModelInfoView> = {
  resource: 'model_info',
  target: (subject) =>
    'model' in subject ? { id: subject.id, name: subject.model } : { id: `owner:${subject.id}`, name: subject.name },
  options: { ignore: ['id', 'created_at', 'updated_at'] },
};
