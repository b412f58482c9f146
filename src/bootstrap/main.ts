import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { LoginThrottle } from '../application/ports/login-throttle';
import { BatchedApiKeyUsage } from '../adapters/cache/batched-api-key-usage';
import { JwtTokenService } from '../adapters/crypto/jwt-token-service';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher';
import { createApp } from '../adapters/http/app';
import { createMetricsApp } from '../adapters/http/routes/metrics-app';
import { MemoryLoginThrottle } from '../adapters/rate-limit/memory-login-throttle';
import { RedisLoginThrottle } from '../adapters/rate-limit/redis-login-throttle';
import { redisRateLimitStores } from '../adapters/rate-limit/redis-rate-limit-store';
import { SystemClock } from '../adapters/time/system-clock';
import { openCredentialFeed } from './change-feed';
import { Closeables } from './closeables';
import { type Config, ConfigError, loadConfig } from './config';
import { openStorage } from './database';
import { warnAboutServingLogin } from './database-login';
import { GracefulShutdown } from './graceful-shutdown';
import { createHttpServer } from './http-server';
import { createLogger } from './logger';
import { createMetrics } from './metrics';
import { readinessProbe } from './readiness';
import { closeRedis, openRedis, redactRedisUrl } from './redis';
import { buildUseCases } from './wire';
import { AuditTrail } from '../application/audit/audit-trail';
import { checkModules, composeModules, moduleMigrationsOf } from './modules/compose-modules';
import { INSTALLED_MODULES } from './modules/installed-modules';
import type { PortcullisModule } from './modules/portcullis-module';

/** A readiness check that takes longer than this counts as failed. */
const READINESS_TIMEOUT_MS = 2_000;

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
    logger.fatal({ err: error }, 'could not start');
    await closeables.closeAll();
    exit(1);
  }
}

async function start(config: Config, logger: Logger, closeables: Closeables, exit: (code: number) => void, modules: readonly PortcullisModule[]): Promise<void> {
  let jwtSecret = config.jwtSecret;
  if (!jwtSecret) {
    jwtSecret = randomBytes(32).toString('hex');
    logger.warn('JWT_SECRET is not set: using a random secret, so tokens will not survive a restart');
  }

  // Opened first: if it is unreachable, nothing else has been opened yet.
  const redis = config.redisUrl
    ? await openRedis(config.redisUrl, (error) => logger.error({ err: error }, 'redis'))
    : undefined;
  if (redis) {
    closeables.add('redis', () => closeRedis(redis));
    logger.info(`rate limits and login throttle: redis ${redactRedisUrl(config.redisUrl!)}`);
  } else {
    logger.info('rate limits and login throttle: in process (set REDIS_URL when running more than one instance)');
  }

  const opened = await openStorage(config, (error) => logger.warn({ err: error }, 'postgres: idle connection lost'), moduleMigrationsOf(modules));
  closeables.add('database', () => opened.storage.close());
  logger.info({ appliedMigrations: opened.appliedMigrations }, `storage: ${opened.location}`);
  warnAboutServingLogin(config.nodeEnv, opened.loginRisks, logger);

  // Every instance follows the change log (the database's triggers, LISTEN), so caches and verifiers stay current.
  const feed = await openCredentialFeed(
    opened.listenForChanges, opened.storage, (error) => logger.error({ err: error }, 'credential changes'), undefined, config.credentialCache,
  );
  closeables.add('credential listener', () => feed.close());

  const clock = new SystemClock();
  const ids = new RandomUuidGenerator();
  // Closed before the database (closeables close in reverse): the uses gathered are written first.
  const keyUsage = new BatchedApiKeyUsage(opened.storage.repos.apiKeys, clock, (error) => logger.error({ err: error }, 'api key usage'), config.apiKeyUsage);
  closeables.add('api key usage', () => keyUsage.close());
  const loginThrottle: LoginThrottle = redis
    ? new RedisLoginThrottle(redis, { keyPrefix: config.redisKeyPrefix, ...config.loginFailures })
    : new MemoryLoginThrottle(config.loginFailures, clock);

  const useCases = await buildUseCases(opened.storage, {
    hasher: new ScryptPasswordHasher(),
    tokens: new JwtTokenService(jwtSecret, config.jwtSecretPrevious),
    ids,
    secrets: new NodeSecrets(),
    clock,
    loginThrottle,
    credentials: feed.credentials,
    keyUsage,
    credentialChanges: feed.changes,
    changePositions: feed.positions,
    serviceKeys: opened.serviceKeys,
  }, {
    inviteTtlSeconds: config.inviteTtlSeconds,
    inviteRequireEmailMatch: config.inviteRequireEmailMatch,
    moduleAuditActions: modules.flatMap((module) => module.auditActions ?? []),
  });

  const composed = await composeModules(modules, { store: opened.moduleStore, clock, ids, trail: new AuditTrail({ ids, clock }) });

  const server = createHttpServer(config.http);
  const shutdown = new GracefulShutdown(server, closeables, config.shutdown, logger, exit);
  const metrics = config.metrics.enabled ? createMetrics(opened.poolStats) : undefined;

  const app = createApp(useCases, {
    corsOrigin: config.corsOrigin,
    rateLimits: config.rateLimits,
    trustProxy: config.trustProxy === false ? undefined : config.trustProxy,
    rateLimitStore: redis ? redisRateLimitStores(redis, config.redisKeyPrefix) : undefined,
  }, {
    logger,
    metrics,
    serveMetrics: config.metrics.port === undefined,
    readiness: readinessProbe({
      isShuttingDown: () => shutdown.isShuttingDown,
      pendingMigrations: opened.pendingMigrations,
      pingRedis: redis ? () => redis.ping() : undefined,
      timeoutMs: READINESS_TIMEOUT_MS,
    }),
    modules: composed.http,
    apiReferenceJson: composed.apiReferenceJson,
    changeStreamLimits: config.changeStreams,
  });
  server.on('request', app);

  if (metrics && config.metrics.port !== undefined) {
    const metricsServer = createHttpServer(config.http);
    metricsServer.on('request', createMetricsApp(metrics.registry));
    await listen(metricsServer, config.metrics.port, config.host);
    closeables.add('metrics server', () => closeServer(metricsServer));
    logger.info({ port: config.metrics.port }, `metrics on http://${config.host}:${config.metrics.port}/metrics`);
  }

  await listen(server, config.port, config.host);
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
