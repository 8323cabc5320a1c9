import type { PriceType, PriceView } from '@one-hub/contracts';
import type { Insertable, Transaction } from 'kysely';
import {
  type Database,
  type DatabaseHandle,
  type Executor,
  type PriceRow,
  type PricesTable,
  toBoolean,
} from '../../platform/db/index.js';

/** Rows per statement: well under every driver's bound-parameter limit (7 columns each). */
const CHUNK_SIZE = 200;

function chunks<Item>(items: readonly Item[]): Item[][] {
  const result: Item[][] = [];
  for (let start = 0; start < items.length; start += CHUNK_SIZE) result.push(items.slice(start, start + CHUNK_SIZE));
  return result;
}

/** A row written by an older version or by hand may hold anything; only finite ratios survive. */
function parseExtraRatios(text: string): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const ratios: Record<string, number> = {};
    for (const [kind, ratio] of Object.entries(parsed)) {
      if (typeof ratio === 'number' && Number.isFinite(ratio)) ratios[kind] = ratio;
    }
    return ratios;
  } catch {
    return {};
  }
}

export function toPriceView(row: PriceRow): PriceView {
  const type: PriceType = row.type === 'times' ? 'times' : 'tokens';
  return {
    model: row.model,
    type,
    channel_type: Number(row.channel_type),
    input: Number(row.input),
    output: Number(row.output),
    locked: toBoolean(row.locked),
    extra_ratios: parseExtraRatios(row.extra_ratios),
  };
}

/** A price as its row; the importer writes its prices through this too, so both store them alike. */
export function toPriceRow(
  price: Pick<PriceView, 'model' | 'type' | 'channel_type' | 'input' | 'output' | 'locked' | 'extra_ratios'>,
): Insertable<PricesTable> {
  return {
    model: price.model,
    type: price.type,
    channel_type: price.channel_type,
    input: price.input,
    output: price.output,
    locked: price.locked,
    extra_ratios: JSON.stringify(price.extra_ratios),
  };
}

export class PriceRepository {
  constructor(readonly handle: DatabaseHandle) {}

  transaction<Result>(work: (transaction: Transaction<Database>) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  async all(executor: Executor = this.handle.db): Promise<PriceView[]> {
    const rows = await executor.selectFrom('prices').selectAll().execute();
    return rows.map(toPriceView);
  }

  async hasAny(executor: Executor): Promise<boolean> {
    return (await executor.selectFrom('prices').select('model').limit(1).executeTakeFirst()) !== undefined;
  }

  async find(executor: Executor, model: string): Promise<PriceView | undefined> {
    const row = await executor.selectFrom('prices').selectAll().where('model', '=', model).executeTakeFirst();
    return row && toPriceView(row);
  }

  /** The stored rows among `models`, keyed by model. */
  async findMany(executor: Executor, models: readonly string[]): Promise<Map<string, PriceView>> {
    const found = new Map<string, PriceView>();
    for (const chunk of chunks(models)) {
      const rows = await executor.selectFrom('prices').selectAll().where('model', 'in', chunk).execute();
      for (const row of rows) found.set(row.model, toPriceView(row));
    }
    return found;
  }

  async insertMany(executor: Executor, prices: readonly PriceView[]): Promise<void> {
    for (const chunk of chunks(prices)) {
      await executor.insertInto('prices').values(chunk.map(toPriceRow)).execute();
    }
  }

  /** Replaces the row stored under `model`; `price.model` may differ, which renames it. */
  async replace(executor: Executor, model: string, price: PriceView): Promise<boolean> {
    const result = await executor
      .updateTable('prices')
      .set(toPriceRow(price))
      .where('model', '=', model)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteMany(executor: Executor, models: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const chunk of chunks(models)) {
      const result = await executor.deleteFrom('prices').where('model', 'in', chunk).executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  }

  async deleteUnlocked(executor: Executor): Promise<number> {
    const result = await executor.deleteFrom('prices').where('locked', '=', false).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
