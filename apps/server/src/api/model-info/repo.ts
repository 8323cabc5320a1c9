import type { ModelInfoBody, ModelInfoView, OwnedByView } from '@one-hub/contracts';
import { sql } from 'kysely';
import {
  type DatabaseHandle,
  type Executor,
  insertReturningId,
  type ModelInfoRow,
  type ModelOwnedByRow,
} from '../../platform/db/index.js';

function toOwnedByView(row: ModelOwnedByRow): OwnedByView {
  return { id: Number(row.id), name: row.name, icon: row.icon };
}

export function toModelInfoView(row: ModelInfoRow): ModelInfoView {
  return {
    id: Number(row.id),
    model: row.model,
    name: row.name,
    description: row.description,
    context_length: Number(row.context_length),
    max_tokens: Number(row.max_tokens),
    input_modalities: row.input_modalities,
    output_modalities: row.output_modalities,
    tags: row.tags,
    support_url: row.support_url,
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  };
}

/** The stored form: the four lists as JSON-array text, as the reference keeps them. */
function infoColumns(body: ModelInfoBody) {
  return {
    model: body.model,
    name: body.name,
    description: body.description,
    context_length: body.context_length,
    max_tokens: body.max_tokens,
    input_modalities: JSON.stringify(body.input_modalities),
    output_modalities: JSON.stringify(body.output_modalities),
    tags: JSON.stringify(body.tags),
    support_url: JSON.stringify(body.support_url),
  };
}

/** Custom model owners and model information. */
export class ModelMetadataRepository {
  constructor(readonly handle: DatabaseHandle) {}

  async owners(executor: Executor = this.handle.db): Promise<OwnedByView[]> {
    const rows = await executor.selectFrom('model_owned_by').selectAll().orderBy('id').execute();
    return rows.map(toOwnedByView);
  }

  transaction<Result>(work: (executor: Executor) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  async owner(id: number, executor: Executor = this.handle.db): Promise<OwnedByView | undefined> {
    const row = await executor.selectFrom('model_owned_by').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toOwnedByView(row);
  }

  /** The largest id in use, 0 when there is none. */
  async largestOwnerId(): Promise<number> {
    const row = await this.handle.db
      .selectFrom('model_owned_by')
      .select(sql<number | string | null>`max(id)`.as('largest'))
      .executeTakeFirst();
    return Number(row?.largest ?? 0);
  }

  async insertOwner(owner: OwnedByView, executor: Executor = this.handle.db): Promise<void> {
    await executor.insertInto('model_owned_by').values(owner).execute();
  }

  /** No "updated" flag: MySQL counts only rows whose values changed. Check existence first. */
  async updateOwner(owner: OwnedByView, executor: Executor = this.handle.db): Promise<void> {
    await executor
      .updateTable('model_owned_by')
      .set({ name: owner.name, icon: owner.icon })
      .where('id', '=', owner.id)
      .execute();
  }

  async deleteOwner(id: number, executor: Executor = this.handle.db): Promise<boolean> {
    const result = await executor.deleteFrom('model_owned_by').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** How many prices name `ownerId` as their channel type (owner). */
  async pricesOwnedBy(ownerId: number): Promise<number> {
    const row = await this.handle.db
      .selectFrom('prices')
      .select(sql<number | string>`count(*)`.as('count'))
      .where('channel_type', '=', ownerId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async infos(): Promise<ModelInfoView[]> {
    const rows = await this.handle.db.selectFrom('model_info').selectAll().orderBy('model').orderBy('id').execute();
    return rows.map(toModelInfoView);
  }

  async info(id: number, executor: Executor = this.handle.db): Promise<ModelInfoView | undefined> {
    const row = await executor.selectFrom('model_info').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toModelInfoView(row);
  }

  /** The id of the row describing `model`, if any. */
  async infoIdOf(model: string): Promise<number | undefined> {
    const row = await this.handle.db
      .selectFrom('model_info')
      .select('id')
      .where('model', '=', model)
      .executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  async insertInfo(body: ModelInfoBody, now: number, executor: Executor = this.handle.db): Promise<number> {
    return insertReturningId(
      this.handle,
      executor.insertInto('model_info').values({ ...infoColumns(body), created_at: now, updated_at: now }),
    );
  }

  async updateInfo(id: number, body: ModelInfoBody, now: number, executor: Executor = this.handle.db): Promise<void> {
    await executor
      .updateTable('model_info')
      .set({ ...infoColumns(body), updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  async deleteInfo(id: number, executor: Executor = this.handle.db): Promise<boolean> {
    const result = await executor.deleteFrom('model_info').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
