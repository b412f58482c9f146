import type { RequestListener } from 'node:http';
import type { Response } from 'supertest';
import { request } from '../support/contract-request';
import { createInspectableMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { databaseApp, type DatabaseApp } from '../support/database-app';
import { buildTestApp } from '../support/http-app';
import { AUTH, createInvite, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { describeIfPostgres } from '../support/postgres';
import { uniqueEmail } from '../support/test-use-cases';

const RACERS = 12;

/** What a backend must let the test count, to see that losers left nothing behind. */
interface RaceTarget {
  readonly app: RequestListener;
  usersOfTenant(tenantId: string): Promise<number>;
  tenantsNamed(names: readonly string[]): Promise<number>;
  usersWithEmail(email: string): Promise<number>;
  close(): Promise<void>;
}

async function memoryRaceTarget(): Promise<RaceTarget> {
  const storage = createInspectableMemoryStorage();
  const { app } = await buildTestApp({}, { storage });
  type Rows = Array<[string, Record<string, unknown>]>;
  const state = () => JSON.parse(storage.snapshot()) as { tenants: Rows; users: Rows };
  return {
    app,
    usersOfTenant: async (tenantId) => state().users.filter(([, u]) => u['tenantId'] === tenantId).length,
    tenantsNamed: async (names) => state().tenants.filter(([, t]) => names.includes(t['name'] as string)).length,
    usersWithEmail: async (email) => state().users.filter(([, u]) => u['email'] === email).length,
    close: async () => undefined,
  };
}

function sqlRaceTarget(open: () => Promise<DatabaseApp>): () => Promise<RaceTarget> {
  return async () => {
    const { app, db, close } = await open();
    const count = async (rows: Promise<Array<{ n: string | number | bigint }>>) => Number((await rows)[0]?.n ?? 0);
    return {
      app,
      close,
      usersOfTenant: (tenantId) => count(db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', tenantId).execute()),
      tenantsNamed: (names) => count(db.selectFrom('tenants').select((eb) => eb.fn.countAll().as('n')).where('name', 'in', [...names]).execute()),
      usersWithEmail: (email) => count(db.selectFrom('users').select((eb) => eb.fn.countAll().as('n')).where('email', '=', email).execute()),
    };
  };
}

const statuses = (responses: readonly Response[]) => responses.map((res) => res.status).sort();

/**
 * Races a client can start on purpose: many requests at once, each valid alone. The unit of work and
 * the database's constraints must let exactly one win and leave no trace of the others.
 */
function describeRaces(name: string, open: () => Promise<RaceTarget>): void {
  describe(`abuse: concurrent requests (${name})`, () => {
    let target: RaceTarget;
    beforeAll(async () => {
      target = await open();
    }, 60_000);
    afterAll(async () => {
      await target?.close();
    });

    it(`concurrent invite acceptance: ${RACERS} signups racing on one invite token, exactly one 201, the rest 400 Invite already accepted`, async () => {
      const { app } = target;
      const owner = await signupOwner(app, `Race ${name}`);
      const invite = await createInvite(app, owner, { role: 'admin' });
      const emails = Array.from({ length: RACERS }, () => uniqueEmail('racer'));
      const responses = await Promise.all(emails.map((email) =>
        request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: invite.token })));

      expect(statuses(responses)).toEqual([201, ...Array<number>(RACERS - 1).fill(400)]);
      for (const res of responses.filter((r) => r.status === 400)) expectError(res, 400, 'Invite already accepted');
      const winner = emails[responses.findIndex((res) => res.status === 201)]!;
      expect(responses.find((res) => res.status === 201)!.body.tenant_id).toBe(owner.tenantId);
      expect(await target.usersOfTenant(owner.tenantId)).toBe(2); // the owner and the one winner
      for (const email of emails) {
        expect(await target.usersWithEmail(email.toLowerCase())).toBe(email === winner ? 1 : 0);
      }
    });

    it(`concurrent same-e-mail signups: ${RACERS} new-tenant signups racing on one address, exactly one 201, the rest 409, one tenant kept`, async () => {
      const { app } = target;
      const email = uniqueEmail('contested');
      // The same address in different cases is the same account (e-mails are normalised).
      const variants = [email, email.toUpperCase(), `${email[0]!.toUpperCase()}${email.slice(1)}`];
      const names = Array.from({ length: RACERS }, (_, i) => `Contested ${name} ${i} ${email}`.slice(0, 100));
      const responses = await Promise.all(names.map((tenantName, i) =>
        request(app).post(`${AUTH}/signup`).send({ email: variants[i % variants.length], password: PASSWORD, tenant_name: tenantName })));

      expect(statuses(responses)).toEqual([201, ...Array<number>(RACERS - 1).fill(409)]);
      for (const res of responses.filter((r) => r.status === 409)) expectError(res, 409, 'Email already registered');
      expect(await target.usersWithEmail(email.toLowerCase())).toBe(1);
      // One transaction (docs/contract.md, "Tenants, members and credentials"): every loser's tenant was rolled back with its user.
      expect(await target.tenantsNamed(names)).toBe(1);
      const winnerTenant = responses.find((res) => res.status === 201)!.body.tenant_id as string;
      expect(await target.usersOfTenant(winnerTenant)).toBe(1);
    });
  });
}

describeRaces('memory', memoryRaceTarget);
describeRaces('PGlite', sqlRaceTarget(() => databaseApp('pglite')));
describeIfPostgres('abuse: concurrent requests on Postgres', (url) => describeRaces('Postgres', sqlRaceTarget(() => databaseApp({ postgres: url }))));
