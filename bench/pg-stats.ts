import pg from 'pg';
import { cpuMicrosOf } from './processes.js';

/**
 * What PostgreSQL counted for one database (`pg_stat_database`): committed transactions and rows
 * inserted, updated and deleted. A backend reports its counts when it goes idle, but at most once a
 * second, and otherwise after `STATS_DELAY_MS`: read a window's end only that long after its work.
 */
export interface WriteCounts {
  commits: number;
  inserted: number;
  updated: number;
  deleted: number;
}

/** PostgreSQL 15's PGSTAT_IDLE_INTERVAL (10 s) and a second's margin. */
export const STATS_DELAY_MS = 11_000;

export async function writeCounts(databaseUrl: string): Promise<WriteCounts> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query(
      `select xact_commit, tup_inserted, tup_updated, tup_deleted
         from pg_stat_database where datname = current_database()`,
    );
    const row = result.rows[0] as Record<string, string>;
    return {
      commits: Number(row.xact_commit),
      inserted: Number(row.tup_inserted),
      updated: Number(row.tup_updated),
      deleted: Number(row.tup_deleted),
    };
  } finally {
    await client.end();
  }
}

export function countsBetween(before: WriteCounts, after: WriteCounts): WriteCounts {
  return {
    commits: after.commits - before.commits,
    inserted: after.inserted - before.inserted,
    updated: after.updated - before.updated,
    deleted: after.deleted - before.deleted,
  };
}

/** `run` less `idle` scaled from `idleSeconds` to `runSeconds`, divided by `requests`. */
export function countsPerRequest(
  run: WriteCounts,
  runSeconds: number,
  idle: WriteCounts,
  idleSeconds: number,
  requests: number,
): WriteCounts {
  const scale = runSeconds / idleSeconds;
  const per = (key: keyof WriteCounts) => (run[key] - idle[key] * scale) / Math.max(requests, 1);
  return { commits: per('commits'), inserted: per('inserted'), updated: per('updated'), deleted: per('deleted') };
}

/**
 * CPU time of this database's server processes (the backends `pg_stat_activity` lists for it), by
 * process id. PostgreSQL on this machine only: read from /proc.
 */
export async function backendCpu(databaseUrl: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query('select pid from pg_stat_activity where datname = current_database()');
    const cpu = new Map<number, number>();
    for (const row of result.rows as Array<{ pid: number }>) {
      try {
        cpu.set(row.pid, cpuMicrosOf(row.pid));
      } catch {
        // ended since, or not on this machine
      }
    }
    return cpu;
  } finally {
    await client.end();
  }
}

/** CPU the backends used between two readings (a backend that started in between counts from 0). */
export function backendCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0);
  return total;
}
