import { derivedKeyId } from '../../src/adapters/crypto/jwt-signing-keys';
import { ConfigError, loadConfig } from '../../src/bootstrap/config';
import { DEVELOPMENT_TENANT_WALL_KEY } from '../../src/adapters/persistence/kysely/driver/tenant-walls';

describe('loadConfig', () => {
  it('gives the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      pgliteDir: '.data/pglite',
      jwtSecret: undefined,
      corsOrigin: 'http://localhost:5173',
      rateLimits: { global: 100, login: 5, signup: 3 },
      inviteTtlSeconds: 604_800,
      nodeEnv: 'development',
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080', HOST: '127.0.0.1', DATABASE_URL: 'postgres://u@db:5432/x', PGLITE_DIR: 'memory://',
      JWT_SECRET: 's'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32), CORS_ORIGIN: 'https://app.example.com', RATE_LIMIT_GLOBAL: '1000',
      RATE_LIMIT_LOGIN: '10', RATE_LIMIT_SIGNUP: '4', INVITE_TTL_SECONDS: '60', NODE_ENV: 'production', LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 8080, host: '127.0.0.1', databaseUrl: 'postgres://u@db:5432/x', pgliteDir: 'memory://',
      corsOrigin: 'https://app.example.com', rateLimits: { global: 1000, login: 10, signup: 4 },
      inviteTtlSeconds: 60, nodeEnv: 'production', logLevel: 'warn',
    });
  });

  it('names every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', RATE_LIMIT_LOGIN: '0', INVITE_TTL_SECONDS: '1.5', CORS_ORIGIN: 'not a url' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'RATE_LIMIT_LOGIN', 'INVITE_TTL_SECONDS', 'CORS_ORIGIN']) expect(problems).toContain(name);
  });

  it('refuses to start in production without a JWT secret, or with a short one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: is required/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(31) })).toThrow(/JWT_SECRET: must be at least 32 bytes/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), JWT_SECRET_PREVIOUS: 'short' }))
      .toThrow(/JWT_SECRET_PREVIOUS: must be at least 32 bytes/);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32), DATABASE_URL: 'postgres://web@db/x' }).jwtSecret).toBe('x'.repeat(32));
  });

  it('accepts http: identity providers only when told, and never in production', () => {
    expect(loadConfig({}).sso.allowHttpIssuer).toBe(false);
    expect(loadConfig({ SSO_ALLOW_HTTP_ISSUER: 'true' }).sso.allowHttpIssuer).toBe(true);
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32), DATABASE_URL: 'postgres://web@db/x' };
    expect(loadConfig(production).sso.allowHttpIssuer).toBe(false);
    expect(() => loadConfig({ ...production, SSO_ALLOW_HTTP_ISSUER: 'true' })).toThrow(/SSO_ALLOW_HTTP_ISSUER: is refused in production/);
  });

  it('refuses to start in production without a tenant-wall key, or with a short one; elsewhere the development key', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://web@db/x' };
    expect(() => loadConfig(production)).toThrow(/TENANT_WALL_KEY: is required in production/);
    expect(() => loadConfig({ ...production, TENANT_WALL_KEY: 'w'.repeat(31) })).toThrow(/TENANT_WALL_KEY: must be at least 32 bytes/);
    expect(() => loadConfig({ ...production, TENANT_WALL_KEY: 'w'.repeat(32), TENANT_WALL_KEY_PREVIOUS: 'short' }))
      .toThrow(/TENANT_WALL_KEY_PREVIOUS: must be at least 32 bytes/);
    expect(loadConfig({ ...production, TENANT_WALL_KEY: 'w'.repeat(32), TENANT_WALL_KEY_PREVIOUS: 'v'.repeat(32) }))
      .toMatchObject({ tenantWallKey: 'w'.repeat(32), tenantWallKeyPrevious: 'v'.repeat(32) });
    expect(loadConfig({})).toMatchObject({ tenantWallKey: DEVELOPMENT_TENANT_WALL_KEY, tenantWallKeyPrevious: undefined });
    expect(() => loadConfig({ TENANT_WALL_KEY: 'k'.repeat(40), TENANT_WALL_KEY_PREVIOUS: 'k'.repeat(40) })).toThrow(/TENANT_WALL_KEY_PREVIOUS: must differ/);
  });

  it('refuses a production start without DATABASE_URL, unless the embedded database is chosen by naming its folder', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32) };
    let error: unknown;
    try {
      loadConfig(production);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'DATABASE_URL: is required in production (or set PGLITE_DIR to choose the embedded database and the folder its data lives in)',
    ]);
    // Naming the default folder is a choice too; leaving PGLITE_DIR unset is not.
    expect(loadConfig({ ...production, PGLITE_DIR: '.data/pglite' })).toMatchObject({ databaseUrl: undefined, pgliteDir: '.data/pglite' });
    expect(loadConfig({ ...production, PGLITE_DIR: '/var/lib/portcullis' }).pgliteDir).toBe('/var/lib/portcullis');
    expect(loadConfig({ ...production, DATABASE_URL: 'postgresql://web@db/x' }).databaseUrl).toBe('postgresql://web@db/x');
    // Outside production the default folder is still the default.
    expect(loadConfig({}).pgliteDir).toBe('.data/pglite');
    // The owner's tools (migrate, service-key) may be given the owner's URL alone.
    expect(() => loadConfig({ ...production, MIGRATION_DATABASE_URL: 'postgres://owner@db/x' })).toThrow(/DATABASE_URL: is required in production/);
    expect(loadConfig({ ...production, MIGRATION_DATABASE_URL: 'postgres://owner@db/x' }, { ownerTool: true }).migrationDatabaseUrl)
      .toBe('postgres://owner@db/x');
    const { JWT_SECRET: _unused, ...withoutJwtSecret } = production;
    expect(loadConfig({ ...withoutJwtSecret, MIGRATION_DATABASE_URL: 'postgres://owner@db/x' }, { ownerTool: true }).jwtSecret).toBeUndefined();
    expect(() => loadConfig({ ...withoutJwtSecret, DATABASE_URL: 'postgres://owner@db/x' })).toThrow(/JWT_SECRET: is required/);
  });

  it.each([
    ['DATABASE_URL', 'mysql://user@db:3306/portcullis'],
    ['DATABASE_URL', 'http://db:5432/portcullis'],
    ['DATABASE_URL', 'db.example.com:5432'],
    ['MIGRATION_DATABASE_URL', 'mariadb://owner@db/portcullis'],
  ])('refuses %s=%s: only postgres:// or postgresql:// URLs', (name, value) => {
    const env = name === 'DATABASE_URL' ? { DATABASE_URL: value } : { DATABASE_URL: 'postgres://web@db/x', [name]: value };
    expect(() => loadConfig(env)).toThrow(new RegExp(`${name}: must be a postgres:// or postgresql:// URL`));
  });

  it('reads the session settings: the idle timeout off unless set (V7.3.1), the reauthentication window 600 s (V7.5.1), nonsense refused', () => {
    expect(loadConfig({}).sessions).toEqual({ idleTimeoutSeconds: undefined, reauthWindowSeconds: 600 });
    expect(loadConfig({ SESSION_IDLE_TIMEOUT_SECONDS: '1800', REAUTH_WINDOW_SECONDS: '300' }).sessions)
      .toEqual({ idleTimeoutSeconds: 1800, reauthWindowSeconds: 300 });
    for (const bad of ['0', '-5', 'soon', '1.5']) {
      expect(() => loadConfig({ SESSION_IDLE_TIMEOUT_SECONDS: bad })).toThrow(/SESSION_IDLE_TIMEOUT_SECONDS/);
      expect(() => loadConfig({ REAUTH_WINDOW_SECONDS: bad })).toThrow(/REAUTH_WINDOW_SECONDS/);
    }
    // Last seen is written once per key-usage interval: a timeout within two of them would refuse sessions in use elsewhere.
    expect(() => loadConfig({ SESSION_IDLE_TIMEOUT_SECONDS: '120' })).toThrow(/SESSION_IDLE_TIMEOUT_SECONDS: must be more than twice API_KEY_USAGE_FLUSH_SECONDS/);
    expect(loadConfig({ SESSION_IDLE_TIMEOUT_SECONDS: '120', API_KEY_USAGE_FLUSH_SECONDS: '30' }).sessions.idleTimeoutSeconds).toBe(120);
    expect(() => loadConfig({ REAUTH_WINDOW_SECONDS: String(24 * 3600 + 1) })).toThrow(/REAUTH_WINDOW_SECONDS: must not exceed/);
  });

  it('takes a trust-proxy hop count or subnet list, never "true"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
  });

  it('reads the per-account login throttle and Redis', () => {
    expect(loadConfig({}).loginFailures).toEqual({ limit: 10, accountLimit: 100, windowSeconds: 900 });
    const config = loadConfig({
      LOGIN_FAILURE_LIMIT: '3', LOGIN_FAILURE_ACCOUNT_LIMIT: '30', LOGIN_FAILURE_WINDOW_SECONDS: '60', REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config.loginFailures).toEqual({ limit: 3, accountLimit: 30, windowSeconds: 60 });
    // The ceiling over every address cannot be below the count from one.
    expect(() => loadConfig({ LOGIN_FAILURE_LIMIT: '20', LOGIN_FAILURE_ACCOUNT_LIMIT: '10' })).toThrow(/LOGIN_FAILURE_ACCOUNT_LIMIT/);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
  });

  it('serves metrics on a management port of their own in production, on the main port only by choice', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 's'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32), DATABASE_URL: 'postgres://web@db/x' };
    expect(loadConfig({}).metrics).toEqual({ enabled: true, port: undefined });
    expect(loadConfig(production).metrics).toEqual({ enabled: true, port: 9464 });
    expect(loadConfig({ ...production, METRICS_PORT: '9100' }).metrics.port).toBe(9100);
    expect(loadConfig({ ...production, METRICS_ON_MAIN_PORT: 'true' }).metrics.port).toBeUndefined();
    expect(() => loadConfig({ ...production, METRICS_ON_MAIN_PORT: 'true', METRICS_PORT: '9100' })).toThrow(/METRICS_ON_MAIN_PORT/);
    expect(() => loadConfig({ ...production, PORT: '9464' })).toThrow(/PORT: is the default metrics port in production/);
  });

  it('reads the slow-client limits: 10 s for the headers, 30 s for the whole request by default', () => {
    expect(loadConfig({}).http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
    expect(loadConfig({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '8000' }).http).toEqual({ headersTimeoutMs: 5_000, requestTimeoutMs: 8_000 });
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '8000' })).toThrow(/HEADERS_TIMEOUT_MS: must not exceed/);
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });

  it('reads the operations settings, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      redisKeyPrefix: 'portcullis:',
      database: { poolMax: 10, connectTimeoutMs: 2000, statementTimeoutMs: 5000 },
      shutdown: { graceMs: 10_000, delayMs: 0 },
      metrics: { enabled: true, port: undefined },
    });
    expect(loadConfig({
      REDIS_KEY_PREFIX: 'staging:', DB_POOL_MAX: '25', DB_CONNECT_TIMEOUT_MS: '500', DB_STATEMENT_TIMEOUT_MS: '2500',
      SHUTDOWN_GRACE_MS: '30000', SHUTDOWN_DELAY_MS: '5000', METRICS_ENABLED: 'false', METRICS_PORT: '9100',
    })).toMatchObject({
      redisKeyPrefix: 'staging:',
      database: { poolMax: 25, connectTimeoutMs: 500, statementTimeoutMs: 2500 },
      shutdown: { graceMs: 30_000, delayMs: 5000 },
      metrics: { enabled: false, port: 9100 },
    });
  });

  it('reads the change stream limits, with their defaults', () => {
    expect(loadConfig({}).changeStreams).toEqual({ perServiceKey: 64, perInstance: 512, maxUnsentBytes: 128 * 1024 });
    expect(loadConfig({ CHANGE_STREAMS_PER_SERVICE_KEY: '4', CHANGE_STREAMS_PER_INSTANCE: '100', CHANGE_STREAM_MAX_UNSENT_KB: '16' }).changeStreams)
      .toEqual({ perServiceKey: 4, perInstance: 100, maxUnsentBytes: 16 * 1024 });
    expect(() => loadConfig({ CHANGE_STREAM_MAX_UNSENT_KB: 'lots' })).toThrow(/CHANGE_STREAM_MAX_UNSENT_KB/);
  });

  it('reads the credential cache, verified token memory and key usage settings, with their defaults', () => {
    expect(loadConfig({})).toMatchObject({
      credentialCache: { memoryBytes: 96 * 2 ** 20, ttlMs: 600_000 },
      verifiedTokens: { memoryBytes: 64 * 2 ** 20 },
      apiKeyUsage: { intervalMs: 60_000, keysPerStatement: 10_000, maxPending: 200_000 },
    });
    expect(loadConfig({
      CREDENTIAL_CACHE_MB: '256', CREDENTIAL_CACHE_TTL_SECONDS: '120', API_KEY_USAGE_FLUSH_SECONDS: '30',
      API_KEY_USAGE_KEYS_PER_STATEMENT: '5000', API_KEY_USAGE_MAX_PENDING: '50000', VERIFIED_TOKEN_CACHE_MB: '16',
    })).toMatchObject({
      credentialCache: { memoryBytes: 256 * 2 ** 20, ttlMs: 120_000 },
      verifiedTokens: { memoryBytes: 16 * 2 ** 20 },
      apiKeyUsage: { intervalMs: 30_000, keysPerStatement: 5000, maxPending: 50_000 },
    });
    expect(() => loadConfig({ CREDENTIAL_CACHE_MB: '0' })).toThrow(/CREDENTIAL_CACHE_MB/);
    expect(() => loadConfig({ VERIFIED_TOKEN_CACHE_MB: '0' })).toThrow(/VERIFIED_TOKEN_CACHE_MB/);
    expect(() => loadConfig({ CHANGE_STREAMS_PER_SERVICE_KEY: '0' })).toThrow(/CHANGE_STREAMS_PER_SERVICE_KEY/);
    expect(() => loadConfig({ API_KEY_USAGE_FLUSH_SECONDS: 'soon' })).toThrow(/API_KEY_USAGE_FLUSH_SECONDS/);
  });

  it('reads FRESHNESS_TIMEOUT_MS, the bound on confirming freshness before a 503, with its default of a second', () => {
    expect(loadConfig({}).freshnessTimeoutMs).toBe(1_000);
    expect(loadConfig({ FRESHNESS_TIMEOUT_MS: '250' }).freshnessTimeoutMs).toBe(250);
    expect(() => loadConfig({ FRESHNESS_TIMEOUT_MS: '0' })).toThrow(/FRESHNESS_TIMEOUT_MS/);
  });

  it('names each bad operations setting', () => {
    let error: unknown;
    try {
      loadConfig({
        DB_POOL_MAX: '0', DB_CONNECT_TIMEOUT_MS: 'soon', DB_STATEMENT_TIMEOUT_MS: '-1', SHUTDOWN_GRACE_MS: '1.5',
        SHUTDOWN_DELAY_MS: 'x', METRICS_ENABLED: 'maybe', METRICS_PORT: '70000',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((problem) => problem.split(':')[0]);
    expect(names.sort()).toEqual([
      'DB_CONNECT_TIMEOUT_MS', 'DB_POOL_MAX', 'DB_STATEMENT_TIMEOUT_MS', 'METRICS_ENABLED', 'METRICS_PORT', 'SHUTDOWN_DELAY_MS', 'SHUTDOWN_GRACE_MS',
    ]);
    expect(() => loadConfig({ PORT: '9100', METRICS_PORT: '9100' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: '1000', SHUTDOWN_DELAY_MS: '1000' })).toThrow(/SHUTDOWN_DELAY_MS: must be less than/);
    expect(() => loadConfig({ REDIS_KEY_PREFIX: '' })).toThrow(/REDIS_KEY_PREFIX/);
  });

  describe('e-mail', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32), DATABASE_URL: 'postgres://web@db/x' };

    it('reads SMTP_URL, MAIL_FROM and PUBLIC_URL', () => {
      expect(loadConfig({ SMTP_URL: 'smtps://user:secret@mail.example.com:465', MAIL_FROM: 'Acme <no-reply@example.com>', PUBLIC_URL: 'https://auth.example.com' }))
        .toMatchObject({ mail: { smtpUrl: 'smtps://user:secret@mail.example.com:465', from: 'Acme <no-reply@example.com>' }, publicUrl: 'https://auth.example.com' });
      expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com:587', MAIL_FROM: 'no-reply@example.com' }).mail.smtpUrl).toBe('smtp://mail.example.com:587');
    });

    it('sends no mail by SMTP unless told; PUBLIC_URL defaults to the local service outside production only', () => {
      expect(loadConfig({})).toMatchObject({ mail: { smtpUrl: undefined, from: undefined }, publicUrl: 'http://localhost:3000' });
      expect(loadConfig(production)).toMatchObject({ mail: { smtpUrl: undefined }, publicUrl: undefined });
    });

    it('refuses an SMTP_URL that is not smtp:// or smtps://, naming the variable', () => {
      expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@example.com' }))
        .toThrow(/SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL \(not http:\/\/\)/);
      expect(() => loadConfig({ SMTP_URL: 'mail.example.com', MAIL_FROM: 'a@example.com' })).toThrow(/SMTP_URL: must be an smtp/);
      expect(() => loadConfig({ SMTP_URL: 'not a url', MAIL_FROM: 'a@example.com' })).toThrow(/SMTP_URL: must be an smtp/);
    });

    it('requires PUBLIC_URL in production once SMTP_URL is set: links in messages must point somewhere real', () => {
      const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), TENANT_WALL_KEY: 'w'.repeat(32), DATABASE_URL: 'postgres://web@db/x' };
      const smtp = { SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: 'no-reply@example.com' };
      expect(() => loadConfig({ ...production, ...smtp })).toThrow(/PUBLIC_URL: is required in production when SMTP_URL is set/);
      expect(loadConfig({ ...production, ...smtp, PUBLIC_URL: 'https://auth.example.com' }).publicUrl).toBe('https://auth.example.com');
      expect(loadConfig(smtp).publicUrl).toBe('http://localhost:3000');
    });

    it('reads the links\' lifetimes, 30 minutes for a reset, 48 hours for a verification and an hour for an address change by default', () => {
      expect(loadConfig({}).mail).toMatchObject({ resetTtlSeconds: 1_800, verifyTtlSeconds: 172_800, changeTtlSeconds: 3_600 });
      expect(loadConfig({ PASSWORD_RESET_TTL_SECONDS: '600', EMAIL_VERIFY_TTL_SECONDS: '3600', EMAIL_CHANGE_TTL_SECONDS: '900' }).mail)
        .toMatchObject({ resetTtlSeconds: 600, verifyTtlSeconds: 3_600, changeTtlSeconds: 900 });
      expect(() => loadConfig({ PASSWORD_RESET_TTL_SECONDS: '0' })).toThrow(/PASSWORD_RESET_TTL_SECONDS/);
    });

    it('requires MAIL_FROM when SMTP_URL is set', () => {
      expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com' })).toThrow(/MAIL_FROM: is required when SMTP_URL is set/);
      expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com', MAIL_FROM: ' ' })).toThrow(/MAIL_FROM: is required/);
    });

    it('limits messages to 5 an hour per address and 200 an hour per tenant unless told otherwise', () => {
      expect(loadConfig({}).mail.sendLimits).toEqual({ perRecipientPerHour: 5, perTenantPerHour: 200 });
      expect(loadConfig({ MAIL_LIMIT_PER_RECIPIENT: '10', MAIL_LIMIT_PER_TENANT: '1000' }).mail.sendLimits)
        .toEqual({ perRecipientPerHour: 10, perTenantPerHour: 1000 });
    });

    it('refuses a mail limit that is not a whole number of at least 1, naming the variable', () => {
      for (const value of ['0', '-1', '2.5', 'many', '']) {
        expect(() => loadConfig({ MAIL_LIMIT_PER_RECIPIENT: value })).toThrow(/MAIL_LIMIT_PER_RECIPIENT/);
        expect(() => loadConfig({ MAIL_LIMIT_PER_TENANT: value })).toThrow(/MAIL_LIMIT_PER_TENANT/);
      }
    });

    it('refuses a PUBLIC_URL that is not http:// or https://', () => {
      expect(() => loadConfig({ PUBLIC_URL: 'ftp://example.com' })).toThrow(/PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL/);
      expect(() => loadConfig({ PUBLIC_URL: 'example.com' })).toThrow(/PUBLIC_URL/);
    });
  });

  describe('PASSWORD_POLICY', () => {
    it('is default unless set, and reads strict', () => {
      expect(loadConfig({}).passwordPolicy).toBe('default');
      expect(loadConfig({ PASSWORD_POLICY: 'default' }).passwordPolicy).toBe('default');
      expect(loadConfig({ PASSWORD_POLICY: 'strict' }).passwordPolicy).toBe('strict');
    });

    it('refuses to start on any other value, naming the variable, the choices and the value', () => {
      expect(() => loadConfig({ PASSWORD_POLICY: 'lax' })).toThrow(/PASSWORD_POLICY: must be default or strict \(not "lax"\)/);
      expect(() => loadConfig({ PASSWORD_POLICY: 'STRICT' })).toThrow(/PASSWORD_POLICY: must be default or strict/);
      expect(() => loadConfig({ PASSWORD_POLICY: '' })).toThrow(/PASSWORD_POLICY/);
    });
  });

  /** OWASP ASVS 5.0 V11.2.2: the signing keys, each with an id, checked together before the service starts. */
  describe('signing keys (V11.2.2)', () => {
    const a = 'a'.repeat(32);
    const b = 'b'.repeat(32);
    const c = 'c'.repeat(32);
    const problemsOf = (env: NodeJS.ProcessEnv): string[] => {
      try {
        loadConfig(env);
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };

    it('reads each secret with its id; ids left unset stay unset (derived from the secret when the keys are made)', () => {
      expect(loadConfig({ JWT_SECRET: a, JWT_SECRET_NEXT: b, JWT_SECRET_PREVIOUS: c })).toMatchObject({
        jwtSecret: a, jwtSecretKeyId: undefined, jwtSecretNext: b, jwtSecretNextKeyId: undefined, jwtSecretPrevious: c, jwtSecretPreviousKeyId: undefined,
      });
      expect(loadConfig({
        JWT_SECRET: a, JWT_SECRET_KEY_ID: '2026-11', JWT_SECRET_NEXT: b, JWT_SECRET_NEXT_KEY_ID: '2027-01',
        JWT_SECRET_PREVIOUS: c, JWT_SECRET_PREVIOUS_KEY_ID: 'k_2026.09',
      })).toMatchObject({ jwtSecretKeyId: '2026-11', jwtSecretNextKeyId: '2027-01', jwtSecretPreviousKeyId: 'k_2026.09' });
      // An empty variable is an unset one, as JWT_SECRET_PREVIOUS always was.
      expect(loadConfig({ JWT_SECRET: a, JWT_SECRET_NEXT: '', JWT_SECRET_PREVIOUS: '' })).toMatchObject({ jwtSecretNext: undefined, jwtSecretPrevious: undefined });
    });

    it('refuses two variables holding the same secret, naming the later one', () => {
      expect(problemsOf({ JWT_SECRET: a, JWT_SECRET_NEXT: a })).toContain('JWT_SECRET_NEXT: must differ from JWT_SECRET');
      expect(problemsOf({ JWT_SECRET: a, JWT_SECRET_PREVIOUS: a })).toContain('JWT_SECRET_PREVIOUS: must differ from JWT_SECRET');
      expect(problemsOf({ JWT_SECRET: a, JWT_SECRET_NEXT: b, JWT_SECRET_PREVIOUS: b })).toContain('JWT_SECRET_PREVIOUS: must differ from JWT_SECRET_NEXT');
    });

    it('refuses two secrets with one id, given or derived', () => {
      expect(problemsOf({ JWT_SECRET: a, JWT_SECRET_KEY_ID: 'k1', JWT_SECRET_NEXT: b, JWT_SECRET_NEXT_KEY_ID: 'k1' }))
        .toContain('JWT_SECRET_NEXT_KEY_ID: must differ from JWT_SECRET_KEY_ID (both are "k1")');
      const derived = derivedKeyId(a);
      expect(problemsOf({ JWT_SECRET: a, JWT_SECRET_PREVIOUS: b, JWT_SECRET_PREVIOUS_KEY_ID: derived }))
        .toContain(`JWT_SECRET_PREVIOUS_KEY_ID: must differ from JWT_SECRET_KEY_ID (both are "${derived}")`);
    });

    it('refuses an id without its secret, and an id that would not sit plainly in a header', () => {
      expect(problemsOf({ JWT_SECRET: a, JWT_SECRET_NEXT_KEY_ID: 'k2' })).toContain('JWT_SECRET_NEXT_KEY_ID: needs JWT_SECRET_NEXT (it names that secret)');
      expect(problemsOf({ JWT_SECRET_KEY_ID: 'k1' })).toContain('JWT_SECRET_KEY_ID: needs JWT_SECRET (it names that secret)');
      for (const id of ['with space', 'k"1', 'é', 'k'.repeat(65)]) {
        expect(problemsOf({ JWT_SECRET: a, JWT_SECRET_KEY_ID: id })).toContain('JWT_SECRET_KEY_ID: must be 1 to 64 letters, digits, dots, hyphens or underscores');
      }
    });

    it('in production, JWT_SECRET_NEXT must be as strong as JWT_SECRET', () => {
      const production = { NODE_ENV: 'production', JWT_SECRET: a, TENANT_WALL_KEY: 'w'.repeat(32), DATABASE_URL: 'postgres://web@db/x' };
      expect(problemsOf({ ...production, JWT_SECRET_NEXT: 'short' })).toContain('JWT_SECRET_NEXT: must be at least 32 bytes in production');
      expect(loadConfig({ ...production, JWT_SECRET_NEXT: b, JWT_SECRET_PREVIOUS: c }).jwtSecretNext).toBe(b);
    });
  });
});
