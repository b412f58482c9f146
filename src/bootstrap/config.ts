import { bool, cleanEnv, makeValidator, port, str, url } from 'envalid';
import proxyAddr from 'proxy-addr';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Postgres through pg when set; otherwise the embedded database in pgliteDir. */
  readonly databaseUrl: string | undefined;
  readonly pgliteDir: string;
  /** Undefined only outside production: main then makes a random one for this process. */
  readonly jwtSecret: string | undefined;
  /** The secret being rotated out: still accepted when verifying tokens, never used to sign. */
  readonly jwtSecretPrevious: string | undefined;
  /** Rate-limit counters (and other cross-instance state) live here when set; in-process otherwise. */
  readonly redisUrl: string | undefined;
  /** Express's `trust proxy`: a hop count or a list of addresses/subnets; false trusts no proxy. */
  readonly trustProxy: number | string[] | false;
  /** Failed logins allowed per account (normalised e-mail) within the window, whatever the address. */
  readonly loginFailures: { readonly limit: number; readonly windowSeconds: number };
  readonly corsOrigin: string;
  readonly rateLimits: { readonly global: number; readonly login: number; readonly signup: number; readonly introspect: number };
  readonly inviteTtlSeconds: number;
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly logLevel: string;
  /** Key prefix of everything written to Redis, so environments can share one Redis. */
  readonly redisKeyPrefix: string;
  readonly database: {
    readonly poolMax: number;
    /** How long a request may wait for a database connection before it is answered 503. */
    readonly connectTimeoutMs: number;
    /** The longest a statement may run (server-side statement_timeout) before it is answered 503. */
    readonly statementTimeoutMs: number;
  };
  readonly shutdown: {
    /** From the signal: how long in-flight requests get before their connections are cut. */
    readonly graceMs: number;
    /** From the signal: how long /readyz answers 503 while requests are still accepted. */
    readonly delayMs: number;
  };
  readonly metrics: {
    readonly enabled: boolean;
    /** Serve /metrics here (on HOST) instead of on the main port. */
    readonly port: number | undefined;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/** Production secrets must carry at least 256 bits for HS256. */
export const MIN_PRODUCTION_SECRET_BYTES = 32;

/**
 * A hop count, or a comma-separated list of addresses, subnets or proxy-addr's names (loopback,
 * linklocal, uniquelocal). Never `true`: trusting every hop lets any client forge its address.
 */
const trustProxySetting = makeValidator<number | string[] | false>((input) => {
  const value = input.trim();
  if (value === '' || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') throw new Error('must be a hop count or a list of subnets; "true" would trust forged addresses');
  const list = value.split(',').map((part) => part.trim()).filter(Boolean);
  proxyAddr.compile(list); // throws, naming the bad entry
  return list;
});

const positiveInt = makeValidator<number>((input) => {
  if (!/^\d+$/.test(input.trim()) || Number(input) < 1 || !Number.isSafeInteger(Number(input))) {
    throw new Error('must be a whole number of at least 1');
  }
  return Number(input);
});

const wholeNumber = makeValidator<number>((input) => {
  if (!/^\d+$/.test(input.trim()) || !Number.isSafeInteger(Number(input))) throw new Error('must be a whole number (0 or more)');
  return Number(input);
});

/** Reads and checks the environment; throws ConfigError naming every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const cleaned = cleanEnv(env, {
    NODE_ENV: str({ choices: ['development', 'production', 'test'] as const, default: 'development' }),
    PORT: port({ default: 3000 }),
    HOST: str({ default: '0.0.0.0' }),
    DATABASE_URL: url({ default: undefined }),
    PGLITE_DIR: str({ default: '.data/pglite' }),
    JWT_SECRET: str({ default: undefined }),
    JWT_SECRET_PREVIOUS: str({ default: undefined }),
    REDIS_URL: url({ default: undefined }),
    TRUST_PROXY: trustProxySetting({ default: false }),
    LOGIN_FAILURE_LIMIT: positiveInt({ default: 10 }),
    LOGIN_FAILURE_WINDOW_SECONDS: positiveInt({ default: 900 }),
    CORS_ORIGIN: url({ default: 'http://localhost:5173' }),
    RATE_LIMIT_GLOBAL: positiveInt({ default: 100 }),
    RATE_LIMIT_LOGIN: positiveInt({ default: 5 }),
    RATE_LIMIT_SIGNUP: positiveInt({ default: 3 }),
    RATE_LIMIT_INTROSPECT: positiveInt({ default: 60_000 }),
    INVITE_TTL_SECONDS: positiveInt({ default: 604_800 }),
    LOG_LEVEL: str({ choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
    REDIS_KEY_PREFIX: str({ default: 'portcullis:' }),
    DB_POOL_MAX: positiveInt({ default: 10 }),
    DB_CONNECT_TIMEOUT_MS: positiveInt({ default: 2_000 }),
    DB_STATEMENT_TIMEOUT_MS: positiveInt({ default: 5_000 }),
    SHUTDOWN_GRACE_MS: positiveInt({ default: 10_000 }),
    SHUTDOWN_DELAY_MS: wholeNumber({ default: 0 }),
    METRICS_ENABLED: bool({ default: true }),
    METRICS_PORT: port({ default: undefined }),
  }, {
    reporter: ({ errors }) => {
      for (const [name, error] of Object.entries(errors)) {
        problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  });

  if (cleaned.NODE_ENV === 'production') {
    for (const name of ['JWT_SECRET', 'JWT_SECRET_PREVIOUS'] as const) {
      const secret = cleaned[name];
      if (name === 'JWT_SECRET' && !secret) problems.push('JWT_SECRET: is required in production');
      else if (secret && Buffer.byteLength(secret, 'utf8') < MIN_PRODUCTION_SECRET_BYTES) {
        problems.push(`${name}: must be at least ${MIN_PRODUCTION_SECRET_BYTES} bytes in production`);
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  // Checks across variables, once each is valid on its own (envalid throws when an invalid one is read).
  if (cleaned.REDIS_KEY_PREFIX === '') problems.push('REDIS_KEY_PREFIX: must not be empty');
  if (cleaned.METRICS_PORT !== undefined && cleaned.METRICS_PORT === cleaned.PORT) {
    problems.push('METRICS_PORT: must differ from PORT (leave it unset to serve /metrics on PORT)');
  }
  if (cleaned.SHUTDOWN_DELAY_MS >= cleaned.SHUTDOWN_GRACE_MS) {
    problems.push('SHUTDOWN_DELAY_MS: must be less than SHUTDOWN_GRACE_MS, or no time is left to finish requests');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: cleaned.PORT,
    host: cleaned.HOST,
    databaseUrl: cleaned.DATABASE_URL,
    pgliteDir: cleaned.PGLITE_DIR,
    jwtSecret: cleaned.JWT_SECRET,
    jwtSecretPrevious: cleaned.JWT_SECRET_PREVIOUS,
    redisUrl: cleaned.REDIS_URL,
    trustProxy: cleaned.TRUST_PROXY,
    loginFailures: { limit: cleaned.LOGIN_FAILURE_LIMIT, windowSeconds: cleaned.LOGIN_FAILURE_WINDOW_SECONDS },
    corsOrigin: cleaned.CORS_ORIGIN,
    rateLimits: { global: cleaned.RATE_LIMIT_GLOBAL, login: cleaned.RATE_LIMIT_LOGIN, signup: cleaned.RATE_LIMIT_SIGNUP, introspect: cleaned.RATE_LIMIT_INTROSPECT },
    inviteTtlSeconds: cleaned.INVITE_TTL_SECONDS,
    nodeEnv: cleaned.NODE_ENV,
    logLevel: cleaned.LOG_LEVEL,
    redisKeyPrefix: cleaned.REDIS_KEY_PREFIX,
    database: {
      poolMax: cleaned.DB_POOL_MAX,
      connectTimeoutMs: cleaned.DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: cleaned.DB_STATEMENT_TIMEOUT_MS,
    },
    shutdown: { graceMs: cleaned.SHUTDOWN_GRACE_MS, delayMs: cleaned.SHUTDOWN_DELAY_MS },
    metrics: { enabled: cleaned.METRICS_ENABLED, port: cleaned.METRICS_PORT },
  };
}
