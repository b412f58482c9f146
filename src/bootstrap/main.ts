import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { Redis } from 'ioredis';
import pino from 'pino';
import type { LoginThrottle } from '../application/ports/login-throttle';
import { JwtTokenService } from '../adapters/crypto/jwt-token-service';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher';
import { createApp } from '../adapters/http/app';
import { MemoryLoginThrottle } from '../adapters/rate-limit/memory-login-throttle';
import { RedisLoginThrottle } from '../adapters/rate-limit/redis-login-throttle';
import { redisRateLimitStores } from '../adapters/rate-limit/redis-rate-limit-store';
import { SystemClock } from '../adapters/time/system-clock';
import { openCredentialFeed } from './change-feed';
import { ConfigError, loadConfig } from './config';
import { openStorage } from './database';
import { closeRedis, openRedis, REDIS_KEY_PREFIX, redactRedisUrl } from './redis';
import { buildUseCases } from './wire';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, base: { service: 'portcullis' } });

  let jwtSecret = config.jwtSecret;
  if (!jwtSecret) {
    jwtSecret = randomBytes(32).toString('hex');
    log.warn('JWT_SECRET is not set: using a random secret, so tokens will not survive a restart');
  }

  // Opened first: if it is unreachable, nothing else has been opened yet.
  let redis: Redis | undefined;
  if (config.redisUrl) {
    redis = await openRedis(config.redisUrl, (error) => log.error({ err: error }, 'redis'));
    log.info(`rate limits and login throttle: redis ${redactRedisUrl(config.redisUrl)}`);
  } else {
    log.info('rate limits and login throttle: in process (set REDIS_URL when running more than one instance)');
  }

  const { storage, location, appliedMigrations } = await openStorage(config);
  log.info({ appliedMigrations }, `storage: ${location}`);

  const feed = await openCredentialFeed(config.databaseUrl, storage, (error) => log.error({ err: error }, 'credential changes'));
  const clock = new SystemClock();
  const loginThrottle: LoginThrottle = redis
    ? new RedisLoginThrottle(redis, { keyPrefix: REDIS_KEY_PREFIX, ...config.loginFailures })
    : new MemoryLoginThrottle(config.loginFailures, clock);

  const useCases = await buildUseCases(storage, {
    hasher: new ScryptPasswordHasher(),
    tokens: new JwtTokenService(jwtSecret, config.jwtSecretPrevious),
    ids: new RandomUuidGenerator(),
    secrets: new NodeSecrets(),
    clock,
    loginThrottle,
    credentials: feed.credentials,
    onBackgroundError: (error) => log.error({ err: error }, 'api key usage'),
  }, { inviteTtlSeconds: config.inviteTtlSeconds });

  const app = createApp(useCases, {
    corsOrigin: config.corsOrigin,
    rateLimits: config.rateLimits,
    trustProxy: config.trustProxy === false ? undefined : config.trustProxy,
    rateLimitStore: redis ? redisRateLimitStores(redis, REDIS_KEY_PREFIX) : undefined,
  }, (error) => log.error({ err: error }, 'request failed'));

  const closeAll = async (): Promise<void> => {
    await Promise.allSettled([feed.close(), storage.close(), redis ? closeRedis(redis) : Promise.resolve()]);
  };

  const server: Server = app.listen(config.port, config.host, () => {
    log.info(`listening on http://${config.host}:${config.port}`);
  });
  server.on('error', (error) => {
    log.fatal({ err: error }, 'server could not start');
    void closeAll().finally(() => process.exit(1));
  });

  const shutdown = (signal: string) => {
    log.info(`${signal}: shutting down`);
    server.close(() => void closeAll().finally(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
