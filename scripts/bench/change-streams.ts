/**
 * The audit's change-stream flood, replayed against one instance (the bench's service-server,
 * compiled, launched as production launches it) on Postgres (DATABASE_URL):
 *
 * 1. one service key asks for 1,000 change streams; then fifteen more keys ask for 64 each;
 * 2. with every stream that was let in open and read, 1,500 credential changes are committed (API
 *    keys revoked in SQL, one transaction each, from 4 connections at once);
 * 3. meanwhile /healthz is asked every 20 ms, the instance's RSS sampled every 50 ms, and its
 *    event-loop delay recorded.
 *
 * Prints how many streams were let in and refused, the RSS before, at its peak and after, the
 * event-loop delay and the slowest /healthz, and how long until every stream had every change (or
 * was reset). Settings:
 * BENCH_STREAM_CHANGES (1500), BENCH_STREAMS_FIRST_KEY (1000).
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/change-streams.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { SseParser } from '../../packages/client/src/sse-parser';
import { ManageServiceKeys } from '../../src/application/service-keys/manage-service-keys';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { prepareRunner, RssSampler, ServerProcess } from './children';
import { readSettings } from './settings';
import { max, percentile } from './stats';

const CHANGES = Number(process.env['BENCH_STREAM_CHANGES'] ?? 1_500);
const FIRST_KEY_STREAMS = Number(process.env['BENCH_STREAMS_FIRST_KEY'] ?? 1_000);
const MORE_KEYS = 15;
const PER_MORE_KEY = 64;
const MB = 2 ** 20;

interface Stream {
  lastPosition: number;
  ended: boolean;
  reset: boolean;
  destroy(): void;
}

function open(url: string, key: string): Promise<Stream | number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/v1/auth/changes`, { headers: { 'x-service-key': key }, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(res.statusCode ?? 0);
        return;
      }
      const parser = new SseParser();
      const stream: Stream = { lastPosition: 0, ended: false, reset: false, destroy: () => req.destroy() };
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        for (const event of parser.push(text)) {
          if (event.event === 'reset') stream.reset = true;
          if (event.event === 'ready' || event.event === 'change') {
            stream.lastPosition = Math.max(stream.lastPosition, (JSON.parse(event.data) as { position: number }).position);
          }
        }
      });
      res.on('close', () => { stream.ended = true; });
      resolve(stream);
    });
    req.on('error', reject);
  });
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required (Postgres, as the schema owner)');
  const loadBefore = loadavg();
  const settings = readSettings();
  const runner = prepareRunner(settings.runner);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS'];
  const service = await ServerProcess.start('service', runner, 'service-server', env, { launcher: 'production' });
  const owner = openPostgres(url, { max: 1 });
  try {
    const manage = new ManageServiceKeys({
      serviceKeys: new KyselyServiceKeyRepository(owner.db), ids: new RandomUuidGenerator(), secrets: new NodeSecrets(), clock: new SystemClock(),
    });
    const run = randomBytes(3).toString('hex');
    const keys = [];
    for (let i = 0; i <= MORE_KEYS; i += 1) keys.push((await manage.create(`bench-streams-${run}-${i}`, ALL_TENANTS)).rawKey);

    // Keys to revoke, made in SQL as the owner.
    const tenantId = randomUUID();
    const userId = randomUUID();
    await owner.db.insertInto('tenants').values({ id: tenantId, name: 'Stream flood', slug: `stream-flood-${tenantId}`, created_at: new Date() }).execute();
    await owner.db.insertInto('users').values({ id: userId, tenant_id: tenantId, email: `flood-${userId}@example.com`, password_hash: 'x', role: 'owner', created_at: new Date() }).execute();
    const keyIds = Array.from({ length: CHANGES }, () => randomUUID());
    for (let i = 0; i < keyIds.length; i += 500) {
      await owner.db.insertInto('api_keys').values(keyIds.slice(i, i + 500).map((id) => ({
        id, tenant_id: tenantId, user_id: userId, key_prefix: `pcls_${randomBytes(4).toString('hex')}`, key_hash: randomBytes(32).toString('hex'), revoked: false, created_at: new Date(),
      }))).execute();
    }

    const rssIdle = service.rss();
    const streams: Stream[] = [];
    const refused: Record<string, number> = {};
    const tally = (answer: Stream | number): void => {
      if (typeof answer === 'number') refused[answer] = (refused[answer] ?? 0) + 1;
      else streams.push(answer);
    };
    for (let i = 0; i < FIRST_KEY_STREAMS; i += 1) tally(await open(service.url, keys[0]!));
    const firstKeyOpen = streams.length;
    for (let k = 1; k <= MORE_KEYS; k += 1) for (let i = 0; i < PER_MORE_KEY; i += 1) tally(await open(service.url, keys[k]!));
    const rssStreams = service.rss();

    const sampler = new RssSampler([service.pid], 50);
    const probes: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const started = performance.now();
        await fetch(`${service.url}/healthz`).then((res) => res.arrayBuffer());
        probes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    service.resetLoopDelay();
    const started = performance.now();
    const writers = await Promise.all(Array.from({ length: 4 }, async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      return client;
    }));
    let next = 0;
    await Promise.all(writers.map(async (client) => {
      while (next < keyIds.length) {
        const id = keyIds[next++]!;
        await client.query('update api_keys set revoked = true where id = $1', [id]);
      }
    }));
    const committed = performance.now() - started;
    const { rows } = await writers[0]!.query<{ head: string }>('select position as head from credential_change_head');
    const head = Number(rows[0]!.head);
    await Promise.all(writers.map((client) => client.end()));
    const deadline = performance.now() + 60_000;
    while (streams.some((stream) => !stream.ended && !stream.reset && stream.lastPosition < head) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const delivered = performance.now() - started;
    probing = false;
    await prober;
    const loop = await service.loopDelay();
    const peak = sampler.stop().get(service.pid) ?? Number.NaN;
    const rssAfter = service.rss();
    const behind = streams.filter((stream) => !stream.ended && !stream.reset && stream.lastPosition < head).length;
    const reset = streams.filter((stream) => stream.reset).length;
    for (const stream of streams) stream.destroy();

    console.log(`Load average before ${loadBefore.map((n) => n.toFixed(2)).join(' / ')}, after ${loadavg().map((n) => n.toFixed(2)).join(' / ')}.\n`);
    console.log('| What | Figure |');
    console.log('|---|---|');
    console.log(`| Streams asked for by one key / let in | ${FIRST_KEY_STREAMS} / ${firstKeyOpen} |`);
    console.log(`| Streams asked for by ${MORE_KEYS} more keys (${PER_MORE_KEY} each) / let in | ${MORE_KEYS * PER_MORE_KEY} / ${streams.length - firstKeyOpen} |`);
    console.log(`| Refused | ${Object.entries(refused).map(([status, count]) => `${count} × ${status}`).join(', ') || 'none'} |`);
    console.log(`| RSS: idle, with the streams open, peak during the changes, after | ${(rssIdle / MB).toFixed(0)} / ${(rssStreams / MB).toFixed(0)} / ${(peak / MB).toFixed(0)} / ${(rssAfter / MB).toFixed(0)} MB |`);
    console.log(`| ${CHANGES} changes committed (4 connections, one transaction each) in | ${(committed / 1000).toFixed(2)} s |`);
    console.log(`| Every open stream at the last position (or reset) after | ${(delivered / 1000).toFixed(2)} s; ${behind} behind, ${reset} reset |`);
    console.log(`| The instance's event-loop delay meanwhile: p99 / max | ${loop.p99.toFixed(1)} / ${loop.max.toFixed(1)} ms |`);
    console.log(`| /healthz every 20 ms meanwhile (from the bench process, itself reading every stream): p99 / slowest | ${percentile(probes, 99).toFixed(1)} / ${max(probes).toFixed(1)} ms (${probes.length} probes) |`);
  } finally {
    await owner.close();
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
