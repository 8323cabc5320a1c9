import type { Paged, TelegramMenuBody, TelegramMenuListQuery, TelegramMenuView } from '@one-hub/contracts';
import { isUniqueViolation } from '../../platform/db/index.js';
import { AppError } from '../../platform/errors.js';
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
      if (id === 0) return toMenuView({ id: await this.repo.insert(fields), ...fields });
      if (!(await this.repo.update(id, fields))) throw AppError.notFound(`id: no Telegram menu ${id}`);
      return toMenuView({ id, ...fields });
    } catch (error) {
      // Two saves of the same command at once: the unique index decides.
      if (isUniqueViolation(error)) throw commandTaken(fields.command);
      throw error;
    }
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repo.delete(id))) throw AppError.notFound(`id: no Telegram menu ${id}`);
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
