import { type Child, startOneHub } from './processes.js';

/**
 * N One Hub processes as a multi-node deploy runs them (docs/configuration.md, "Several nodes and
 * Redis"): one database (`SQL_DSN`), one Redis (`REDIS_CONN_STRING`) and one `SESSION_SECRET`,
 * each node on its own port and data folder (its crash journal), only the first `NODE_TYPE=master`.
 */
export const NODE_SESSION_SECRET = 'bench-nodes-session-secret-0123456789';

export async function startNodes(
  root: string,
  count: number,
  shared: { databaseUrl: string; redisUrl: string },
): Promise<Child[]> {
  const environment = (index: number) => ({
    SQL_DSN: shared.databaseUrl,
    REDIS_CONN_STRING: shared.redisUrl,
    SESSION_SECRET: NODE_SESSION_SECRET,
    NODE_TYPE: index === 0 ? 'master' : 'slave',
  });
  // The first node alone: on a fresh database it runs the migrations the others then find done.
  const first = await startOneHub(root, environment(0));
  const others = await Promise.allSettled(
    Array.from({ length: count - 1 }, (_, index) => startOneHub(root, environment(index + 1))),
  );
  const started = [first, ...others.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))];
  if (started.length < count) {
    await stopNodes(started);
    throw new Error(`only ${started.length} of ${count} nodes started`);
  }
  return started;
}

export async function stopNodes(nodes: Child[]): Promise<void> {
  await Promise.all(nodes.map((node) => node.stop()));
}
