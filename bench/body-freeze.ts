import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile } from './measure.js';
import { startChild } from './processes.js';

/**
 * Does an unauthenticated body freeze the server? A probe, not a test: while clients with no key
 * send 8 MB bodies of nested `[` to the relay and to a guarded /api route, it measures how long
 * `GET /api/status` takes, and prints it next to the same measure on an idle server. Loopback
 * only, a bounded number of requests and seconds.
 *
 *   node --import tsx bench/body-freeze.ts
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const ATTACKERS = Number(process.env.FREEZE_CLIENTS ?? 8);
const SECONDS = Number(process.env.FREEZE_SECONDS ?? 5);
const BODY = Buffer.from('['.repeat(8 * 1024 * 1024));
const TARGETS = ['/v1/chat/completions', '/claude/v1/messages', '/api/user/topup'];

const port = 30_000 + Math.floor(Math.random() * 20_000);
const server = await startChild(
  process.execPath,
  ['--import', 'tsx', join(root, 'apps/server/src/main.ts')],
  {
    PORT: String(port),
    HOST: '127.0.0.1',
    SQLITE_PATH: join(mkdtempSync(join(tmpdir(), 'one-hub-freeze-')), 'one-hub.db'),
    LOG_LEVEL: 'warn',
  },
  `http://127.0.0.1:${port}`,
);

/** One request with no key and the whole 8 MB body; resolves with the status (0: cut). */
function attack(path: string): Promise<number> {
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': BODY.length },
      },
      (incoming) => {
        incoming.resume();
        incoming.on('end', () => resolve(incoming.statusCode ?? 0));
        incoming.on('error', () => resolve(incoming.statusCode ?? 0));
      },
    );
    outgoing.on('error', () => resolve(0));
    outgoing.end(BODY);
  });
}

async function statusLatencies(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!until() && times.length < 10_000) {
    const started = performance.now();
    await fetch(`http://127.0.0.1:${port}/api/status`).then((response) => response.arrayBuffer());
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return times;
}

const summary = (times: number[]) => {
  const sorted = [...times].sort((left, right) => left - right);
  const at = (fraction: number) => percentile(sorted, fraction).toFixed(2);
  return `${times.length} requests, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${(sorted.at(-1) ?? 0).toFixed(2)} ms`;
};

try {
  const idleUntil = Date.now() + 1000;
  const idle = await statusLatencies(() => Date.now() > idleUntil);

  const deadline = Date.now() + SECONDS * 1000;
  const statuses = new Map<number, number>();
  const attackers = Array.from({ length: ATTACKERS }, async (_, index) => {
    for (let round = 0; Date.now() < deadline && round < 1000; round++) {
      const status = await attack(TARGETS[(index + round) % TARGETS.length] as string);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  const underLoad = await statusLatencies(() => Date.now() > deadline);
  await Promise.all(attackers);

  console.log(`GET /api/status, idle:                              ${summary(idle)}`);
  console.log(`GET /api/status, ${ATTACKERS} clients sending 8 MB with no key: ${summary(underLoad)}`);
  const answers = [...statuses].map(([status, count]) => `${status || 'cut'} × ${count}`).join(', ');
  console.log(`answers to the 8 MB requests: ${answers}`);
} finally {
  await server.stop();
}
