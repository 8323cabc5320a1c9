import { isOptionKey, isSecretOptionKey, normaliseOptionValue } from '@one-hub/contracts';
import type { Insertable, Kysely } from 'kysely';
import { toPriceRow } from '../../api/price/repo.js';
import type { Database } from '../../platform/db/index.js';
import type { LegacyModelInfo, LegacyModelOwner, LegacyPrice, LegacyUserGroup, Skipped } from '../legacy.js';
import { type BatchResult, clip, type WriteContext } from './context.js';

/**
 * The small tables. Rule: a fresh import makes the target's settings the source's (source wins
 * over the defaults a first start wrote); a merge only adds what the target does not have yet.
 */

const skip = (table: string, row: string | number, reason: string): Skipped => ({ table, row, reason });
const KEPT_BY_TARGET = 'the target already has it (a merge keeps what the target has)';

async function upsertOption(executor: Kysely<Database>, context: WriteContext, key: string, value: string) {
  const insert = executor.insertInto('options').values({ key, value });
  if (context.dialect === 'mysql') await insert.onDuplicateKeyUpdate({ value }).execute();
  else await insert.onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute();
}

/** Options go through the option API's own check; keys this server does not know are reported. */
export async function writeOptions(
  executor: Kysely<Database>,
  context: WriteContext,
  options: Map<string, string>,
): Promise<BatchResult> {
  const present = new Set((await executor.selectFrom('options').select('key').execute()).map((row) => row.key));
  const skipped: Skipped[] = [];
  let written = 0;
  for (const [key, value] of options) {
    if (key === 'InstanceId') {
      skipped.push(skip('options', key, 'set by each installation; the target keeps its own'));
    } else if (!isOptionKey(key)) {
      skipped.push(skip('options', key, 'no such setting here'));
    } else if (context.mode === 'merge' && present.has(key)) {
      skipped.push(skip('options', key, KEPT_BY_TARGET));
    } else {
      const checked = normaliseOptionValue(key, value);
      if ('error' in checked) {
        // A refused secret is not quoted: the message could echo part of it.
        const reason = isSecretOptionKey(key)
          ? 'the value is not valid here'
          : `the value is not valid here: ${checked.error}`;
        skipped.push(skip('options', key, reason));
        continue;
      }
      await upsertOption(executor, context, key, checked.value);
      written++;
    }
  }
  return { written, skipped };
}

export async function writeUserGroups(
  executor: Kysely<Database>,
  context: WriteContext,
  groups: readonly LegacyUserGroup[],
): Promise<BatchResult> {
  const present = new Map(
    (await executor.selectFrom('user_groups').select(['id', 'symbol']).execute()).map((row) => [row.symbol, row.id]),
  );
  const skipped: Skipped[] = [];
  let written = 0;
  for (const group of groups) {
    const fields = {
      name: clip(group.name || group.symbol, 50),
      ratio: group.ratio,
      api_rate: group.api_rate,
      public: group.public,
      promotion: group.promotion,
      min: group.min,
      max: group.max,
      enable: group.enable,
    };
    const existing = present.get(group.symbol);
    if (!group.symbol || group.symbol.length > 50) {
      skipped.push(skip('user_groups', group.symbol, 'the symbol is empty or longer than 50 characters'));
    } else if (existing !== undefined && context.mode === 'merge') {
      skipped.push(skip('user_groups', group.symbol, KEPT_BY_TARGET));
    } else if (existing !== undefined) {
      await executor.updateTable('user_groups').set(fields).where('id', '=', existing).execute();
      written++;
    } else {
      await executor
        .insertInto('user_groups')
        .values({ symbol: group.symbol, ...fields })
        .execute();
      present.set(group.symbol, -1);
      written++;
    }
  }
  return { written, skipped };
}

