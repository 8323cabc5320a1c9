import { fileURLToPath } from 'node:url';
import { assembleServer } from './assemble.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';

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
  const logger = createLogger(config.logLevel);
  const server = await assembleServer(config, logger, {
    consoleDirectory: fileURLToPath(new URL('../../web/dist', import.meta.url)),
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

  await server.app.listen({ port: config.port, host: config.host });
  logger.info(`One Hub is listening on http://localhost:${config.port}${config.basePath}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`One Hub failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
