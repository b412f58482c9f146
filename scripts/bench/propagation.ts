/**
 * `npm run bench:propagation`: how long a credential change takes to be in force on two instances.
 *
 * Two service processes (the bench's service-server, compiled, launched as production launches it)
 * on one Postgres (DATABASE_URL). Every key and token is first used on both, so each instance holds
 * it in memory. Then, one at a time, a change is committed, and right after the commit returns both
 * instances are asked, back to back and without pause, until each refuses:
 *
 *   - `sql revoke`:  UPDATE api_keys SET revoked = true, on an operator's own connection (psql);
 *   - `sql expiry`:  UPDATE api_keys SET expires_at = now() - 1 minute;
 *   - `sql role`:    UPDATE users SET role = …, the token at the old auth version must be refused;
 *   - `api revoke`:  DELETE /api-keys/:id through instance A (the service's own path);
 *   - `api logout`:  POST /logout through instance A with a token of a fresh session; measured on
 *                    both instances and at a downstream service in this process (the example app
 *                    over the client library, its change stream and introspections on instance B),
 *                    which had admitted (so remembered) the token before.
 *
 * For each change and instance: whether the first request sent after the commit was already refused
 * (the ordinary sequential case), and the time from the commit's return to the refused answer. The
 * baseline, measured in the same run on the same instances, is one GET /me round trip with a key
 * each instance holds in memory. Writes its section of docs/benchmarks.md (BENCH_OUT to change).
 *
 * Settings: DATABASE_URL (required), BENCH_PROPAGATION_CHANGES (per kind, default 25),
 * BENCH_PROPAGATION_DEADLINE_MS (give up on one change after this, default 2000).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import jwt from 'jsonwebtoken';
import { Client } from 'pg';
import { portcullis } from '../../packages/client/src';
import { downstreamApp } from '../../examples/downstream/app';
import { ManageServiceKeys } from '../../src/application/service-keys/manage-service-keys';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { prepareRunner, PROJECT_ROOT, ServerProcess } from './children';
import { BENCH_JWT_SECRET } from './protocol';
import { writePropagationSection } from './report';
import { describeMachine, loadAverage, redactUrl } from './settings';
import { max, median, percentile } from './stats';

const AUTH = '/api/v1/auth';
const PASSWORD = 'correct horse battery staple';
const KINDS = ['sql revoke', 'sql expiry', 'sql role', 'api revoke', 'api logout'] as const;
type Kind = (typeof KINDS)[number];

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export async function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}${AUTH}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export function intFromEnv(name: string, fallback: number, minimum: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum) throw new Error(`${name} must be a whole number of at least ${minimum}, not ${raw}`);
  return value;
}

/** A member written as an operator would (role `member`, no usable password); returns its id. */
export async function insertMember(operator: Client, tenantId: string): Promise<string> {
  const memberId = randomUUID();
  await operator.query(
    `insert into users (id, tenant_id, email, password_hash, role, created_at) values ($1, $2, $3, 'not-a-hash', 'member', now())`,
    [memberId, tenantId, `bench-member-${memberId}@example.com`],
  );
  return memberId;
}

/** A bearer token for the member, signed as the bench's service signs them, at the given auth version. */
export function memberToken(tenantId: string, userId: string, role: string, authVersion: number): Record<string, string> {
  const claims = { tenantId, userId, email: 'member@example.com', role, authVersion };
  return { authorization: `Bearer ${jwt.sign(claims, BENCH_JWT_SECRET, { algorithm: 'HS256', expiresIn: '1h' })}` };
}

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** The example downstream service over the client library, on a port of its own, following `url` with a new service key. */
export async function startDownstream(url: string, databaseUrl: string) {
  const owner = openPostgres(databaseUrl, { max: 1 });
  const manage = new ManageServiceKeys({
    serviceKeys: new KyselyServiceKeyRepository(owner.db), ids: new RandomUuidGenerator(), secrets: new NodeSecrets(), clock: new SystemClock(),
  });
  const { key, rawKey } = await manage.create(`bench-propagation-${randomUUID()}`, ALL_TENANTS);
  const auth = portcullis({ url, serviceKey: rawKey, onError: () => undefined });
  await auth.feedReady();
  const server = downstreamApp(auth).listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    whoami: async (headers: Record<string, string>): Promise<Answer> => {
      const res = await fetch(`${base}/whoami`, { headers });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    close: async () => {
      auth.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await manage.revoke(key.id);
      await owner.close();
    },
  };
}

