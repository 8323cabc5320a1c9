import type {
  MultiplePricesBody,
  OwnedByView,
  PriceBody,
  PriceModelInfoView,
  PriceView,
  SyncMode,
  SyncPricesResult,
  UnpricedModelView,
} from '@one-hub/contracts';
import type { Transaction } from 'kysely';
import type { Price } from '../../domain/prices.js';
import type { ChangeBus } from '../../platform/changes.js';
import { type Database, isUniqueViolation } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import { recordPriceChanges, recordPriceRename, recordPriceSync } from './audit.js';
import { DEFAULT_PRICES } from './defaults.js';
import { listedPrice, modelInfoByModel } from './model-info.js';
import { builtInOwners, type OwnerDirectory } from './owners.js';
import type { PriceRepository } from './repo.js';
import { syncPrices } from './sync.js';
import { compareForListing, PriceTable } from './table.js';
import { isExactModel, type ServedChannelSource, unpricedModels } from './unpriced.js';
import { fetchServicePrices } from './update-service.js';

function alreadyExists(field: string, model: string): AppError {
  return AppError.conflict(`${field}: model already exists: ${model}`);
}

/** Keeps the first occurrence of each name, in order. */
function unique(models: readonly string[]): string[] {
  return [...new Set(models)];
}

/**
 * Model prices. The relay reads them from memory through `lookup`; every write goes to the
 * database in a transaction, then every node reloads through the cache's invalidation bus.
 */
export class PriceService {
  private table: PriceTable | undefined;
  private firstLoad: Promise<void> | undefined;
  private seedChecked = false;
  private loadsStarted = 0;
  private loadsApplied = 0;
  private servedChannels: ServedChannelSource = async () => [];
  private owners: OwnerDirectory = builtInOwners;

  constructor(
    readonly repo: PriceRepository,
    readonly changes: ChangeBus,
    private readonly logger?: Pick<Logger, 'error'>,
  ) {
    changes.on('prices', (_change, origin) => {
      if (origin === 'local') return;
      this.reload().catch((error: unknown) => this.logger?.error({ err: error }, 'reloading prices failed'));
    });
  }

  /** Loads every price into memory; the first call of a process seeds the defaults into an empty table. */
  async load(): Promise<void> {
    if (!this.seedChecked) {
      await this.seedIfEmpty();
      this.seedChecked = true;
    }
    await Promise.all([this.reload(), this.owners.load?.()]);
  }

  /**
   * The price of `model`: exact, else the wildcard with the longest matching prefix, else the
   * fallback of 30/30. Synchronous and allocation-free: the relay calls it on every request.
   */
  lookup(model: string): Price {
    if (!this.table) {
      // Guessing a price would bill wrongly; fail this call and make sure the next one can succeed.
      this.loaded().catch((error: unknown) => this.logger?.error({ err: error }, 'loading prices failed'));
      throw new AppError('unavailable', 'model prices are not loaded yet', { retryable: true });
    }
    return this.table.lookup(model);
  }

  async list(source: 'db' | 'default'): Promise<readonly Price[]> {
    if (source === 'default') return [...DEFAULT_PRICES].sort(compareForListing);
    return (await this.loaded()).sorted;
  }

  /** `GET /api/prices`: stored prices carry their model's information, as the reference lists them. */
  async listWithModelInfo(source: 'db' | 'default'): Promise<PriceView[]> {
    const [prices, infos] = await Promise.all([
      this.list(source),
      source === 'db' ? this.modelInfos() : new Map<string, PriceModelInfoView>(),
    ]);
    return prices.map((price) => listedPrice(price, infos));
  }

  /** Model information by model name, in the form listings embed. */
  async modelInfos(): Promise<Map<string, PriceModelInfoView>> {
    return modelInfoByModel((await this.owners.infos?.()) ?? []);
  }

  /**
   * Where `modelList` and `unpriced` find the enabled channels. Set once at start-up rather than
   * passed in, so prices depend on channels for these two lists alone.
   */
  setServedChannelSource(source: ServedChannelSource): void {
    this.servedChannels = source;
  }

  /** Every priced model and every model an enabled channel offers: exact names, sorted, once each. */
  async modelList(): Promise<string[]> {
    const [table, channels] = await Promise.all([this.loaded(), this.servedChannels()]);
    const offered = channels.flatMap((channel) => channel.models);
    const models = new Set([...table.models(), ...offered].filter(isExactModel));
    return [...models].sort();
  }

  /** The models enabled channels bill at the fallback price, read from the current table and channels. */
  async unpriced(): Promise<UnpricedModelView[]> {
    const [table, channels] = await Promise.all([this.loaded(), this.servedChannels()]);
    return unpricedModels(table, channels);
  }

  /** Set once at start-up, like the channel model source, so owners can be edited elsewhere. */
  setOwnerDirectory(directory: OwnerDirectory): void {
    this.owners = directory;
  }

  ownedBy(): Promise<Readonly<Record<string, OwnedByView>>> {
    return this.owners.ownedBy();
  }

  /** The maker's name for a price's `channel_type`, undefined when nobody registered it. */
  ownerName(channelType: number): string | undefined {
    return this.owners.ownerName(channelType);
  }

  private serviceUrl = '';

  /** Set once at start-up from UPDATE_PRICE_SERVICE ('' = none). */
  setUpdateService(url: string): void {
    this.serviceUrl = url;
  }

  updateServiceUrl(): string {
    return this.serviceUrl;
  }

