import { bool, cleanEnv, makeValidator, port, str, url } from 'envalid';
import proxyAddr from 'proxy-addr';
import { DEVELOPMENT_TENANT_WALL_KEY } from '../adapters/persistence/kysely/driver/tenant-walls';
import { DEFAULT_FRESHNESS_TIMEOUT_MS } from '../adapters/cache/shared-freshness-check';
import { PASSWORD_POLICIES, type PasswordPolicyName } from '../domain/password-policy';
import { signingKeyProblems } from './signing-key-problems';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Postgres through pg when set; otherwise the embedded database in pgliteDir. */
  readonly databaseUrl: string | undefined;
  /**
   * The login that applies migrations (the schema's owner), when DATABASE_URL is a login that only
   * serves (a member of the app role); unset, DATABASE_URL's login migrates.
   */
  readonly migrationDatabaseUrl: string | undefined;
  readonly pgliteDir: string;
  /** The secret that signs tokens. Undefined only outside production: main then makes a random one for this process. */
  readonly jwtSecret: string | undefined;
  /**
   * Each secret's key id (the `kid` of the tokens it signs) as configured; undefined, the id derived
   * from the secret (jwt-signing-keys.ts). Rotation: docs/operations.md, "Rotating the signing secret".
   */
  readonly jwtSecretKeyId: string | undefined;
  /** The secret about to sign: accepted when verifying tokens, not yet used to sign. */
  readonly jwtSecretNext: string | undefined;
  readonly jwtSecretNextKeyId: string | undefined;
  /** The secret being rotated out: still accepted when verifying tokens, never used to sign. */
  readonly jwtSecretPrevious: string | undefined;
  readonly jwtSecretPreviousKeyId: string | undefined;
  /**
   * The key the database's tenant walls check the service's proofs with (migration 0009). Required
   * in production; elsewhere a fixed development key, so a development database keeps opening.
   */
  readonly tenantWallKey: string;
  /** The key being replaced: a database that holds it is given tenantWallKey too (docs/operations.md). */
  readonly tenantWallKeyPrevious: string | undefined;
  /**
   * MFA_ENCRYPTION_KEY: 32 bytes (base64 or hex) sealing authenticator apps' secrets. Unset in
   * production: second factors are off (enrolling and checking a code answer 503); elsewhere a
   * development key is derived (assemble.ts).
   */
  readonly mfaEncryptionKey: Buffer | undefined;
  /** Rate-limit counters (and other cross-instance state) live here when set; in-process otherwise. */
  readonly redisUrl: string | undefined;
  /** Express's `trust proxy`: a hop count or a list of addresses/subnets; false trusts no proxy. */
  readonly trustProxy: number | string[] | false;
  /**
   * Failed logins allowed per account (normalised e-mail) and client address within the window, and
   * per account over every address (accountLimit, higher).
   */
  readonly loginFailures: { readonly limit: number; readonly accountLimit: number; readonly windowSeconds: number };
  readonly corsOrigin: string;
  readonly rateLimits: { readonly global: number; readonly login: number; readonly signup: number; readonly introspect: number; readonly recovery: number; readonly sso: number };
  readonly inviteTtlSeconds: number;
  /** Off by default (the contract accepts an invite's token with any address); on, signup must use the invited address. */
  readonly inviteRequireEmailMatch: boolean;
  /**
   * What a new password must meet beyond the contract's length: `default` nothing more; `strict`
   * not on the shipped list of common passwords, nor containing the address or the organisation's name.
   */
  readonly passwordPolicy: PasswordPolicyName;
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
  /** The instance's memory of members and keys for the credential check (cached-credential-states.ts). */
  readonly credentialCache: {
    /** Members and keys together, counted at the documented bytes an entry. */
    readonly memoryBytes: number;
    /** How long an entry may be answered from memory at most, should a change notification be lost. */
    readonly ttlMs: number;
  };
  /** The instance's memory of bearer tokens whose signature it has checked (jwt-token-service.ts). */
  readonly verifiedTokens: {
    /** Counted at the documented bytes a token plus its claims' characters. */
    readonly memoryBytes: number;
  };
  /**
   * On Postgres, the longest a request waits for the instance to confirm that it has applied every
   * credential change committed before the request (shared-freshness-check.ts); past it, 503.
   */
  readonly freshnessTimeoutMs: number;
  /** API keys' last_used_at, gathered in memory and written once per interval. */
  readonly apiKeyUsage: {
    readonly intervalMs: number;
    /** Keys one write statement holds at most. */
    readonly keysPerStatement: number;
    /** Distinct keys gathered before the write goes early. */
    readonly maxPending: number;
  };
  /** Verifying services' change streams (GET /api/v1/auth/changes) on this instance. */
  readonly changeStreams: {
    readonly perServiceKey: number;
    readonly perInstance: number;
    /** A stream whose reader has not taken this many bytes is closed with `reset`. */
    readonly maxUnsentBytes: number;
  };
  /** Slow clients: how long a request may take to arrive (Node answers 408 and closes the connection). */
  readonly http: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number };
  readonly metrics: {
    readonly enabled: boolean;
    /**
     * Serve /metrics here (on HOST), a management port of its own, instead of on the main port.
     * Undefined: on the main port (outside production by default; in production only when
     * METRICS_ON_MAIN_PORT says so).
     */
    readonly port: number | undefined;
  };
  /** How e-mail leaves the service (src/bootstrap/mailer.ts chooses the adapter from these). */
  readonly mail: {
    /** smtp:// or smtps://, credentials in the URL; unset, the development mailbox (none in production). */
    readonly smtpUrl: string | undefined;
    /** The From of every message; set whenever smtpUrl is. */
    readonly from: string | undefined;
    /** How long a link's token lasts: a password reset, an address's verification, a new address's confirmation. */
    readonly resetTtlSeconds: number;
    readonly verifyTtlSeconds: number;
    readonly changeTtlSeconds: number;
    /** Messages allowed per hour to one address (whichever tenant), and for one tenant. */
    readonly sendLimits: { readonly perRecipientPerHour: number; readonly perTenantPerHour: number };
  };
  /**
   * Where people reach the service, for links in e-mail. Outside production http://localhost:3000
   * when unset; in production unset means undefined.
   */
  readonly publicUrl: string | undefined;
  readonly sessions: {
    /** SESSION_IDLE_TIMEOUT_SECONDS: a session unused for longer is refused and counts as ended; undefined: off. */
    readonly idleTimeoutSeconds: number | undefined;
    /** REAUTH_WINDOW_SECONDS: how long a proven password counts as recent authentication. */
    readonly reauthWindowSeconds: number;
  };
  readonly sso: {
    /** SSO_ALLOW_HTTP_ISSUER: accept OpenID providers at http: issuers (tests, a developer's machine); refused in production. */
    readonly allowHttpIssuer: boolean;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

/**
 * Where production serves /metrics unless told otherwise: a management port of its own, so login,
 * throttle and failure counts never answer on the public port. The Prometheus exporters' usual port.
 */
export const DEFAULT_PRODUCTION_METRICS_PORT = 9464;

/** PUBLIC_URL outside production when unset: the service on its default port. */
export const DEFAULT_DEVELOPMENT_PUBLIC_URL = 'http://localhost:3000';

/** Production secrets must carry at least 256 bits for HS256. */
export const MIN_PRODUCTION_SECRET_BYTES = 32;
/** A bearer token's lifetime (the contract's 24 hours): a longer reauthentication window would mean nothing. */
const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

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

/** A Postgres connection URL: the only database the service speaks to over the network. */
const postgresUrl = makeValidator<string>((input) => {
  let protocol: string;
  try {
    protocol = new URL(input).protocol;
  } catch {
    throw new Error('must be a postgres:// or postgresql:// URL');
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new Error(`must be a postgres:// or postgresql:// URL (not ${protocol}//); Portcullis stores its data in Postgres only`);
  }
  return input;
});

/** Where mail is sent: an SMTP server, plain (STARTTLS when offered) or TLS from the start. */
const smtpUrl = makeValidator<string>((input) => {
  let protocol: string;
  try {
    protocol = new URL(input).protocol;
  } catch {
    throw new Error('must be an smtp:// or smtps:// URL');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') throw new Error(`must be an smtp:// or smtps:// URL (not ${protocol}//)`);
  return input;
});

const httpUrl = makeValidator<string>((input) => {
  let protocol: string;
  try {
    protocol = new URL(input).protocol;
  } catch {
    throw new Error('must be an http:// or https:// URL');
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`must be an http:// or https:// URL (not ${protocol}//)`);
  return input;
});

const passwordPolicy = makeValidator<PasswordPolicyName>((input) => {
  const value = input.trim();
  const policy = PASSWORD_POLICIES.find((name) => name === value);
  if (policy === undefined) throw new Error(`must be ${PASSWORD_POLICIES.join(' or ')} (not "${input}")`);
  return policy;
});

const wholeNumber = makeValidator<number>((input) => {
  if (!/^\d+$/.test(input.trim()) || !Number.isSafeInteger(Number(input))) throw new Error('must be a whole number (0 or more)');
  return Number(input);
});

export interface LoadConfigOptions {
  /**
   * For the owner's tools (`npm run migrate`, `npm run service-key`), which connect as
   * MIGRATION_DATABASE_URL's login when set: that URL alone is then enough, and JWT_SECRET is not
   * needed in production.
   */
  readonly ownerTool?: boolean;
}

/** Reads and checks the environment; throws ConfigError naming every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadConfigOptions = {}): Config {
  const problems: string[] = [];
  const cleaned = cleanEnv(env, {
    NODE_ENV: str({ choices: ['development', 'production', 'test'] as const, default: 'development' }),
    PORT: port({ default: 3000 }),
    HOST: str({ default: '0.0.0.0' }),
    DATABASE_URL: postgresUrl({ default: undefined }),
    MIGRATION_DATABASE_URL: postgresUrl({ default: undefined }),
    PGLITE_DIR: str({ default: '.data/pglite' }),
    JWT_SECRET: str({ default: undefined }),
    JWT_SECRET_KEY_ID: str({ default: undefined }),
    JWT_SECRET_NEXT: str({ default: undefined }),
    JWT_SECRET_NEXT_KEY_ID: str({ default: undefined }),
    JWT_SECRET_PREVIOUS: str({ default: undefined }),
    JWT_SECRET_PREVIOUS_KEY_ID: str({ default: undefined }),
    TENANT_WALL_KEY: str({ default: undefined }),
    TENANT_WALL_KEY_PREVIOUS: str({ default: undefined }),
    REDIS_URL: url({ default: undefined }),
    TRUST_PROXY: trustProxySetting({ default: false }),
    LOGIN_FAILURE_LIMIT: positiveInt({ default: 10 }),
    LOGIN_FAILURE_ACCOUNT_LIMIT: positiveInt({ default: 100 }),
    LOGIN_FAILURE_WINDOW_SECONDS: positiveInt({ default: 900 }),
    CORS_ORIGIN: url({ default: 'http://localhost:5173' }),
    RATE_LIMIT_GLOBAL: positiveInt({ default: 100 }),
    RATE_LIMIT_LOGIN: positiveInt({ default: 5 }),
    RATE_LIMIT_SIGNUP: positiveInt({ default: 3 }),
    RATE_LIMIT_INTROSPECT: positiveInt({ default: 60_000 }),
    RATE_LIMIT_RECOVERY: positiveInt({ default: 10 }),
    RATE_LIMIT_SSO: positiveInt({ default: 20 }),
    INVITE_TTL_SECONDS: positiveInt({ default: 604_800 }),
    INVITE_REQUIRE_EMAIL_MATCH: bool({ default: false }),
    SSO_ALLOW_HTTP_ISSUER: bool({ default: false }),
    PASSWORD_POLICY: passwordPolicy({ default: 'default' }),
    LOG_LEVEL: str({ choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
    REDIS_KEY_PREFIX: str({ default: 'portcullis:' }),
    DB_POOL_MAX: positiveInt({ default: 10 }),
    DB_CONNECT_TIMEOUT_MS: positiveInt({ default: 2_000 }),
    DB_STATEMENT_TIMEOUT_MS: positiveInt({ default: 5_000 }),
    SHUTDOWN_GRACE_MS: positiveInt({ default: 10_000 }),
    SHUTDOWN_DELAY_MS: wholeNumber({ default: 0 }),
    CREDENTIAL_CACHE_MB: positiveInt({ default: 96 }),
    CREDENTIAL_CACHE_TTL_SECONDS: positiveInt({ default: 600 }),
    VERIFIED_TOKEN_CACHE_MB: positiveInt({ default: 64 }),
    FRESHNESS_TIMEOUT_MS: positiveInt({ default: DEFAULT_FRESHNESS_TIMEOUT_MS }),
    API_KEY_USAGE_FLUSH_SECONDS: positiveInt({ default: 60 }),
    API_KEY_USAGE_KEYS_PER_STATEMENT: positiveInt({ default: 10_000 }),
    API_KEY_USAGE_MAX_PENDING: positiveInt({ default: 200_000 }),
    CHANGE_STREAMS_PER_SERVICE_KEY: positiveInt({ default: 64 }),
    CHANGE_STREAMS_PER_INSTANCE: positiveInt({ default: 512 }),
    CHANGE_STREAM_MAX_UNSENT_KB: positiveInt({ default: 128 }),
    HEADERS_TIMEOUT_MS: positiveInt({ default: 10_000 }),
    REQUEST_TIMEOUT_MS: positiveInt({ default: 30_000 }),
    METRICS_ENABLED: bool({ default: true }),
    METRICS_PORT: port({ default: undefined }),
    METRICS_ON_MAIN_PORT: bool({ default: false }),
    SMTP_URL: smtpUrl({ default: undefined }),
    MAIL_FROM: str({ default: undefined }),
    PUBLIC_URL: httpUrl({ default: undefined }),
    PASSWORD_RESET_TTL_SECONDS: positiveInt({ default: 1_800 }),
    EMAIL_VERIFY_TTL_SECONDS: positiveInt({ default: 172_800 }),
    EMAIL_CHANGE_TTL_SECONDS: positiveInt({ default: 3_600 }),
    MAIL_LIMIT_PER_RECIPIENT: positiveInt({ default: 5 }),
    MAIL_LIMIT_PER_TENANT: positiveInt({ default: 200 }),
    SESSION_IDLE_TIMEOUT_SECONDS: positiveInt({ default: undefined }),
    REAUTH_WINDOW_SECONDS: positiveInt({ default: 600 }),
    MFA_ENCRYPTION_KEY: str({ default: undefined }),
  }, {
    reporter: ({ errors }) => {
      for (const [name, error] of Object.entries(errors)) {
        problems.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  });

  if (cleaned.NODE_ENV === 'production') {
    for (const name of ['JWT_SECRET', 'JWT_SECRET_NEXT', 'JWT_SECRET_PREVIOUS', 'TENANT_WALL_KEY', 'TENANT_WALL_KEY_PREVIOUS'] as const) {
      const secret = cleaned[name];
      // The owner's tools sign no tokens; they install the tenant-wall key, so that one they need.
      const required = name === 'TENANT_WALL_KEY' || (name === 'JWT_SECRET' && !options.ownerTool);
      if (required && !secret) problems.push(`${name}: is required in production`);
      else if (secret && Buffer.byteLength(secret, 'utf8') < MIN_PRODUCTION_SECRET_BYTES) {
        problems.push(`${name}: must be at least ${MIN_PRODUCTION_SECRET_BYTES} bytes in production`);
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  // Checks across variables, once each is valid on its own (envalid throws when an invalid one is read).
  // In a container the default folder is inside the container: its data would go with it. The
  // embedded database in production is a choice made by naming its folder.
  const databaseGiven = cleaned.DATABASE_URL !== undefined || (options.ownerTool === true && cleaned.MIGRATION_DATABASE_URL !== undefined);
  if (cleaned.NODE_ENV === 'production' && !databaseGiven && (env['PGLITE_DIR'] ?? '') === '') {
    problems.push('DATABASE_URL: is required in production (or set PGLITE_DIR to choose the embedded database and the folder its data lives in)');
  }
  if (cleaned.MIGRATION_DATABASE_URL !== undefined && cleaned.DATABASE_URL === undefined && !options.ownerTool) {
    problems.push('MIGRATION_DATABASE_URL: needs DATABASE_URL (the embedded database has one login)');
  }
  if (cleaned.LOGIN_FAILURE_ACCOUNT_LIMIT < cleaned.LOGIN_FAILURE_LIMIT) {
    problems.push('LOGIN_FAILURE_ACCOUNT_LIMIT: must be at least LOGIN_FAILURE_LIMIT (it counts every address together)');
  }
  problems.push(...signingKeyProblems(cleaned));
  if (cleaned.REDIS_KEY_PREFIX === '') problems.push('REDIS_KEY_PREFIX: must not be empty');
  if (cleaned.TENANT_WALL_KEY === '') problems.push('TENANT_WALL_KEY: must not be empty');
  if (cleaned.TENANT_WALL_KEY_PREVIOUS !== undefined && cleaned.TENANT_WALL_KEY_PREVIOUS === (cleaned.TENANT_WALL_KEY ?? DEVELOPMENT_TENANT_WALL_KEY)) {
    problems.push('TENANT_WALL_KEY_PREVIOUS: must differ from TENANT_WALL_KEY (it names the key being replaced)');
  }
  if (cleaned.METRICS_ON_MAIN_PORT && cleaned.METRICS_PORT !== undefined) {
    problems.push('METRICS_ON_MAIN_PORT: cannot be set with METRICS_PORT (choose one place for /metrics)');
  }
  const metricsPort = cleaned.METRICS_PORT
    ?? (cleaned.NODE_ENV === 'production' && !cleaned.METRICS_ON_MAIN_PORT ? DEFAULT_PRODUCTION_METRICS_PORT : undefined);
  if (metricsPort !== undefined && metricsPort === cleaned.PORT) {
    problems.push(cleaned.METRICS_PORT === undefined
      ? `PORT: is the default metrics port in production (${DEFAULT_PRODUCTION_METRICS_PORT}); set METRICS_PORT to another`
      : 'METRICS_PORT: must differ from PORT (in production, set METRICS_ON_MAIN_PORT=true to serve /metrics on PORT)');
  }
  if (cleaned.HEADERS_TIMEOUT_MS > cleaned.REQUEST_TIMEOUT_MS) {
    problems.push('HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (the headers are part of the request)');
  }
  if (cleaned.SHUTDOWN_DELAY_MS >= cleaned.SHUTDOWN_GRACE_MS) {
    problems.push('SHUTDOWN_DELAY_MS: must be less than SHUTDOWN_GRACE_MS, or no time is left to finish requests');
  }
  if (cleaned.SMTP_URL !== undefined && (cleaned.MAIL_FROM ?? '').trim() === '') {
    problems.push('MAIL_FROM: is required when SMTP_URL is set (the From of every message)');
  }
  if (cleaned.SSO_ALLOW_HTTP_ISSUER && cleaned.NODE_ENV === 'production') {
    problems.push('SSO_ALLOW_HTTP_ISSUER: is refused in production (an identity provider is reached over https only)');
  }
  if (cleaned.SMTP_URL !== undefined && cleaned.PUBLIC_URL === undefined && cleaned.NODE_ENV === 'production') {
    problems.push('PUBLIC_URL: is required in production when SMTP_URL is set (the links in messages point there)');
  }
  // Last seen is written once per usage interval; a shorter timeout would refuse a session in use on another instance.
  if (cleaned.SESSION_IDLE_TIMEOUT_SECONDS !== undefined && cleaned.SESSION_IDLE_TIMEOUT_SECONDS <= 2 * cleaned.API_KEY_USAGE_FLUSH_SECONDS) {
    problems.push('SESSION_IDLE_TIMEOUT_SECONDS: must be more than twice API_KEY_USAGE_FLUSH_SECONDS (last seen is written at that interval)');
  }
  const mfaEncryptionKey = cleaned.MFA_ENCRYPTION_KEY ? mfaKeyOf(cleaned.MFA_ENCRYPTION_KEY) : undefined;
  if (cleaned.MFA_ENCRYPTION_KEY && !mfaEncryptionKey) problems.push('MFA_ENCRYPTION_KEY: must be 32 bytes, as 64 hex digits or base64');
  if (cleaned.REAUTH_WINDOW_SECONDS > TOKEN_LIFETIME_SECONDS) {
    problems.push(`REAUTH_WINDOW_SECONDS: must not exceed a token's lifetime (${TOKEN_LIFETIME_SECONDS})`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port: cleaned.PORT,
    host: cleaned.HOST,
    databaseUrl: cleaned.DATABASE_URL,
    migrationDatabaseUrl: cleaned.MIGRATION_DATABASE_URL,
    pgliteDir: cleaned.PGLITE_DIR,
    jwtSecret: cleaned.JWT_SECRET,
    mfaEncryptionKey,
    jwtSecretKeyId: cleaned.JWT_SECRET_KEY_ID || undefined,
    jwtSecretNext: cleaned.JWT_SECRET_NEXT || undefined,
    jwtSecretNextKeyId: cleaned.JWT_SECRET_NEXT_KEY_ID || undefined,
    jwtSecretPrevious: cleaned.JWT_SECRET_PREVIOUS || undefined,
    jwtSecretPreviousKeyId: cleaned.JWT_SECRET_PREVIOUS_KEY_ID || undefined,
    tenantWallKey: cleaned.TENANT_WALL_KEY ?? DEVELOPMENT_TENANT_WALL_KEY,
    tenantWallKeyPrevious: cleaned.TENANT_WALL_KEY_PREVIOUS,
    redisUrl: cleaned.REDIS_URL,
    trustProxy: cleaned.TRUST_PROXY,
    loginFailures: {
      limit: cleaned.LOGIN_FAILURE_LIMIT,
      accountLimit: cleaned.LOGIN_FAILURE_ACCOUNT_LIMIT,
      windowSeconds: cleaned.LOGIN_FAILURE_WINDOW_SECONDS,
    },
    corsOrigin: cleaned.CORS_ORIGIN,
    rateLimits: { global: cleaned.RATE_LIMIT_GLOBAL, login: cleaned.RATE_LIMIT_LOGIN, signup: cleaned.RATE_LIMIT_SIGNUP, introspect: cleaned.RATE_LIMIT_INTROSPECT, recovery: cleaned.RATE_LIMIT_RECOVERY, sso: cleaned.RATE_LIMIT_SSO },
    inviteTtlSeconds: cleaned.INVITE_TTL_SECONDS,
    inviteRequireEmailMatch: cleaned.INVITE_REQUIRE_EMAIL_MATCH,
    passwordPolicy: cleaned.PASSWORD_POLICY,
    nodeEnv: cleaned.NODE_ENV,
    logLevel: cleaned.LOG_LEVEL,
    redisKeyPrefix: cleaned.REDIS_KEY_PREFIX,
    database: {
      poolMax: cleaned.DB_POOL_MAX,
      connectTimeoutMs: cleaned.DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: cleaned.DB_STATEMENT_TIMEOUT_MS,
    },
    shutdown: { graceMs: cleaned.SHUTDOWN_GRACE_MS, delayMs: cleaned.SHUTDOWN_DELAY_MS },
    credentialCache: { memoryBytes: cleaned.CREDENTIAL_CACHE_MB * 2 ** 20, ttlMs: cleaned.CREDENTIAL_CACHE_TTL_SECONDS * 1000 },
    verifiedTokens: { memoryBytes: cleaned.VERIFIED_TOKEN_CACHE_MB * 2 ** 20 },
    freshnessTimeoutMs: cleaned.FRESHNESS_TIMEOUT_MS,
    apiKeyUsage: {
      intervalMs: cleaned.API_KEY_USAGE_FLUSH_SECONDS * 1000,
      keysPerStatement: cleaned.API_KEY_USAGE_KEYS_PER_STATEMENT,
      maxPending: cleaned.API_KEY_USAGE_MAX_PENDING,
    },
    changeStreams: {
      perServiceKey: cleaned.CHANGE_STREAMS_PER_SERVICE_KEY,
      perInstance: cleaned.CHANGE_STREAMS_PER_INSTANCE,
      maxUnsentBytes: cleaned.CHANGE_STREAM_MAX_UNSENT_KB * 1024,
    },
    http: { headersTimeoutMs: cleaned.HEADERS_TIMEOUT_MS, requestTimeoutMs: cleaned.REQUEST_TIMEOUT_MS },
    metrics: { enabled: cleaned.METRICS_ENABLED, port: metricsPort },
    mail: {
      smtpUrl: cleaned.SMTP_URL,
      from: cleaned.MAIL_FROM,
      resetTtlSeconds: cleaned.PASSWORD_RESET_TTL_SECONDS,
      verifyTtlSeconds: cleaned.EMAIL_VERIFY_TTL_SECONDS,
      changeTtlSeconds: cleaned.EMAIL_CHANGE_TTL_SECONDS,
      sendLimits: { perRecipientPerHour: cleaned.MAIL_LIMIT_PER_RECIPIENT, perTenantPerHour: cleaned.MAIL_LIMIT_PER_TENANT },
    },
    publicUrl: cleaned.PUBLIC_URL ?? (cleaned.NODE_ENV === 'production' ? undefined : DEFAULT_DEVELOPMENT_PUBLIC_URL),
    sessions: { idleTimeoutSeconds: cleaned.SESSION_IDLE_TIMEOUT_SECONDS, reauthWindowSeconds: cleaned.REAUTH_WINDOW_SECONDS },
    sso: { allowHttpIssuer: cleaned.SSO_ALLOW_HTTP_ISSUER },
  };
}

/** 32 bytes from 64 hex digits or from base64 (either alphabet); undefined for anything else. */
export function mfaKeyOf(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : undefined;
}