interface Observation {
  readonly kind: Kind;
  /** Where the refusal was awaited: a Portcullis instance, or the downstream service following B. */
  readonly instance: 'A' | 'B' | 'downstream';
  /** The first request sent after the commit returned was already refused. */
  readonly firstRefused: boolean;
  /**
   * How long after the commit the old credential was still honoured, at most: the answer time of
   * the last request accepted after the commit (the instance decided before it answered); 0 when
   * none was.
   */
  readonly staleMs: number;
  /** From the commit's return to the refused answer (that request's round trip included). */
  readonly ms: number;
  /** Requests sent until the refusal, the refused one included. */
  readonly requests: number;
}

/** Asks until the answer is a refusal; the deadline guards against a change that never arrives. */
async function untilRefused(send: () => Promise<Answer>, committedAt: number, deadlineMs: number): Promise<{ ms: number; staleMs: number; requests: number }> {
  let staleMs = 0;
  for (let requests = 1; ; requests += 1) {
    const answer = await send();
    const ms = nowMs() - committedAt;
    if (answer.status === 401 || answer.status === 403) return { ms, staleMs, requests };
    staleMs = ms;
    if (answer.status !== 200) throw new Error(`unexpected ${answer.status}: ${JSON.stringify(answer.body)}`);
    if (ms > deadlineMs) throw new Error(`still accepted ${Math.round(ms)} ms after the commit`);
  }
}

