import type { Redis } from 'ioredis';
import { redisRateLimitStores } from '../../src/adapters/rate-limit/redis-rate-limit-store';
import { closeRedis } from '../../src/bootstrap/redis';
import { request } from '../support/contract-request';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { signupOwner } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';
import { connectTestRedis, deleteKeysUnder, describeIfRedis, uniqueRedisPrefix } from '../support/redis';
import { expectScimError, SCIM, scimHeaders, scimTokenOf } from '../support/scim-fixtures';

const LIMIT = 3;

/** Two instances on one Postgres, each with its own Redis connection, counting SCIM requests in one Redis. */
describeIfPostgres('the SCIM rate limit over Redis', (postgres) => {
  describeIfRedis('shared by instances', (redisUrl) => {
    const prefix = uniqueRedisPrefix('scim-limit');
    const clients: Redis[] = [];
    let a: DatabaseApp;
    let b: DatabaseApp;
    beforeAll(async () => {
      const instances: DatabaseApp[] = [];
      for (let i = 0; i < 2; i += 1) {
        const { client } = await connectTestRedis(redisUrl);
        clients.push(client);
        instances.push(await databaseApp({ postgres }, { rateLimits: { scim: LIMIT }, rateLimitStore: redisRateLimitStores(client, prefix) }));
      }
      [a, b] = instances as [DatabaseApp, DatabaseApp];
    });
    afterAll(async () => {
      await deleteKeysUnder(clients[0]!, prefix);
      await Promise.all([a?.close(), b?.close()]);
      await Promise.all(clients.map(closeRedis));
    });

    it('allows a token its limit between both instances, not the limit on each; another tenant\'s token keeps its own', async () => {
      const token = await scimTokenOf(a.app, await signupOwner(a.app));
      const other = await scimTokenOf(b.app, await signupOwner(b.app));
      for (let i = 0; i < LIMIT; i += 1) {
        expect((await request(i % 2 === 0 ? a.app : b.app).get(`${SCIM}/Users`).set(scimHeaders(token))).status).toBe(200);
      }
      for (const instance of [a, b]) {
        const refused = await request(instance.app).get(`${SCIM}/Users`).set(scimHeaders(token));
        expectScimError(refused, 429, `Too many requests, retry after ${refused.headers['retry-after']} seconds`);
      }
      expect((await request(b.app).get(`${SCIM}/Users`).set(scimHeaders(other))).status).toBe(200);
    });
  });
});
