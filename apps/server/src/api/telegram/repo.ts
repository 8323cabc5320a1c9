import {
  keywordAsRowId,
  type Paged,
  type PageQuery,
  TELEGRAM_MENU_SORT_FIELDS,
  type TelegramMenuView,
} from '@one-hub/contracts';
import type { Selectable } from 'kysely';
import {
  type DatabaseHandle,
  type Executor,
  fetchPage,
  insertReturningId,
  startsWithIgnoringCase,
  type TelegramMenusTable,
} from '../../platform/db/index.js';

export type TelegramMenuRow = Selectable<TelegramMenusTable>;
type MenuFields = Omit<TelegramMenuView, 'id'>;

/** The bot's custom commands (`telegram_menus`). */
export class TelegramMenuRepository {
  constructor(private readonly handle: DatabaseHandle) {}

  /** `keyword`: a menu id exactly, or the start of a command. */
  list(keyword: string | undefined, paging: PageQuery): Promise<Paged<TelegramMenuRow>> {
    let query = this.handle.db.selectFrom('telegram_menus').selectAll();
    if (keyword) {
      const id = keywordAsRowId(keyword);
      query = query.where((where) =>
        where.or([...(id === undefined ? [] : [where('id', '=', id)]), startsWithIgnoringCase('command', keyword)]),
      );
    }
    return fetchPage(query, paging, TELEGRAM_MENU_SORT_FIELDS);
  }

  all(): Promise<TelegramMenuRow[]> {
    return this.handle.db.selectFrom('telegram_menus').selectAll().orderBy('id').execute();
  }

  transaction<Result>(work: (executor: Executor) => Promise<Result>): Promise<Result> {
    return this.handle.db.transaction().execute(work);
  }

  findById(id: number, executor: Executor = this.handle.db): Promise<TelegramMenuRow | undefined> {
    return executor.selectFrom('telegram_menus').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByCommand(command: string): Promise<TelegramMenuRow | undefined> {
    return this.handle.db.selectFrom('telegram_menus').selectAll().where('command', '=', command).executeTakeFirst();
  }

  insert(fields: MenuFields, executor: Executor = this.handle.db): Promise<number> {
    return insertReturningId(this.handle, executor.insertInto('telegram_menus').values(fields));
  }

  /** False when there is no such menu. */
  async update(id: number, fields: MenuFields, executor: Executor = this.handle.db): Promise<boolean> {
    const result = await executor.updateTable('telegram_menus').set(fields).where('id', '=', id).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return true;
    // MySQL counts only changed rows: an update to identical values reports 0.
    return (await this.findById(id, executor)) !== undefined;
  }

  async delete(id: number, executor: Executor = this.handle.db): Promise<boolean> {
    const result = await executor.deleteFrom('telegram_menus').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
