import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { AUTH, bearer, createApiKey, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';
import { operator } from '../support/operator-sql';
import { describeRawSqlChanges } from './raw-sql-changes-flow';

/**
 * A bound for a test on a shared machine, far below the cache's TTL, so a pass is the announcement's
 * doing; the worst case measured over many changes is in docs/benchmarks.md (scripts/bench/propagation.ts).
 */
const DEADLINE_MS = 1_000;

/** The first answer that is not a 200, asking again until the deadline. */
async function firstRefusal(send: () => Promise<Response>): Promise<Response> {
  const start = Date.now();
  for (;;) {
    const res = await send();
    if (res.status !== 200 || Date.now() - start > DEADLINE_MS) return res;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describeIfPostgres('Postgres: credential changes written in SQL', (url) => {
  describeRawSqlChanges('Postgres', async () => {
    const [ctx, op] = await Promise.all([databaseApp({ postgres: url }), operator(url)]);
    return {
      app: ctx.app,
      operatorSql: op.sql,
      afterChange: firstRefusal,
      close: async () => {
        await op.end();
        await ctx.close();
      },
    };
  });

  describe('two instances and an operator', () => {
    let a: DatabaseApp;
    let b: DatabaseApp;
    let deaf: DatabaseApp;
    let op: Awaited<ReturnType<typeof operator>>;
    beforeAll(async () => {
      [a, b, deaf, op] = await Promise.all([
        databaseApp({ postgres: url }),
        databaseApp({ postgres: url }),
        databaseApp({ postgres: url }, { changeFeed: false }),
        operator(url),
      ]);
    });
    afterAll(async () => {
      await op?.end();
      await Promise.all([a?.close(), b?.close(), deaf?.close()]);
    });

    it('a key revoked and a role changed in SQL are refused on both instances, though each held them in memory', async () => {
      const owner = await signupOwner(a.app);
      const admin = await joinWithRole(a.app, owner, 'admin');
      const key = await createApiKey(a.app, admin);
      for (const instance of [a, b, deaf]) {
        await request(instance.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
        await request(instance.app).get(`${AUTH}/me`).set(bearer(admin)).expect(200);
      }

      await op.sql('update api_keys set revoked = true where key_hash = encode(sha256($1::bytea), \'hex\')', [key]);
      await op.sql(`update users set role = 'member' where id = $1`, [admin.userId]);

      for (const instance of [a, b]) {
        expectError(await firstRefusal(() => request(instance.app).get(`${AUTH}/me`).set('x-api-key', key)), 401, 'Invalid API key');
        expectError(await firstRefusal(() => request(instance.app).get(`${AUTH}/me`).set(bearer(admin))), 401, 'Invalid or expired token');
      }
      // The control: an instance that does not listen keeps answering from memory, so the refusals above are the announcements' doing.
      await request(deaf.app).get(`${AUTH}/me`).set('x-api-key', key).expect(200);
      await request(deaf.app).get(`${AUTH}/me`).set(bearer(admin)).expect(200);
    });
  });
});
