import { CompiledQuery } from 'kysely';
import { databaseApp } from '../support/database-app';
import { describeRawSqlChanges } from './raw-sql-changes-flow';

// Every writer of an embedded database is in this process; the test's SQL runs on the service's own
// session as the owner, and the very next request must already see the change.
describeRawSqlChanges('PGlite', async () => {
  const ctx = await databaseApp('pglite');
  return {
    app: ctx.app,
    operatorSql: async (text, params = []) => (await ctx.db.executeQuery(CompiledQuery.raw(text, params))).rows as Array<Record<string, unknown>>,
    afterChange: (send) => send(),
    close: ctx.close,
  };
});
