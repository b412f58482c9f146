/**
 * What a tenant-scoped read behind the tenant wall costs (GET /invites' query, listPending over 20
 * pending invites), outside a unit of work, by the two ways the adapter can run it:
 *
 * - `transaction`: BEGIN, set_config, SELECT, COMMIT (four round trips; transactionPerCallScope)
 * - `pipelined`: set_config and the SELECT in one round trip (standaloneScope on Postgres)
 *
 * Both run in this process over one pool opened as the service opens it, alternated in rounds so
 * that noise hits both alike. Per way: the median and p90 time of one read at a time, this process's
 * CPU time per read (what the service pays; Postgres's own work is not in it), and reads/s with
 * CONCURRENCY reads in flight.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/tenant-read.ts
 *   TENANT_READ_ROUNDS=5 TENANT_READ_N=2000 …         (defaults: 5 rounds of 1000 reads per way)
 *   TENANT_READ_EMBEDDED=1 npx tsx scripts/bench/tenant-read.ts   (PGlite in memory instead)
 *   TENANT_READ_WAYS=pipelined …     (one way only, e.g. under node --cpu-prof)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { kyselyRepositories } from '../../src/adapters/persistence/kysely/repositories/kysely-repositories';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { openServingPglite, openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { standaloneScope, transactionPerCallScope } from '../../src/adapters/persistence/kysely/driver/tenant-scope';
import type { Repositories } from '../../src/application/ports/repositories';
import { median, percentile } from './stats';
import { INITIAL_AUTH_VERSION } from '../../src/domain/user';

const ROUNDS = Number(process.env['TENANT_READ_ROUNDS'] ?? 5);
const N = Number(process.env['TENANT_READ_N'] ?? 1000);
const CONCURRENCY = 10;
const INVITES = 20;

type Way = 'transaction' | 'pipelined';
const WAYS = (process.env['TENANT_READ_WAYS'] ?? 'transaction,pipelined').split(',').filter((w): w is Way => w === 'transaction' || w === 'pipelined');

async function seed(repos: Repositories): Promise<string> {
  const tenantId = randomUUID();
  const userId = randomUUID();
  const now = new Date();
  await repos.tenants.create({ id: tenantId, name: 'Bench', slug: `bench-${tenantId}`, createdAt: now });
  await repos.users.create({ id: userId, tenantId, email: `bench-${userId}@example.com`, passwordHash: 'x', role: 'owner', createdAt: now, authVersion: INITIAL_AUTH_VERSION });
  for (let i = 0; i < INVITES; i += 1) {
    await repos.invites.create({
      id: randomUUID(), tenantId, email: `invitee-${randomUUID()}@example.com`, role: 'member', token: randomBytes(32).toString('hex'),
      invitedBy: userId, expiresAt: new Date(now.getTime() + 86_400_000), acceptedAt: null, createdAt: now,
    });
  }
  return tenantId;
}

interface Sample {
  readonly sequentialUs: number[];
  cpuUsPerRead: number[];
  readsPerSecond: number[];
}

async function sequential(repos: Repositories, tenantId: string, sample: Sample): Promise<void> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i += 1) {
    const started = process.hrtime.bigint();
    const invites = await repos.invites.listPending(tenantId, new Date());
    sample.sequentialUs.push(Number(process.hrtime.bigint() - started) / 1000);
    if (invites.length !== INVITES) throw new Error(`expected ${INVITES} invites, read ${invites.length}`);
  }
  const used = process.cpuUsage(cpu);
  sample.cpuUsPerRead.push((used.user + used.system) / N);
}

async function concurrent(repos: Repositories, tenantId: string, sample: Sample): Promise<void> {
  let left = N;
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (left > 0) {
      left -= 1;
      await repos.invites.listPending(tenantId, new Date());
    }
  }));
  sample.readsPerSecond.push(N / (Number(process.hrtime.bigint() - started) / 1e9));
}

function describe(way: Way, sample: Sample): string {
  const seq = sample.sequentialUs;
  return `${way.padEnd(11)} one at a time: median ${median(seq).toFixed(0)} µs, p90 ${percentile(seq, 90).toFixed(0)} µs; `
    + `CPU of this process ${median(sample.cpuUsPerRead).toFixed(0)} µs/read; `
    + `${CONCURRENCY} in flight: ${median(sample.readsPerSecond).toFixed(0)} reads/s`;
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  const embedded = process.env['TENANT_READ_EMBEDDED'] === '1' || !url;
  const opened = embedded ? await openServingPglite('memory://') : await openServingPostgres(url!);
  const db: Kysely<DB> = opened.db;
  const ways: Record<Way, Repositories> = {
    transaction: kyselyRepositories(transactionPerCallScope(db)),
    pipelined: kyselyRepositories(standaloneScope(db)),
  };
  try {
    const tenantId = await seed(ways.transaction);
    const samples: Record<Way, Sample> = {
      transaction: { sequentialUs: [], cpuUsPerRead: [], readsPerSecond: [] },
      pipelined: { sequentialUs: [], cpuUsPerRead: [], readsPerSecond: [] },
    };
    console.log(`tenant-read: ${embedded ? 'PGlite (memory)' : 'Postgres'}; ${ROUNDS} rounds × ${N} reads per way; listPending of ${INVITES} invites`);
    for (const way of WAYS) await sequential(ways[way], tenantId, { sequentialUs: [], cpuUsPerRead: [], readsPerSecond: [] }); // warm-up
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? WAYS : [...WAYS].reverse();
      for (const way of order) {
        await sequential(ways[way], tenantId, samples[way]);
        await concurrent(ways[way], tenantId, samples[way]);
      }
    }
    for (const way of WAYS) console.log(describe(way, samples[way]));
  } finally {
    await opened.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
