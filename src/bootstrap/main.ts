import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import pino from 'pino';
import { JwtTokenService } from '../adapters/crypto/jwt-token-service';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher';
import { createApp } from '../adapters/http/app';
import { SystemClock } from '../adapters/time/system-clock';
import { ConfigError, loadConfig } from './config';
import { openStorage } from './database';
import { buildUseCases } from './wire';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel, base: { service: 'portcullis' } });

  let jwtSecret = config.jwtSecret;
  if (!jwtSecret) {
    jwtSecret = randomBytes(32).toString('hex');
    log.warn('JWT_SECRET is not set: using a random secret, so tokens will not survive a restart');
  }

  const { storage, location, appliedMigrations } = await openStorage(config);
  log.info({ appliedMigrations }, `storage: ${location}`);

  const useCases = await buildUseCases(storage, {
    hasher: new ScryptPasswordHasher(),
    tokens: new JwtTokenService(jwtSecret, config.jwtSecretPrevious),
    ids: new RandomUuidGenerator(),
    secrets: new NodeSecrets(),
    clock: new SystemClock(),
  }, { inviteTtlSeconds: config.inviteTtlSeconds });

  const app = createApp(useCases, { corsOrigin: config.corsOrigin, rateLimits: config.rateLimits }, (error) =>
    log.error({ err: error }, 'request failed'),
  );
  const server: Server = app.listen(config.port, config.host, () => {
    log.info(`listening on http://${config.host}:${config.port}`);
  });
  server.on('error', (error) => {
    log.fatal({ err: error }, 'server could not start');
    void storage.close().finally(() => process.exit(1));
  });

  const shutdown = (signal: string) => {
    log.info(`${signal}: shutting down`);
    server.close(() => void storage.close().finally(() => process.exit(0)));
    server.closeIdleConnections();
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
