/**
 * The service as main builds it (src/bootstrap/main.ts) without REDIS_URL: openStorage,
 * buildUseCases with the production ScryptPasswordHasher (OWASP parameters), JwtTokenService, the
 * in-memory login throttle, createApp with the request log (info, one line per request) and the
 * metrics, as production runs. Differences, all for the bench: a fixed JWT secret, rate limits and
 * the login-failure limit raised to 10^9 (a benchmark from one address would otherwise measure 429s),
 * port 0 on 127.0.0.1, log lines written to /dev/null (asynchronously, as to stdout) rather than to
 * the stdout the harness reads, and the embedded database in memory (PGLITE_DIR=memory://) unless
 * DATABASE_URL is set.
 *
 * Prints `READY <port>` once listening; event-loop delay and info over IPC (child-channel.ts).
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import { BatchedApiKeyUsage } from '../../src/adapters/cache/batched-api-key-usage';
import { JwtTokenService } from '../../src/adapters/crypto/jwt-token-service';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import { createApp } from '../../src/adapters/http/app';
import { MemoryLoginThrottle } from '../../src/adapters/rate-limit/memory-login-throttle';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { openCredentialFeed } from '../../src/bootstrap/change-feed';
import { loadConfig } from '../../src/bootstrap/config';
import { createLogger } from '../../src/bootstrap/logger';
import { createMetrics } from '../../src/bootstrap/metrics';
import pino from 'pino';
import { openStorage } from '../../src/bootstrap/database';
import { buildUseCases } from '../../src/bootstrap/wire';
import { announceReady, describeLaunch, memoryBreakdown, serveBenchChannel } from './child-channel';
import { BENCH_JWT_SECRET } from './protocol';
import { DEVELOPMENT_TENANT_WALL_KEY } from '../../src/adapters/persistence/kysely/driver/tenant-walls';

/**
 * The production hasher (its defaults: OWASP parameters), noting the header of the hashes it makes
 * (`scrypt$N$r$p`) so the report shows what logins really run at. It hashes nothing of its own: an
 * extra scrypt at start would leave another 16 MiB buffer in a malloc arena and inflate the RSS.
 */
class SchemeRecordingHasher extends ScryptPasswordHasher {
  scheme = 'unknown (no hash made yet)';

  override async hash(password: string): Promise<string> {
    const stored = await super.hash(password);
    this.scheme = stored.split('$').slice(0, 4).join('$');
    return stored;
  }
}

const RAISED = String(1_000_000_000);

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    JWT_SECRET: BENCH_JWT_SECRET,
    // Production wants a key of its own; a database the tests migrated has the development key.
    TENANT_WALL_KEY: process.env['TENANT_WALL_KEY'] ?? DEVELOPMENT_TENANT_WALL_KEY,
    PGLITE_DIR: process.env['DATABASE_URL'] ? (process.env['PGLITE_DIR'] ?? 'memory://') : 'memory://',
    RATE_LIMIT_GLOBAL: RAISED,
    RATE_LIMIT_LOGIN: RAISED,
    RATE_LIMIT_SIGNUP: RAISED,
    RATE_LIMIT_INTROSPECT: RAISED,
    LOGIN_FAILURE_LIMIT: RAISED,
    LOGIN_FAILURE_ACCOUNT_LIMIT: RAISED,
    LOG_LEVEL: 'info',
  };
  delete env['REDIS_URL']; // counters in process, as on a single instance
  const config = loadConfig(env);

  const { storage, location, poolStats, listenForChanges, serviceKeys } = await openStorage(config);
  // As main: the credential cache is kept current by its change listener.
  const feed = await openCredentialFeed(
    listenForChanges, storage, (error) => console.error('service-server: credential changes:', error), undefined, config.credentialCache,
  );
  const hasher = new SchemeRecordingHasher();
  const clock = new SystemClock();
  const keyUsage = new BatchedApiKeyUsage(storage.repos.apiKeys, clock, (error) => console.error('service-server: api key usage:', error), config.apiKeyUsage);
  const useCases = await buildUseCases(storage, {
    hasher,
    tokens: new JwtTokenService(BENCH_JWT_SECRET),
    ids: new RandomUuidGenerator(),
    secrets: new NodeSecrets(),
    clock,
    loginThrottle: new MemoryLoginThrottle(config.loginFailures, clock), // main's choice without REDIS_URL
    credentials: feed.credentials,
    keyUsage,
    credentialChanges: feed.changes,
    changePositions: feed.positions,
    serviceKeys,
  }, { inviteTtlSeconds: config.inviteTtlSeconds });

  let serverErrors = 0;
  const { logger } = createLogger(config, pino.destination({ dest: '/dev/null', sync: false }));
  const app = createApp(useCases, { corsOrigin: config.corsOrigin, rateLimits: config.rateLimits }, {
    logger,
    metrics: config.metrics.enabled ? createMetrics(poolStats) : undefined,
    changeStreamLimits: config.changeStreams,
    onError: (error) => {
      serverErrors += 1;
      if (serverErrors <= 5) console.error('service-server: request failed:', error);
    },
  });

  const server = createServer(app).listen(0, '127.0.0.1', () => announceReady(server));
  serveBenchChannel(
    server,
    () => ({ location, hashScheme: hasher.scheme, threadPoolSize: Number(process.env['UV_THREADPOOL_SIZE'] ?? 4), launch: describeLaunch(), serverErrors, memory: memoryBreakdown() }),
    async () => {
      await keyUsage.close();
      await feed.close();
      await storage.close();
    },
  );
}

main().catch((error: unknown) => {
  console.error('service-server failed to start:', error);
  process.exit(1);
});
