import type { Paged, TelegramMenuBody, TelegramMenuListQuery, TelegramMenuView } from '@one-hub/contracts';
import { isUniqueViolation } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
import { type RowAudit, recordRowChange } from '../audit/row-change.js';
import type { TelegramMenuRepository, TelegramMenuRow } from './repo.js';

/** Rules of the custom menus: unique commands (built-ins are refused by the body schema). */
export class TelegramMenuService {
  constructor(private readonly repo: TelegramMenuRepository) {}

  async list(query: TelegramMenuListQuery): Promise<Paged<TelegramMenuView>> {
    const page = await this.repo.list(query.keyword, query);
    return { ...page, data: page.data.map(toMenuView) };
  }

  async get(id: number): Promise<TelegramMenuView> {
    return toMenuView(await this.require(id));
  }

  /** Creates the menu when `id` is 0 or absent, else updates that menu. */
  async save(body: TelegramMenuBody): Promise<TelegramMenuView> {
    const { id = 0, ...fields } = body;
    const taken = await this.repo.findByCommand(fields.command);
    if (taken && Number(taken.id) !== id) throw commandTaken(fields.command);
    try {
      return await this.repo.transaction(async (transaction) => {
        if (id === 0) {
          const created = toMenuView({ id: await this.repo.insert(fields, transaction), ...fields });
          await recordRowChange(transaction, MENU_AUDIT, 'create', undefined, created);
          return created;
        }
        const before = await this.repo.findById(id, transaction);
        if (!before || !(await this.repo.update(id, fields, transaction))) {
          throw AppError.notFound(`id: no Telegram menu ${id}`);
        }
        const updated = toMenuView({ id, ...fields });
        await recordRowChange(transaction, MENU_AUDIT, 'update', toMenuView(before), updated);
        return updated;
      });
    } catch (error) {
      // Two saves of the same command at once: the unique index decides.
      if (isUniqueViolation(error)) throw commandTaken(fields.command);
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    await this.repo.transaction(async (transaction) => {
      const before = await this.repo.findById(id, transaction);
      if (!before || !(await this.repo.delete(id, transaction))) throw AppError.notFound(`id: no Telegram menu ${id}`);
      await recordRowChange(transaction, MENU_AUDIT, 'delete', toMenuView(before), undefined);
    });
  }

  private async require(id: number): Promise<TelegramMenuRow> {
    const row = await this.repo.findById(id);
    if (!row) throw AppError.notFound(`id: no Telegram menu ${id}`);
    return row;
  }
}

function commandTaken(command: string): AppError {
  return AppError.conflict(`/${command} is already taken`, 'command');
}

export function toMenuView(row: TelegramMenuRow): TelegramMenuView {
  return {
    id: Number(row.id),
    command: row.command,
    description: row.description,
    parse_mode: row.parse_mode,
    reply_message: row.reply_message,
  };
}

/** A menu's audit rows: its id as the target, its command as the name. */
const MENU_AUDIT: RowAudit<TelegramMenuView> = {
  resource: 'telegram',
  target: (menu) => ({ id: menu.id, name: `/${menu.command}` }),
  options: { ignore: ['id'] },
};
