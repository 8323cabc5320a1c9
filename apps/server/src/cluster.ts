import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config.js';
import { answerWorkerScrapes } from './metrics/cluster.js';

/**
 * WORKERS > 1: this process only supervises; its workers each run the whole server on the same
 * port (Node's cluster hands them the connections in turn) and share balances, limits, caches and
 * settings through Redis, as separate nodes do. The first worker starts alone: it migrates the
 * database and creates the root user, so the others find both ready. Only the first worker can be
 * the master node (config.ts), so scheduled jobs run once.
 */

/** A worker that keeps dying is a broken installation, not bad luck: stop rather than loop. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

export interface ClusterOutput {
  info(text: string): void;
  error(text: string): void;
}

export function runClusterPrimary(config: Config, output: ClusterOutput): void {
  answerWorkerScrapes();
  const slots = new Map<number, Worker>();
  const restarts: number[] = [];
  let stopping = false;
  let exitCode = 0;
  /** Until the first worker listens, its failure (configuration, database, port) ends the whole start. */
  let ready = false;

  const start = (index: number): Worker => {
    const worker = cluster.fork({ ONE_HUB_WORKER_INDEX: String(index) });
    slots.set(index, worker);
    worker.once('exit', (code, signal) => {
      if (slots.get(index) === worker) slots.delete(index);
      if (stopping) {
        if (slots.size === 0) process.exit(exitCode);
        return;
      }
      if (!ready) {
        // The worker said why on the shared standard error.
        process.exit(code || 1);
      }
      const now = Date.now();
      restarts.push(now);
      while ((restarts[0] ?? now) < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length > MAX_RESTARTS) {
        output.error(`worker ${index} keeps stopping (${restarts.length} times in a minute); One Hub stops`);
        stop(1);
        return;
      }
      output.error(`worker ${index} stopped (${signal ?? `exit code ${code}`}); starting another`);
      start(index);
    });
    return worker;
  };

  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    if (slots.size === 0) process.exit(exitCode);
    // Each worker drains its requests in flight (SHUTDOWN_GRACE_SECONDS) and flushes its batches.
    for (const worker of slots.values()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of slots.values()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownGraceMs + 20_000).unref();
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));

  const first = start(0);
  first.once('listening', () => {
    ready = true;
    for (let index = 1; index < config.workers; index++) start(index);
    output.info(`One Hub runs ${config.workers} worker processes (primary process ${process.pid})`);
  });
}