/** Custom owners only: ids up to 1000 are the built-in ones, which live in code here. */
export async function writeModelOwners(
  executor: Kysely<Database>,
  context: WriteContext,
  owners: readonly LegacyModelOwner[],
): Promise<BatchResult> {
  const present = new Set((await executor.selectFrom('model_owned_by').select('id').execute()).map((row) => row.id));
  const skipped: Skipped[] = [];
  const builtIn = owners.filter((owner) => owner.id <= 1000).length;
  if (builtIn > 0)
    skipped.push({
      table: 'model_owned_by',
      reason: 'built-in owner (ids up to 1000 are defined in code here)',
      count: builtIn,
    });
  let written = 0;
  for (const owner of owners.filter((candidate) => candidate.id > 1000)) {
    const fields = { name: clip(owner.name, 100), icon: owner.icon };
    if (present.has(owner.id) && context.mode === 'merge') {
      skipped.push(skip('model_owned_by', owner.id, KEPT_BY_TARGET));
      continue;
    }
    if (present.has(owner.id))
      await executor.updateTable('model_owned_by').set(fields).where('id', '=', owner.id).execute();
    else
      await executor
        .insertInto('model_owned_by')
        .values({ id: owner.id, ...fields })
        .execute();
    present.add(owner.id);
    written++;
  }
  return { written, skipped };
}

/** A JSON array of strings as text; a plain non-JSON value becomes a one-element list, as the reference reads it. */
function stringListText(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return JSON.stringify(parsed.filter((entry) => typeof entry === 'string'));
  } catch {
    // not JSON: below
  }
  return JSON.stringify(text.trim() ? [text.trim()] : []);
}

export function writeModelInfo(
  executor: Kysely<Database>,
  context: WriteContext,
  infos: readonly LegacyModelInfo[],
): Promise<BatchResult> {
  return writeByModel(executor, context, 'model_info', infos, (info) => ({
    name: clip(info.name, 100),
    description: info.description,
    context_length: info.context_length,
    max_tokens: info.max_tokens,
    input_modalities: stringListText(info.input_modalities),
    output_modalities: stringListText(info.output_modalities),
    tags: stringListText(info.tags),
    support_url: stringListText(info.support_url),
    created_at: info.created_at,
    updated_at: info.updated_at,
  }));
}

export function writePrices(
  executor: Kysely<Database>,
  context: WriteContext,
  prices: readonly LegacyPrice[],
): Promise<BatchResult> {
  return writeByModel(executor, context, 'prices', prices, (price) => {
    const { model: _model, ...fields } = toPriceRow(price);
    return fields;
  });
}

/**
 * Rows keyed by their model name: a name that is empty or too long is skipped; one the target
 * already has is kept when merging and overwritten otherwise.
 */
async function writeByModel<Row extends { model: string }>(
  executor: Kysely<Database>,
  context: WriteContext,
  table: 'model_info' | 'prices',
  rows: readonly Row[],
  fieldsOf: (row: Row) => object,
): Promise<BatchResult> {
  const present = new Set((await executor.selectFrom(table).select('model').execute()).map((row) => row.model));
  const skipped: Skipped[] = [];
  let written = 0;
  // Both tables are keyed by `model`; the other columns are what `fieldsOf` gives for that table.
  const target = table as 'prices';
  for (const row of rows) {
    const fields = fieldsOf(row) as Omit<Insertable<Database['prices']>, 'model'>;
    if (!row.model || row.model.length > 100) {
      skipped.push(skip(table, row.model, 'the model name is empty or longer than 100 characters'));
    } else if (present.has(row.model) && context.mode === 'merge') {
      skipped.push(skip(table, row.model, KEPT_BY_TARGET));
    } else {
      if (present.has(row.model))
        await executor.updateTable(target).set(fields).where('model', '=', row.model).execute();
      else
        await executor
          .insertInto(target)
          .values({ model: row.model, ...fields })
          .execute();
      present.add(row.model);
      written++;
    }
  }
  return { written, skipped };
}
