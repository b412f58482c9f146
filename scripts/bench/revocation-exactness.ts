/**
 * `npm run bench:exactness`: is every committed credential change in force on the very next request,
 * on every instance, whoever wrote it? Counts what should be zero.
 *
 * Two service processes (the bench's service-server, compiled, launched as production launches it)
 * on one Postgres (DATABASE_URL). Changes are made one at a time; before each, the credential it
 * ends is used once on both instances (so each holds it in memory); right after the commit returns,
 * one request is sent to each instance at once, with no pause and no waiting for anything. An
 * accepted answer (200) is a change not yet in force.
 *
 *   - in SQL, on an operator's own connection: a key revoked, a key expired, a member re-roled (the
 *     token at the old auth version must be refused), a member removed;
 *   - through instance A's API: a key revoked, a member re-roled, a member removed.
 *
 * Each set runs twice: alone, and while autocannon keeps 50 connections busy on GET /me (bearer)
 * across both instances (25 each). Also reported: the time from the commit's return to the answer.
 *
 * Settings: DATABASE_URL (required), BENCH_EXACTNESS_CHANGES (changes per set and phase, default 1000).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { prepareRunner, ServerProcess } from './children';
import { type RunningLoad, startLoad } from './load';
import { type Answer, call, insertMember, intFromEnv, memberToken, nowMs } from './propagation';
import { AUTH_BASE } from './protocol';
import { describeMachine, loadAverage, redactUrl } from './settings';
import { median, percentile } from './stats';

const PASSWORD = 'correct horse battery staple';
const SQL_KINDS = ['sql revoke', 'sql expiry', 'sql role', 'sql remove'] as const;
const API_KINDS = ['api revoke', 'api role', 'api remove'] as const;
type Kind = (typeof SQL_KINDS)[number] | (typeof API_KINDS)[number];

interface Observation {
  readonly kind: Kind;
  readonly phase: 'alone' | 'under load';
  /** The old credential was still honoured by this request, sent right after the commit. */
  readonly accepted: boolean;
  /** From the commit's return to this answer. */
  readonly ms: number;
  /** A 503 (the instance could not confirm freshness): refused, but counted apart. */
  readonly unavailable: boolean;
}

interface Bench {
  readonly instances: readonly ServerProcess[];
  readonly operator: Client;
  readonly tenantId: string;
  readonly owner: Record<string, string>;
}

/** A member written as an operator would, and its token as the service signs them (auth version 0). */
async function newMember(bench: Bench): Promise<{ id: string; token: Record<string, string> }> {
  const id = await insertMember(bench.operator, bench.tenantId);
  return { id, token: memberToken(bench.tenantId, id, 'member', 0) };
}

async function newKey(bench: Bench): Promise<{ id: string; credential: Record<string, string> }> {
  const [a] = bench.instances;
  const created = await call(a!.url, 'POST', '/api-keys', bench.owner, { name: 'exactness' });
  if (created.status !== 201) throw new Error(`api key: ${created.status}`);
  return { id: created.body['id'] as string, credential: { 'x-api-key': created.body['api_key'] as string } };
}

/** The credential the change ends, the change itself, and whether an answer still honours the old state. */
async function prepare(bench: Bench, kind: Kind): Promise<{ credential: Record<string, string>; commit: () => Promise<void> }> {
  const { operator, owner } = bench;
  const a = bench.instances[0]!;
  const expectOk = async (answer: Promise<Answer>): Promise<void> => {
    const { status } = await answer;
    if (status !== 200) throw new Error(`${kind} through the API: ${status}`);
  };
  if (kind === 'sql revoke' || kind === 'sql expiry' || kind === 'api revoke') {
    const key = await newKey(bench);
    const commit = kind === 'sql revoke'
      ? async () => { await operator.query('update api_keys set revoked = true where id = $1', [key.id]); }
      : kind === 'sql expiry'
        ? async () => { await operator.query(`update api_keys set expires_at = now() - interval '1 minute' where id = $1`, [key.id]); }
        : () => expectOk(call(a.url, 'DELETE', `/api-keys/${key.id}`, owner));
    return { credential: key.credential, commit };
  }
  const member = await newMember(bench);
  const commit = {
    'sql role': async () => { await operator.query(`update users set role = 'viewer' where id = $1`, [member.id]); },
    'sql remove': async () => { await operator.query('update users set removed_at = now() where id = $1', [member.id]); },
    'api role': () => expectOk(call(a.url, 'PATCH', `/members/${member.id}`, owner, { role: 'viewer' })),
    'api remove': () => expectOk(call(a.url, 'DELETE', `/members/${member.id}`, owner)),
  }[kind];
  return { credential: member.token, commit };
}