async function main(): Promise<void> {
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('DATABASE_URL must name the Postgres both instances share');
  const perKind = intFromEnv('BENCH_PROPAGATION_CHANGES', 25, 1);
  const deadlineMs = intFromEnv('BENCH_PROPAGATION_DEADLINE_MS', 2_000, 100);
  const out = resolve(PROJECT_ROOT, process.env['BENCH_OUT'] ?? 'docs/benchmarks.md');
  const startedAt = new Date();
  const loadBefore = loadAverage();

  const runnerKind = process.env['BENCH_RUNNER'] ?? 'compiled';
  const runner = prepareRunner(runnerKind);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS'];
  const [a, b] = await Promise.all([
    ServerProcess.start('A', runner, 'service-server', env, { launcher: 'production' }),
    ServerProcess.start('B', runner, 'service-server', env, { launcher: 'production' }),
  ]);
  const operator = new Client({ connectionString: databaseUrl });
  await operator.connect();
  const downstream = await startDownstream(b.url, databaseUrl);
  const observations: Observation[] = [];
  const baseline: number[] = [];
  try {
    // One tenant; the owner's token drives the API; every key and member is the bench's own.
    const email = `bench-propagation-${randomUUID()}@example.com`;
    const signup = await call(a.url, 'POST', '/signup', {}, { email, password: PASSWORD, tenant_name: 'Propagation' });
    if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
    const tenantId = signup.body['tenant_id'] as string;
    const owner = { authorization: `Bearer ${signup.body['token'] as string}` };

    const keyCount = perKind * 3 + 1; // sql revoke, sql expiry, api revoke, and one kept for the baseline
    const keys: Array<{ id: string; raw: string }> = [];
    for (let i = 0; i < keyCount; i += 1) {
      const created = await call(a.url, 'POST', '/api-keys', owner, { name: `propagation ${i}` });
      if (created.status !== 201) throw new Error(`api key: ${created.status}`);
      keys.push({ id: created.body['id'] as string, raw: created.body['api_key'] as string });
    }
    // Members for the role changes, written as an operator would; tokens signed as the service signs them.
    const memberId = await insertMember(operator, tenantId);
    const tokenAt = (version: number, role: string) => memberToken(tenantId, memberId, role, version);

    const instances = [{ name: 'A' as const, server: a }, { name: 'B' as const, server: b }];
    const asked = instances.map(({ name, server }) => ({ name, ask: (headers: Record<string, string>) => call(server.url, 'GET', '/me', headers) }));
    const kept = keys.pop()!;
    // Warm both: every key used once on each instance, and the baseline round trip.
    for (const { server } of instances) for (const key of [...keys, kept]) await call(server.url, 'GET', '/me', { 'x-api-key': key.raw });
    for (let i = 0; i < 200; i += 1) {
      for (const { server } of instances) {
        const start = nowMs();
        const answer = await call(server.url, 'GET', '/me', { 'x-api-key': kept.raw });
        baseline.push(nowMs() - start);
        if (answer.status !== 200) throw new Error(`baseline: ${answer.status}`);
      }
    }

    let version = 0;
    let role = 'member';
    const schedule: Kind[] = [];
    for (let i = 0; i < perKind; i += 1) schedule.push(...KINDS);
    for (const kind of schedule) {
      let probe: () => Record<string, string>;
      let commit: () => Promise<void>;
      let where: Array<{ name: Observation['instance']; ask: (headers: Record<string, string>) => Promise<Answer> }> = asked;
      if (kind === 'api logout') {
        const login = await call(a.url, 'POST', '/login', {}, { email, password: PASSWORD });
        if (login.status !== 200) throw new Error(`login: ${login.status}`);
        const session = { authorization: `Bearer ${login.body['token'] as string}` };
        where = [...asked, { name: 'downstream', ask: (headers) => downstream.whoami(headers) }];
        for (const { ask } of where) {
          const answer = await ask(session);
          if (answer.status !== 200) throw new Error(`session token not accepted before the logout: ${answer.status}`);
        }
        probe = () => session;
        commit = async () => {
          const answer = await call(a.url, 'POST', '/logout', session);
          if (answer.status !== 204) throw new Error(`logout: ${answer.status}`);
        };
      } else if (kind === 'sql role') {
        const held = tokenAt(version, role);
        for (const { server } of instances) {
          const answer = await call(server.url, 'GET', '/me', held);
          if (answer.status !== 200) throw new Error(`member token not accepted before the change: ${answer.status}`);
        }
        role = role === 'member' ? 'viewer' : 'member';
        version += 1; // the trigger raises it with the role
        probe = () => held;
        commit = async () => {
          await operator.query('update users set role = $1 where id = $2', [role, memberId]);
        };
      } else {
        const key = keys.pop()!;
        probe = () => ({ 'x-api-key': key.raw });
        commit = kind === 'sql revoke'
          ? async () => { await operator.query('update api_keys set revoked = true where id = $1', [key.id]); }
          : kind === 'sql expiry'
            ? async () => { await operator.query(`update api_keys set expires_at = now() - interval '1 minute' where id = $1`, [key.id]); }
            : async () => {
              const answer = await call(a.url, 'DELETE', `/api-keys/${key.id}`, owner);
              if (answer.status !== 200) throw new Error(`revoke through the API: ${answer.status}`);
            };
      }
      await commit();
      const committedAt = nowMs();
      const seen = await Promise.all(where.map(async ({ name, ask }) => {
        const { ms, staleMs, requests } = await untilRefused(() => ask(probe()), committedAt, deadlineMs);
        return { kind, instance: name, firstRefused: requests === 1, staleMs, ms, requests };
      }));
      observations.push(...seen);
    }
  } finally {
    await downstream.close().catch(() => undefined);
    await operator.end().catch(() => undefined);
    await Promise.all([a.stop(), b.stop()]);
  }

  const section = render({ startedAt, loadBefore, loadAfter: loadAverage(), perKind, baseline, observations, databaseUrl, runnerKind });
  writePropagationSection(out, section);
  console.log(section);
  console.log(`\nbench: wrote ${out}`);
}

interface Report {
  readonly startedAt: Date;
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly perKind: number;
  readonly baseline: readonly number[];
  readonly observations: readonly Observation[];
  readonly databaseUrl: string;
  /** BENCH_RUNNER: `compiled` (dist-like JavaScript) or `tsx` (the sources through a loader). */
  readonly runnerKind: string;
}

