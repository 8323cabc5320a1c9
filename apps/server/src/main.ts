import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { assembleServer } from './assemble.js';
import { runClusterPrimary } from './cluster.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';
import { StartupError } from './platform/startup-checks.js';

/** config → db → app → listen, and a graceful shutdown that lets requests in flight finish. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  // Before anything is created: a first start that cannot listen must not make a root user whose
  // password then scrolls past in the error output, never to be shown again. Workers share the
  // port their primary checked.
  const busy = cluster.isWorker ? undefined : await portProblem(config.port, config.host);
  if (busy) {
    process.stderr.write(`One Hub cannot start: ${busy}\n`);
    process.exit(1);
  }
  if (config.workers > 1 && cluster.isPrimary) {
    runClusterPrimary(config, {
      info: (text) => process.stdout.write(`${text}\n`),
      error: (text) => process.stderr.write(`One Hub: ${text}\n`),
    });
    return;
  }
  const logger = createLogger(config.logLevel, undefined, config.logFormat);
  const server = await assembleServer(config, logger, {
    consoleDirectory: fileURLToPath(new URL('../../web/dist', import.meta.url)),
    announce: (text) => process.stdout.write(text),
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // The relay's grace period, then time for the requests it cut to settle and the last flush.
    setTimeout(() => process.exit(1), config.shutdownGraceMs + 15_000).unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // A worker whose primary is gone (killed outright) would serve on, unsupervised.
  if (cluster.isWorker) process.on('disconnect', () => void shutdown('primary gone'));

  await server.app.listen({ port: config.port, host: config.host });
  const bound = server.app.server.address();
  const port = typeof bound === 'object' && bound ? bound.port : config.port;
  const redis = config.redisUrl ? `Redis at ${new URL(config.redisUrl).host}` : 'no Redis';
  const worker = config.workerIndex === undefined ? '' : `; worker ${config.workerIndex + 1} of ${config.workers}`;
  logger.info(
    `One Hub is listening on http://localhost:${port}${config.basePath} (database ${server.database.describe}; ${redis}${worker})`,
  );
}

/** Why `port` cannot be listened on (taken, not allowed), or undefined when it is free. */
function portProblem(port: number, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') resolve(`port ${port} is already in use (set PORT to another port)`);
      else if (error.code === 'EACCES') resolve(`port ${port} needs more privileges (set PORT above 1023)`);
      else resolve(`port ${port} on ${host}: ${error.message}`);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

main().catch((error: unknown) => {
  // What the operator must fix in the environment is one line; anything else is a bug, with its stack.
  const detail = error instanceof StartupError ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`One Hub cannot start: ${detail}\n`);
  process.exit(1);
});
