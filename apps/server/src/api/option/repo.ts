import type { DatabaseHandle } from '../../platform/db/index.js';

export class OptionRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  async loadAll(): Promise<Array<{ key: string; value: string }>> {
    return this.handle.db.selectFrom('options').select(['key', 'value']).execute();
  }

  async upsert(key: string, value: string): Promise<void> {
    const insert = this.handle.db.insertInto('options').values({ key, value });
    if (this.handle.dialect === 'mysql') {
      await insert.onDuplicateKeyUpdate({ value }).execute();
    } else {
      await insert.onConflict((conflict) => conflict.column('key').doUpdateSet({ value })).execute();
    }
  }
}