const f = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

function render(report: Report): string {
  const { observations, baseline } = report;
  const base = median(baseline);
  const rows = (label: string, subset: readonly Observation[]): string => {
    const ms = subset.map((o) => o.ms);
    const first = subset.filter((o) => o.firstRefused).length;
    const stale = max(subset.map((o) => o.staleMs));
    return `| ${label} | ${subset.length} | ${first} of ${subset.length} | ${f(stale)} | ${f(median(ms))} | ${f(max(ms))} | ${(median(ms) / base).toFixed(1)}× |`;
  };
  const sql = observations.filter((o) => o.kind.startsWith('sql'));
  const worst = max(sql.map((o) => o.staleMs));
  const atInstances = (kind: Kind) => observations.filter((o) => o.kind === kind && o.instance !== 'downstream');
  const atDownstream = observations.filter((o) => o.instance === 'downstream');
  const downstreamMs = atDownstream.map((o) => o.ms);
  const machine = describeMachine();
  return [
    '## Credential changes: from commit to refusal, two instances',
    '',
    `- **Date:** ${report.startedAt.toISOString()}`,
    `- **Command:** \`${report.runnerKind === 'compiled' ? '' : `BENCH_RUNNER=${report.runnerKind} `}BENCH_PROPAGATION_CHANGES=${report.perKind} DATABASE_URL=postgres://… npm run bench:propagation\` (\`scripts/bench/propagation.ts\`)`,
    `- **Machine:** ${machine.cores} CPUs (nproc), ${machine.cpuModel}; Node ${machine.node}; shared with other work (load average before ${report.loadBefore.map((l) => l.toFixed(2)).join(' / ')}, after ${report.loadAfter.map((l) => l.toFixed(2)).join(' / ')})`,
    `- **Database:** ${redactUrl(report.databaseUrl)}; two service processes (${report.runnerKind === 'tsx' ? 'the sources through tsx' : 'compiled'}, launched through scripts/start.sh), each with its own pool, cache and listener; the SQL changes on an operator's own connection`,
    `- **Method:** ${report.perKind} changes of each kind, one at a time; after each commit returns, both instances are asked back to back, without pause, until each refuses (for a logout, the downstream service too: the example app over the client library in the bench's process, following instance B's change stream and introspecting on B, which had admitted the token before; it asks GET /whoami). "First request refused": the first request sent after the commit was already refused (the next request is refused). "Stale window": how long after the commit the old credential was still honoured, at most (the answer time of the last request accepted after the commit; 0 when the first was refused). "Time to refusal": from the commit's return to the refused answer, that request's own round trip included.`,
    `- **Baseline (same run):** one GET /me round trip with a key both instances hold in memory, ${baseline.length} sequential requests: median ${f(base)} ms, p95 ${f(percentile(baseline, 95))} ms.`,
    '',
    '| Change | Observations (changes × places asked) | First request refused | Worst stale window, ms | Time to refusal, median ms | Time to refusal, worst ms | Median time to refusal ÷ baseline median |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...KINDS.map((kind) => rows(kind === 'api logout' ? 'api logout, on A and B' : kind, atInstances(kind))),
    rows('api logout, at the downstream (client library following B)', atDownstream),
    rows('**all SQL changes**', sql),
    '',
    `**A session ended by logout on instance A, at a downstream service following instance B: refused a median ${f(median(downstreamMs))} ms, at worst ${f(max(downstreamMs))} ms after the commit returned** (${atDownstream.length} logouts; the event crosses from A to B through Postgres, then B's change stream to the client library, which forgets the session and asks B again).`,
    '',
    `**Worst case over ${sql.length / 2} changes written in SQL, on either instance: the old credential was honoured at most ${f(worst)} ms after the commit** (target: 100 ms) — ${worst <= 100 ? 'met' : 'NOT met'}.`,
  ].join('\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error('bench:propagation failed:', error);
    process.exit(1);
  });
}
