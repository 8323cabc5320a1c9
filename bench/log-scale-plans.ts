// Which indexes of `logs` the console's queries use (bench/log-scale.ts, after the timings): each
// query the services run is recorded, then explained by the database with the same parameters,
// and the index names found in its plan are counted. An index no query's plan names at 10M rows
// serves none of the Logs screen, dashboard or analytics queries on that database.
import { CompiledQuery, type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import type { DatabaseHandle } from '../apps/server/src/platform/db/index.js';
import { consoleQueries } from './log-scale-queries.js';

async function logIndexNames(handle: DatabaseHandle): Promise<string[]> {
  const catalog = {
    sqlite: sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'logs'`,
    postgres: sql<{ name: string }>`select indexname as name from pg_indexes
      where tablename = 'logs' and schemaname = current_schema()`,
    mysql: sql<{ name: string }>`select distinct index_name as name from information_schema.statistics
      where table_schema = database() and table_name = 'logs'`,
  }[handle.dialect];
  const { rows } = await catalog.execute(handle.db);
  return rows.map((row) => row.name).sort();
}

/** How many of the console's queries name each index of `logs` in a plan; 0 for the unused ones. */
export async function logIndexUse(handle: DatabaseHandle, now: number): Promise<Map<string, string[]>> {
  const recorded: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      recorded.push(args.node);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  const use = new Map<string, string[]>((await logIndexNames(handle)).map((name) => [name, []]));
  const explain = handle.dialect === 'sqlite' ? 'explain query plan' : 'explain';
  for (const [name, run] of consoleQueries({ ...handle, db: handle.db.withPlugin(plugin) }, now)) {
    recorded.length = 0;
    await run();
    for (const node of recorded) {
      const compiled = handle.db.getExecutor().compileQuery(node, { queryId: 'plan' });
      const plan = await handle.db.executeQuery(
        CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]),
      );
      // MySQL's plan lists the candidates too (possible_keys): only `key`, the one chosen, counts.
      const rows = handle.dialect === 'mysql' ? plan.rows.map((row) => (row as { key: unknown }).key) : plan.rows;
      const text = JSON.stringify(rows);
      for (const [index, users] of use) {
        if (new RegExp(`\\b${index}\\b`).test(text) && !users.includes(name)) users.push(name);
      }
    }
  }
  return use;
}
