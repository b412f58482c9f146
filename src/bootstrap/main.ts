import 'reflect-metadata';
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createMetricsApp } from '../adapters/http/routes/metrics-app';
import { assemble } from './assemble';
import { Closeables } from './closeables';
import { type Config, ConfigError, loadConfig } from './config';
import { warnAboutServingLogin } from './database-login';
import { GracefulShutdown } from './graceful-shutdown';
import { describeListenFailure, StartRefused } from './start-refused';
import { EmbeddedDatabaseInUse } from '../adapters/persistence/kysely/driver/embedded-database-lock';
import { createHttpServer } from './http-server';
import { createLogger } from './logger';
import { redactRedisUrl } from './redis';
import { checkModules } from './modules/compose-modules';
import { INSTALLED_MODULES } from './modules/installed-modules';
import type { PortcullisModule } from './modules/portcullis-module';

/**
 * Starts the service: identity, then the product modules given (INSTALLED_MODULES for `npm start`;
 * an example's own entry point passes its module, as examples/notes/main.ts does).
 */
export async function main(modules: readonly PortcullisModule[] = INSTALLED_MODULES): Promise<void> {
  let config: Config;
  try {
    checkModules(modules);
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
  const { logger, flush } = createLogger(config);
  const exit = (code: number): void => {
    process.exitCode = code;
    void flush().then(() => process.exit(code));
  };
  const closeables = new Closeables(logger);
  try {
    await start(config, logger, closeables, exit, modules);
  } catch (error) {
    if (error instanceof StartRefused || error instanceof EmbeddedDatabaseInUse) logger.fatal(`could not start: ${error.message}`);
    else logger.fatal({ err: error }, 'could not start');
    await closeables.closeAll();
    exit(1);
  }
}

async function start(config: Config, logger: Logger, closeables: Closeables, exit: (code: number) => void, modules: readonly PortcullisModule[]): Promise<void> {
  const server = createHttpServer(config.http);
  const shutdown = new GracefulShutdown(server, closeables, config.shutdown, logger, exit);
  const service = await assemble(config, { modules, logger, closeables, isShuttingDown: () => shutdown.isShuttingDown });
  logger.info(config.redisUrl
    ? `rate limits and login throttle: redis ${redactRedisUrl(config.redisUrl)}`
    : 'rate limits and login throttle: in process (set REDIS_URL when running more than one instance)');
  logger.info({ appliedMigrations: service.storage.appliedMigrations }, `storage: ${service.storage.location}`);
  warnAboutServingLogin(config.nodeEnv, service.storage.loginRisks, logger);
  server.on('request', service.listener);
  service.mailWorker?.start();

  if (service.metrics && config.metrics.port !== undefined) {
    const metricsServer = createHttpServer(config.http);
    metricsServer.on('request', createMetricsApp(service.metrics.registry));
    await listen(metricsServer, config.metrics.port, config.host).catch((error: unknown) => {
      throw describeListenFailure(error, 'metrics', config.metrics.port!, config.host, 'METRICS_PORT',
        ' for each process on the host (docs/operations.md, "Several processes on one host")');
    });
    closeables.add('metrics server', () => closeServer(metricsServer));
    logger.info({ port: config.metrics.port }, `metrics on http://${config.host}:${config.metrics.port}/metrics`);
  }

  await listen(server, config.port, config.host).catch((error: unknown) => {
    throw describeListenFailure(error, 'service', config.port, config.host, 'PORT', ' for each process on the host');
  });
  shutdown.listen();
  logger.info({ port: config.port, host: config.host }, `listening on http://${config.host}:${config.port}`);
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** For a server whose requests are short (the metrics scrape): stop accepting and drop its connections. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}

// Run as the entry point (`npm start`); imported, by an example's entry point, it waits to be called.
if (require.main === module) void main();
