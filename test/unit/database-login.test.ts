import { loadConfig } from '../../src/bootstrap/config';
import { warnAboutServingLogin } from '../../src/bootstrap/database-login';
import { captureLog } from '../support/log-capture';

describe('the start-up check of the database login', () => {
  const risks = ['the login postgres is a superuser'];

  it('warns once, naming what the login could do, in production; the service goes on', () => {
    const { logger, lines } = captureLog();
    warnAboutServingLogin('production', risks, logger);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', databaseLoginRisks: risks });
    expect(lines[0]!['msg']).toMatch(/more power than the service needs.*is a superuser.*MIGRATION_DATABASE_URL/);
  });

  it('says nothing for a least-privileged login, nor outside production', () => {
    const { logger, lines } = captureLog();
    warnAboutServingLogin('production', [], logger);
    warnAboutServingLogin('development', risks, logger);
    warnAboutServingLogin('test', risks, logger);
    expect(lines).toEqual([]);
  });
});

describe('MIGRATION_DATABASE_URL', () => {
  it('is read beside DATABASE_URL, and unset by default', () => {
    expect(loadConfig({}).migrationDatabaseUrl).toBeUndefined();
    const config = loadConfig({ DATABASE_URL: 'postgres://web@db/x', MIGRATION_DATABASE_URL: 'postgres://owner@db/x' });
    expect(config).toMatchObject({ databaseUrl: 'postgres://web@db/x', migrationDatabaseUrl: 'postgres://owner@db/x' });
  });

  it('needs DATABASE_URL: the embedded database has a single login', () => {
    expect(() => loadConfig({ MIGRATION_DATABASE_URL: 'postgres://owner@db/x' })).toThrow(/MIGRATION_DATABASE_URL: needs DATABASE_URL/);
  });
});
