import type { DatabaseHandle, Executor } from '../../platform/db/index.js';

export class OptionRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  async loadAll(): Promise<Array<{ key: string; value: string }>> {
    return this.handle.db.selectFrom('options').select(['key', 'value']).execute();
  }

  /** Stores the value only if the key has none yet (several nodes may try at once); returns the stored one. */
  async insertIfAbsent(key: string, value: string): Promise<string> {
    const insert = this.handle.db.insertInto('options').values({ key, value });
    if (this.handle.dialect === 'mysql') await insert.ignore().execute();
    else await insert.onConflict((conflict) => conflict.column('key').doNothing()).execute();
    const row = await this.handle.db
      .selectFrom('options')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    return row.value;
  }

  transaction<Result>(work: (executor: Executor) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  /** The stored text of `key`, undefined when it was never written (its default applies). */
  async find(key: string, executor: Executor = this.handle.db): Promise<string | undefined> {
    const row = await executor.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async upsert(key: string, value: string, executor: Executor = this.handle.db): Promise<void> {
    const insert = executor.insertInto('options').values({ key, value });
    if (this.handle.dialect === 'mysql') {
      await insert.onDuplicateKeyUpdate({ value }).execute();
    } else {
      await insert.onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute();
    }
  }
}
