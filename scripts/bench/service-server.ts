/**
 * The service as main assembles it (assemble, src/bootstrap/assemble.ts) without REDIS_URL: the
 * production ScryptPasswordHasher (OWASP parameters), the in-memory login throttle, the request log
 * (info, one line per request) and the metrics, as production runs. Differences, all for the bench:
 * a fixed JWT secret, rate limits and the login-failure limit raised to 10^9 (a benchmark from one
 * address would otherwise measure 429s), port 0 on 127.0.0.1, log lines written to /dev/null
 * (asynchronously, as to stdout) rather than to the stdout the harness reads, and the embedded
 * database in memory (PGLITE_DIR=memory://) unless DATABASE_URL is set.
 *
 * Prints `READY <port>` once listening; event-loop delay and info over IPC (child-channel.ts).
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import pino from 'pino';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import { DEVELOPMENT_TENANT_WALL_KEY } from '../../src/adapters/persistence/kysely/driver/tenant-walls';
import { assemble } from '../../src/bootstrap/assemble';
import { loadConfig } from '../../src/bootstrap/config';
import { createLogger, LOG_OUTPUT } from '../../src/bootstrap/logger';
import { announceReady, describeLaunch, memoryBreakdown, serveBenchChannel } from './child-channel';
import { BENCH_JWT_SECRET } from './protocol';

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
    // Production refuses to start without it once a member has an authenticator app.
    MFA_ENCRYPTION_KEY: process.env['MFA_ENCRYPTION_KEY'] ?? '0e'.repeat(32),
    PGLITE_DIR: process.env['DATABASE_URL'] ? (process.env['PGLITE_DIR'] ?? 'memory://') : 'memory://',
    RATE_LIMIT_GLOBAL: RAISED,
    RATE_LIMIT_LOGIN: RAISED,
    RATE_LIMIT_SIGNUP: RAISED,
    RATE_LIMIT_INTROSPECT: RAISED,
    RATE_LIMIT_SCIM: RAISED,
    LOGIN_FAILURE_LIMIT: RAISED,
    LOGIN_FAILURE_ACCOUNT_LIMIT: RAISED,
    LOG_LEVEL: 'info',
  };
  delete env['REDIS_URL']; // counters in process, as on a single instance
  const config = loadConfig(env);

  const hasher = new SchemeRecordingHasher();
  let serverErrors = 0;
  const { logger } = createLogger(config, pino.destination({ dest: '/dev/null', ...LOG_OUTPUT }));
  const service = await assemble(config, {
    hasher,
    logger,
    onError: (error) => {
      serverErrors += 1;
      if (serverErrors <= 5) console.error('service-server: request failed:', error);
    },
  });

  const server = createServer(service.listener).listen(0, '127.0.0.1', () => announceReady(server));
  serveBenchChannel(
    server,
    () => ({
      location: service.storage.location, hashScheme: hasher.scheme, threadPoolSize: Number(process.env['UV_THREADPOOL_SIZE'] ?? 4),
      launch: describeLaunch(), serverErrors, memory: memoryBreakdown(),
    }),
    () => service.close(),
  );
}

main().catch((error: unknown) => {
  console.error('service-server failed to start:', error);
  process.exit(1);
});
