import { describeByCommand } from '../apps/server/test/redis-commands.js';
import { describeStorage } from './log-storage.js';
import type { ChecksResult } from './nodes-checks.js';
import { CONNECTIONS, type PhaseResult } from './nodes-load.js';

const fixed = (value: number, digits = 1) => value.toFixed(digits);

/** The markdown bench:nodes prints, to paste into BENCHMARKS.md. */
export function nodesReport(
  phases: PhaseResult[],
  checks: ChecksResult,
  storage: { rows: number; bytes: number },
  seconds: number,
): string {
  const rows = phases.map((phase) => {
    const perNode = phase.rpsPerNode.map((rps) => fixed(rps, 0)).join(' / ');
    const database = phase.database;
    const writesPerSecond = (database.inserted + database.updated + database.deleted) * phase.rps;
    return `| ${phase.nodes} | ${fixed(phase.rps, 0)} | ${perNode} | ${fixed(phase.cpuMicrosPerRequest, 0)} µs | ${fixed(phase.redisCpuMicrosPerRequest, 0)} µs | ${fixed(phase.databaseCpuMicrosPerRequest, 0)} µs | ${fixed(phase.redis.total)} | ${fixed(database.commits, 2)} | ${fixed(database.inserted, 2)} / ${fixed(database.updated, 2)} / ${fixed(database.deleted, 2)} | ${fixed(writesPerSecond, 0)} | ${phase.errors} |`;
  });
  const byCommand = phases.map(
    (phase) => `| ${phase.nodes} | ${fixed(phase.idleRedisPerSecond)} | ${describeByCommand(phase.redis)} |`,
  );
  const { money, disabled } = checks;
  const statuses = [...money.statuses].map(([status, count]) => `${count}× ${status}`).join(', ');
  const refused = disabled.refusedAfterMs
    .map((ms, index) => `node ${index + 1}: ${ms === null ? 'still served' : `${fixed(ms, 0)} ms`}`)
    .join(', ');
  return [
    `${CONNECTIONS} connections spread evenly over the nodes, ${seconds} s per node count, non-stream chats with an unlimited key.`,
    '',
    '| Nodes | Requests/s | Per node | CPU per request: nodes | Redis | PostgreSQL | Redis commands per request | DB commits per request | DB rows inserted / updated / deleted per request | DB row writes/s | Errors |',
    '|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...rows,
    '',
    '| Nodes | Idle Redis commands/s (subtracted) | Redis commands per request, by command |',
    '|---:|---:|---|',
    ...byCommand,
    '',
    `Money check (${disabled.refusedAfterMs.length} nodes, a user with ${money.start} spent on all at once until each node refused it): ${statuses}; balance ${money.balance} + logged charges ${money.charged} = ${money.balance + money.charged} of ${money.start}: **${money.pass ? 'PASS' : 'FAIL'}**.`,
    '',
    `Disabled key (disabled through node 1's admin API, each node asked until it answered 401, for at most 1 s): ${refused}: **${disabled.pass ? 'PASS' : 'FAIL'}**.`,
    '',
    `Log storage (\`logs\` with its indexes, pg_total_relation_size): ${describeStorage(storage)}.`,
  ].join('\n');
}
