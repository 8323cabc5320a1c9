import type { AnyDb } from './helpers.js';

/**
 * What a task's submission counted on each budget window (issue 33), as JSON: a task that later
 * fails gives it back, from whichever node or process runs the refund. Null for tasks charged
 * before this column, and for those no window counted (imported rows too).
 */
export async function up(db: AnyDb): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) {
    await db.schema.alterTable(table).addColumn('budget_use', 'text').execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['midjourneys', 'tasks']) {
    await db.schema.alterTable(table).dropColumn('budget_use').execute();
  }
}