  /** The update service's current list, checked but not applied (the Update check tab compares it). */
  fetchUpdates(): Promise<PriceBody[]> {
    return fetchServicePrices(this.serviceUrl);
  }

  /** Fetches the update service's list and applies it in `mode`; locked prices stay as they are. */
  async applyUpdates(mode: SyncMode): Promise<SyncPricesResult> {
    return this.sync(mode, await this.fetchUpdates());
  }

  async create(price: PriceBody): Promise<PriceView> {
    await this.write(
      async (transaction) => {
        if (await this.repo.find(transaction, price.model)) throw alreadyExists('model', price.model);
        await this.repo.insertMany(transaction, [price]);
        await recordPriceChanges(transaction, new Map(), await this.repo.findMany(transaction, [price.model]));
      },
      alreadyExists('model', price.model),
    );
    return price;
  }

  /** Replaces the price stored under `model`, renaming it when the body names another model. */
  async update(model: string, price: PriceBody): Promise<PriceView> {
    await this.write(
      async (transaction) => {
        const before = await this.repo.find(transaction, model);
        if (!before) throw AppError.notFound(`no price for '${model}'`, 'model');
        if (price.model !== model && (await this.repo.find(transaction, price.model))) {
          throw alreadyExists('model', price.model);
        }
        await this.repo.replace(transaction, model, price);
        await recordPriceRename(transaction, before, (await this.repo.find(transaction, price.model)) ?? price);
      },
      alreadyExists('model', price.model),
    );
    return price;
  }

  async delete(model: string): Promise<void> {
    await this.deleteMultiple([model], { required: true });
  }

  /** Gives `models` one shared price: adds the new ones, updates the kept ones, deletes the dropped ones. */
  async saveMultiple(body: MultiplePricesBody): Promise<SyncPricesResult> {
    const models = unique(body.models);
    const originals = new Set(body.original_models);
    const kept = new Set(models);
    const dropped = unique(body.original_models).filter((model) => !kept.has(model));
    return this.write(async (transaction) => {
      const stored = await this.repo.findMany(transaction, [...models, ...dropped]);
      const added: PriceView[] = [];
      let updated = 0;
      for (const model of models) {
        const price = { ...body.price, model };
        if (stored.has(model)) {
          // Only models that were part of the edited set may be overwritten; others belong to someone else.
          if (!originals.has(model)) throw alreadyExists('models', model);
          await this.repo.replace(transaction, model, price);
          updated += 1;
        } else {
          added.push(price);
        }
      }
      await this.repo.insertMany(transaction, added);
      const deleted = await this.repo.deleteMany(transaction, dropped);
      await recordPriceChanges(transaction, stored, await this.repo.findMany(transaction, [...models, ...dropped]));
      return { added: added.length, updated, deleted };
    }, AppError.conflict('models: one of the models already has a price'));
  }

  /** Deletes the prices of `models`; `required`: a model without a price is a 404 (a single delete). */
  async deleteMultiple(models: readonly string[], options: { required?: boolean } = {}): Promise<{ deleted: number }> {
    const names = unique(models);
    return this.write(async (transaction) => {
      const stored = await this.repo.findMany(transaction, names);
      const deleted = await this.repo.deleteMany(transaction, names);
      if (options.required && deleted === 0) throw AppError.notFound(`no price for '${names[0]}'`, 'model');
      await recordPriceChanges(transaction, stored, new Map());
      return { deleted };
    });
  }

  /** Applies a price list from an update service; locked prices are never touched. */
  async sync(mode: SyncMode, prices: readonly PriceView[]): Promise<SyncPricesResult> {
    return this.write(async (transaction) => {
      const result = await syncPrices(this.repo, transaction, mode, prices);
      await recordPriceSync(transaction, mode, result);
      return result;
    }, AppError.conflict('the price list changed while it was being synchronised; try again'));
  }

  /** Runs `work` in a transaction, then refreshes this node and tells the others. */
  private async write<Result>(
    work: (transaction: Transaction<Database>) => Promise<Result>,
    onUniqueViolation?: AppError,
  ): Promise<Result> {
    // Seeds an empty table first, so a write cannot pre-empt the built-in list.
    await this.loaded();
    let result: Result;
    try {
      result = await this.repo.transaction(work);
    } catch (error) {
      // A concurrent writer inserted the same model between our check and our insert.
      if (onUniqueViolation && isUniqueViolation(error)) throw onUniqueViolation;
      throw error;
    }
    await this.reload();
    await this.changes.publish('prices', {});
    return result;
  }

  private async loaded(): Promise<PriceTable> {
    if (!this.table) {
      this.firstLoad ??= this.load().catch((error: unknown) => {
        this.firstLoad = undefined;
        throw error;
      });
      await this.firstLoad;
    }
    if (!this.table) throw new AppError('unavailable', 'model prices are not loaded yet', { retryable: true });
    return this.table;
  }

  private async seedIfEmpty(): Promise<void> {
    try {
      await this.repo.transaction(async (transaction) => {
        if (await this.repo.hasAny(transaction)) return;
        await this.repo.insertMany(transaction, DEFAULT_PRICES);
      });
    } catch (error) {
      // Another node seeded the table at the same moment; its rows are as good as ours.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** Loads may overlap (a write here, a notice from another node): only the latest one started wins. */
  private async reload(): Promise<void> {
    const sequence = ++this.loadsStarted;
    const views = await this.repo.all();
    if (sequence < this.loadsApplied) return;
    this.loadsApplied = sequence;
    this.table = new PriceTable(views);
  }
}
