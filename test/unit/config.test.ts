import { ConfigError, loadConfig } from '../../src/bootstrap/config';

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
      JWT_SECRET: 's'.repeat(32), CORS_ORIGIN: 'https://app.example.com', RATE_LIMIT_GLOBAL: '1000',
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

  it('refuses to start in production without a JWT secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
  });
});
