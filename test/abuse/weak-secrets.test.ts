import { ConfigError, loadConfig, MIN_PRODUCTION_SECRET_BYTES } from '../../src/bootstrap/config';

function configError(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted the configuration');
}

/** A guessable HS256 secret lets anyone mint tokens: production refuses to start with one. */
describe('abuse: weak secrets', () => {
  it.each([
    ['a guessable word', 'secret'],
    ['31 bytes', 'x'.repeat(31)],
    ['an empty value', ''],
    ['15 two-byte characters (30 bytes)', 'é'.repeat(15)],
  ])('weak JWT_SECRET in production (%s): loadConfig throws ConfigError naming JWT_SECRET, so the service does not start', (_label, secret) => {
    const error = configError({ NODE_ENV: 'production', JWT_SECRET: secret });
    expect(error.problems.join('\n')).toMatch(/^JWT_SECRET: /m);
  });

  it('missing JWT_SECRET in production: the start is refused, naming JWT_SECRET', () => {
    expect(configError({ NODE_ENV: 'production' }).problems).toContain('JWT_SECRET: is required in production');
  });

  it('missing or weak TENANT_WALL_KEY in production (the key behind the database\'s tenant walls): the start is refused, naming it', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 's'.repeat(MIN_PRODUCTION_SECRET_BYTES) };
    expect(configError(production).problems).toContain('TENANT_WALL_KEY: is required in production');
    expect(configError({ ...production, TENANT_WALL_KEY: 'changeme' }).problems.join('\n')).toMatch(/^TENANT_WALL_KEY: must be at least 32 bytes/m);
  });

  it('weak JWT_SECRET_PREVIOUS in production (a rotated-out secret still verifies tokens): refused too', () => {
    const error = configError({ NODE_ENV: 'production', JWT_SECRET: 's'.repeat(MIN_PRODUCTION_SECRET_BYTES), JWT_SECRET_PREVIOUS: 'secret' });
    expect(error.problems.join('\n')).toMatch(/^JWT_SECRET_PREVIOUS: /m);
  });

  it('weak JWT_SECRET_NEXT in production (a secret about to sign already verifies tokens): refused too (V11.2.2)', () => {
    const error = configError({ NODE_ENV: 'production', JWT_SECRET: 's'.repeat(MIN_PRODUCTION_SECRET_BYTES), JWT_SECRET_NEXT: 'x'.repeat(31) });
    expect(error.problems.join('\n')).toMatch(/^JWT_SECRET_NEXT: must be at least 32 bytes/m);
  });

  it('the bound is bytes, not characters: exactly 32 bytes is the minimum accepted', () => {
    const wallKey = { TENANT_WALL_KEY: 'w'.repeat(MIN_PRODUCTION_SECRET_BYTES), DATABASE_URL: 'postgres://web@db/portcullis' };
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(MIN_PRODUCTION_SECRET_BYTES), ...wallKey }).jwtSecret).toHaveLength(32);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'é'.repeat(16), ...wallKey }).jwtSecret).toBe('é'.repeat(16)); // 32 bytes
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), TENANT_WALL_KEY: 'é'.repeat(16), DATABASE_URL: 'postgres://web@db/portcullis' }).tenantWallKey).toBe('é'.repeat(16));
  });
});