async function runSet(bench: Bench, kinds: readonly Kind[], count: number, phase: Observation['phase']): Promise<Observation[]> {
  const observations: Observation[] = [];
  for (let i = 0; i < count; i += 1) {
    const kind = kinds[i % kinds.length]!;
    const { credential, commit } = await prepare(bench, kind);
    for (const server of bench.instances) {
      const warm = await call(server.url, 'GET', '/me', credential);
      if (warm.status !== 200) throw new Error(`${kind}: not accepted before the change (${warm.status})`);
    }
    await commit();
    const committedAt = nowMs();
    const answers = await Promise.all(bench.instances.map(async (server) => {
      const answer = await call(server.url, 'GET', '/me', credential);
      return { answer, ms: nowMs() - committedAt };
    }));
    for (const { answer, ms } of answers) {
      if (![200, 401, 503].includes(answer.status)) throw new Error(`${kind}: unexpected ${answer.status} ${JSON.stringify(answer.body)}`);
      observations.push({ kind, phase, accepted: answer.status === 200, ms, unavailable: answer.status === 503 });
    }
  }
  return observations;
}

async function main(): Promise<void> {
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('DATABASE_URL must name the Postgres both instances share');
  const count = intFromEnv('BENCH_EXACTNESS_CHANGES', 1000, 1);
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const runner = prepareRunner(process.env['BENCH_RUNNER'] ?? 'compiled');
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS'];
  const instances = await Promise.all(['A', 'B'].map((name) => ServerProcess.start(name, runner, 'service-server', env, { launcher: 'production' })));
  const operator = new Client({ connectionString: databaseUrl });
  await operator.connect();
  const observations: Observation[] = [];
  const loadFigures: string[] = [];
  let load: RunningLoad[] = [];
  try {
    const signup = await call(instances[0]!.url, 'POST', '/signup', {}, { email: `bench-exactness-${randomUUID()}@example.com`, password: PASSWORD, tenant_name: 'Exactness' });
    if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
    const owner = { authorization: `Bearer ${signup.body['token'] as string}` };
    const bench: Bench = { instances, operator, tenantId: signup.body['tenant_id'] as string, owner };

    for (const phase of ['alone', 'under load'] as const) {
      if (phase === 'under load') {
        load = instances.map((server) => startLoad({ url: server.url, path: `${AUTH_BASE}/me`, headers: owner, connections: 25, duration: 3_600 }));
      }
      observations.push(...await runSet(bench, SQL_KINDS, count, phase));
      observations.push(...await runSet(bench, API_KINDS, count, phase));
      if (phase === 'under load') {
        for (const running of load) running.stop();
        const results = await Promise.all(load.map((running) => running.done));
        load = [];
        loadFigures.push(...results.map((r, i) => `${instances[i]!.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, non-2xx ${r.non2xx}`));
      }
    }
  } finally {
    for (const running of load) running.stop();
    await operator.end().catch(() => undefined);
    await Promise.all(instances.map((server) => server.stop()));
  }
  console.log(render({ run: { startedAt, databaseUrl, loads: [loadBefore, loadAverage()] }, count, observations, loadFigures }));
}

interface Report {
  /** When, on what, and the load average before and after. */
  readonly run: { readonly startedAt: Date; readonly databaseUrl: string; readonly loads: readonly (readonly number[])[] };
  readonly count: number;
  readonly observations: readonly Observation[];
  readonly loadFigures: readonly string[];
}

function render(report: Report): string {
  const machine = describeMachine();
  const row = (label: string, subset: readonly Observation[]): string => {
    const ms = subset.map((o) => o.ms);
    return `| ${label} | ${subset.length} | **${subset.filter((o) => o.accepted).length}** | ${subset.filter((o) => o.unavailable).length} | ${median(ms).toFixed(2)} | ${percentile(ms, 99).toFixed(2)} |`;
  };
  const rows: string[] = [];
  for (const phase of ['alone', 'under load'] as const) {
    const inPhase = report.observations.filter((o) => o.phase === phase);
    for (const [label, kinds] of [['SQL', SQL_KINDS], ['API (instance A)', API_KINDS]] as const) {
      rows.push(row(`${phase}: ${label}`, inPhase.filter((o) => (kinds as readonly string[]).includes(o.kind))));
    }
  }
  return [
    '- **Date:** ' + report.run.startedAt.toISOString(),
    `- **Machine:** ${machine.cores} CPUs (nproc), ${machine.cpuModel}; Node ${machine.node}; shared (load average before → after: ${report.run.loads.map((l) => l.map((v) => v.toFixed(2)).join(' / ')).join(' → ')})`,
    `- **Database:** ${redactUrl(report.run.databaseUrl)}; ${report.count} changes per set and phase, each followed at once by one request to each instance`,
    ...(report.loadFigures.length > 0 ? [`- **The load (autocannon, GET /me by bearer, 25 connections per instance):** ${report.loadFigures.join('; ')}`] : []),
    '',
    '| Set | Requests after a commit | Accepted after the commit (goal 0) | 503 | Commit to answer, median ms | p99 ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error('bench:exactness failed:', error);
    process.exit(1);
  });
}
