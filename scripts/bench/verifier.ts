/**
 * The verifier bench (part of `npm run bench`): the client library's downstream service and
 * Portcullis's introspection against the bare-Express baseline, alternated in one run, and how long
 * a revocation takes to reach a downstream service. Needs DATABASE_URL (Postgres: several instances
 * are the point of the change feed, and the service key is made as the schema's owner). Writes its
 * own section of docs/benchmarks.md, between the bench:verifier markers.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { portcullis, type CredentialChange } from '../../packages/client/src';
import { downstreamApp } from '../../examples/downstream/app';
import { ManageServiceKeys } from '../../src/application/service-keys/manage-service-keys';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { ALL_TENANTS } from '../../src/domain/service-key';
import { prepareRunner, PROJECT_ROOT, ServerProcess } from './children';
import { AUTH_BASE } from './protocol';
import { pinForComparison } from './pinning';
import { markedBlock, VERIFIER_END, VERIFIER_START } from './report';
import type { RunSample } from './results';
import { alternate } from './scenarios';
import { describeCommand, describeMachine, loadAverage, readSettings, redactUrl } from './settings';
import { max, median, percentile } from './stats';

const ROUNDS = Number(process.env['BENCH_REVOCATIONS'] ?? 100);
const PASSWORD = 'bench verifier password';
/** A revocation not heard within this long counts as not delivered. */
const DELIVERY_TIMEOUT_MS = 2_000;
const NOTES_START = '<!-- bench:notes:start -->';

const running: ServerProcess[] = [];

function log(message: string): void {
  console.log(`bench(verifier): ${message}`);
}

async function call<T>(base: string, method: string, path: string, options: { token?: string; json?: unknown; expect: number }): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
  });
  const text = await res.text();
  if (res.status !== options.expect) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

function userIdOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { userId: string }).userId;
}

interface LatencyResult {
  readonly name: string;
  /** Milliseconds from sending the committing statement to the change arriving downstream. */
  readonly latencies: number[];
  readonly undelivered: number;
  /** Rounds after whose change the downstream service still admitted the credential. */
  readonly stillAdmitted: number;
  readonly note?: string;
}

/** An in-process downstream service (the example app over the library) that reports when each change arrives. */
async function listeningDownstream(url: string, serviceKey: string) {
  const waiters = new Map<string, (at: number) => void>();
  const idOf = (change: CredentialChange) => (change.kind === 'user' ? `user:${change.userId}` : change.kind === 'api_key' ? `key:${change.keyId}` : `session:${change.sessionId}`);
  const auth = portcullis({ url, serviceKey, onChange: (change) => waiters.get(idOf(change))?.(performance.now()), onError: () => undefined });
  await auth.feedReady();
  const server = downstreamApp(auth).listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    whoami: async (headers: Record<string, string>) => (await fetch(`${base}/whoami`, { headers })).status,
    /** Resolves with the arrival time of the change for `id` (`user:…`, `key:…`), or null after the timeout. */
    arrival: (id: string) => new Promise<number | null>((done) => {
      const timer = setTimeout(() => {
        waiters.delete(id);
        done(null);
      }, DELIVERY_TIMEOUT_MS);
      waiters.set(id, (at) => {
        clearTimeout(timer);
        waiters.delete(id);
        done(at);
      });
    }),
    close: async () => {
      auth.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

type Downstream = Awaited<ReturnType<typeof listeningDownstream>>;

async function measureRevocations(
  name: string, downstream: Downstream, rounds: number,
  prepare: () => Promise<{ id: string; headers: Record<string, string> }>,
  revoke: (id: string) => Promise<void>,
): Promise<LatencyResult> {
  const latencies: number[] = [];
  let undelivered = 0;
  let stillAdmitted = 0;
  for (let round = 0; round < rounds; round += 1) {
    const { id, headers } = await prepare();
    if (await downstream.whoami(headers) !== 200) throw new Error(`${name}: the credential was not admitted before its revocation`);
    const arrival = downstream.arrival(id);
    const sent = performance.now();
    await revoke(id);
    const arrived = await arrival;
    if (arrived === null) undelivered += 1;
    else latencies.push(arrived - sent);
    if (await downstream.whoami(headers) === 200) stillAdmitted += 1;
    if (round === 0 && arrived === null) return { name, latencies, undelivered, stillAdmitted, note: 'the first change did not arrive: not measured further' };
  }
  return { name, latencies, undelivered, stillAdmitted };
}

function rpsOf(samples: readonly RunSample[]): number {
  return median(samples.map((s) => s.load.rps));
}

function table(rows: readonly string[][]): string {
  return rows.map((row) => `| ${row.join(' | ')} |`).join('\n').replace(/\n/, `\n|${' --- |'.repeat(rows[0]!.length)}\n`);
}

async function main(): Promise<void> {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    console.warn('bench(verifier): skipped: it needs DATABASE_URL (Postgres)');
    return;
  }
  const settings = readSettings();
  const started = new Date();
  const loadBefore = loadAverage();
  // Before pinning: afterwards this process may run on one core only, and would say so.
  const machine = describeMachine();
  const runner = prepareRunner(settings.runner);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS'];

  const service = await ServerProcess.start('service', runner, 'service-server', env, { launcher: 'production' });
  running.push(service);
  const owner = openPostgres(url, { max: 1 });
  const manage = new ManageServiceKeys({
    serviceKeys: new KyselyServiceKeyRepository(owner.db), ids: new RandomUuidGenerator(), secrets: new NodeSecrets(), clock: new SystemClock(),
  });
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const { rawKey } = await manage.create(`bench-verifier-${runId}`, ALL_TENANTS);
  const signup = await call<{ token: string; tenant_id: string }>(service.url, 'POST', `${AUTH_BASE}/signup`, {
    json: { email: `bench-${runId}-verifier@example.com`, password: PASSWORD, tenant_name: `Bench verifier ${runId}` }, expect: 201,
  });
  const ownerToken = signup.token;
  const whoamiBody = JSON.stringify({ tenant_id: signup.tenant_id, user_id: userIdOf(ownerToken), role: 'owner', method: 'jwt' });

  const pinning = pinForComparison();
  log(pinning.description);
  pinning.pinServer(service.pid);
  const baseline = await ServerProcess.start('baseline', runner, 'baseline-server', { ...env, BENCH_ME_BODY: whoamiBody }, { launcher: 'node' });
  pinning.pinServer(baseline.pid);
  running.push(baseline);
  const downstreamProcess = await ServerProcess.start('downstream', runner, 'downstream-server', {
    ...env, PORTCULLIS_URL: service.url, PORTCULLIS_SERVICE_KEY: rawKey,
  }, { launcher: 'node' });
  running.push(downstreamProcess);
  pinning.pinServer(downstreamProcess.pid);
  log(`service ${service.url}, baseline ${baseline.url}, downstream ${downstreamProcess.url}`);

  const bearer = { authorization: `Bearer ${ownerToken}` };
  log('downstream GET /whoami (cached) against the baseline');
  const cached = await alternate(baseline, downstreamProcess, settings, (target) => ({
    url: target.url, path: target === baseline ? `${AUTH_BASE}/me` : '/whoami', headers: bearer, connections: settings.connections, duration: settings.duration,
  }));
  log('POST /introspect against the baseline');
  const introspectBody = JSON.stringify({ token: ownerToken });
  const introspection = await alternate(baseline, service, settings, (target) => (target === baseline
    ? { url: target.url, path: `${AUTH_BASE}/me`, headers: bearer, connections: settings.connections, duration: settings.duration }
    : {
      url: target.url, path: `${AUTH_BASE}/introspect`, method: 'POST', body: introspectBody,
      headers: { 'content-type': 'application/json', 'x-service-key': rawKey }, connections: settings.connections, duration: settings.duration,
    }));
  const downstreamErrors = (await downstreamProcess.info()).serverErrors;
  await downstreamProcess.stop();
  await baseline.stop();

  log(`revocations: ${ROUNDS} of each kind`);
  const downstream = await listeningDownstream(service.url, rawKey);
  const newKey = async () => {
    const created = await call<{ api_key: string; id: string }>(service.url, 'POST', `${AUTH_BASE}/api-keys`, { token: ownerToken, json: {}, expect: 201 });
    return { id: `key:${created.id}`, headers: { 'x-api-key': created.api_key } };
  };
  const byApi = await measureRevocations('API key revoked through the API (DELETE /api-keys/:id)', downstream, ROUNDS, newKey,
    (id) => call(service.url, 'DELETE', `${AUTH_BASE}/api-keys/${id.slice(4)}`, { token: ownerToken, expect: 200 }));
  const removed = await measureRevocations('Member removed (DELETE /members/:id)', downstream, ROUNDS, async () => {
    const email = `bench-${runId}-m${randomBytes(4).toString('hex')}@example.com`;
    const invite = await call<{ invite_token: string }>(service.url, 'POST', `${AUTH_BASE}/invite`, { token: ownerToken, json: { email, role: 'member' }, expect: 201 });
    const joined = await call<{ token: string }>(service.url, 'POST', `${AUTH_BASE}/signup`, {
      json: { email, password: PASSWORD, invite_token: invite.invite_token }, expect: 201,
    });
    return { id: `user:${userIdOf(joined.token)}`, headers: { authorization: `Bearer ${joined.token}` } };
  }, (id) => call(service.url, 'DELETE', `${AUTH_BASE}/members/${id.slice(5)}`, { token: ownerToken, expect: 200 }));
  const rawSql = await measureRevocations('API key revoked in raw SQL (UPDATE api_keys SET revoked = true)', downstream, ROUNDS, newKey, async (id) => {
    await owner.db.updateTable('api_keys').set({ revoked: true }).where('id', '=', id.slice(4)).execute();
  });
  await downstream.close();
  await service.stop();
  await owner.close();

  const cachedRatio = rpsOf(cached.service) / rpsOf(cached.baseline);
  const introspectRatio = rpsOf(introspection.service) / rpsOf(introspection.baseline);
  const verdict = (ok: boolean) => (ok ? '**PASS**' : '**FAIL**');
  const latencyRow = (result: LatencyResult): string[] => {
    const delivered = result.latencies.length;
    if (delivered === 0) return [result.name, 'not delivered', '–', '–', `${result.undelivered} of ${result.undelivered} not heard within ${DELIVERY_TIMEOUT_MS} ms${result.note ? ` (${result.note})` : ''}`, '**NOT MET**'];
    const worst = max(result.latencies);
    const ok = result.undelivered === 0 && result.stillAdmitted === 0 && worst < 100;
    return [result.name, `${delivered}`, `${median(result.latencies).toFixed(1)} ms`, `${percentile(result.latencies, 99).toFixed(1)} ms`,
      `${worst.toFixed(1)} ms; undelivered ${result.undelivered}; still admitted after the change ${result.stillAdmitted}`, verdict(ok)];
  };
  const section = `${VERIFIER_START}
## Verifying services (client library, introspection, change feed)

- **Date:** ${started.toISOString()} (${((Date.now() - started.getTime()) / 60_000).toFixed(1)} min)
- **Command:** \`${describeCommand().replace('scripts/bench/run.ts', 'scripts/bench/verifier.ts')}\` (this section: \`scripts/bench/verifier.ts\`, run by \`npm run bench\` after the main scenarios)
- **Machine:** ${machine.cores} CPUs (${machine.cpuModel}), Node ${machine.node}, shared with other work; load average before ${loadBefore.map((n) => n.toFixed(2)).join(' / ')}, after ${loadAverage().map((n) => n.toFixed(2)).join(' / ')}
- **Database:** Postgres at ${redactUrl(url)}
- **Settings:** ${settings.reps} repetitions × ${settings.duration} s after ${settings.warmup} s of warm-up, ${settings.connections} connections, alternated with the baseline (B S B S …); medians. ${ROUNDS} revocations of each kind, one at a time.
- **CPU:** ${pinning.description}.
- **Processes:** Portcullis as \`npm start\` runs it (scripts/start.sh, compiled); the baseline (bare Express answering the same JSON body) and the downstream service (examples/downstream over packages/client, compiled, plain node) each in their own process; autocannon in the bench process. The downstream service announces itself only once its change feed is open, so each measured request is a cached one (a credential seen before).
- **Revocation latency** is measured from the moment the bench sends the statement that commits the change (the HTTP request, or the SQL UPDATE) to the moment the downstream service's library hears the change on its feed: an upper bound on the time from the commit. After each change the bench checks that the downstream service refuses the credential.
- Server errors (500) in the downstream service during the throughput runs: ${downstreamErrors}.

### Targets

| Target | Figure | Result |
| --- | --- | --- |
| Downstream service, cached path (GET /whoami, bearer): ≥ 90% of baseline req/s | ${(cachedRatio * 100).toFixed(1)}% (${rpsOf(cached.service).toFixed(0)} vs ${rpsOf(cached.baseline).toFixed(0)} req/s) | ${verdict(cachedRatio >= 0.9)} |
| Introspection (POST /introspect, bearer token): ≥ 60% of baseline req/s | ${(introspectRatio * 100).toFixed(1)}% (${rpsOf(introspection.service).toFixed(0)} vs ${rpsOf(introspection.baseline).toFixed(0)} req/s) | ${verdict(introspectRatio >= 0.6)} |

### Revocation reaching the downstream service (target: worst case < 100 ms)

${table([['Change', 'Delivered', 'p50', 'p99', 'Worst', 'Result'], latencyRow(byApi), latencyRow(removed), latencyRow(rawSql)])}

### Runs

${table([['Scenario', 'Process', 'req/s (each repetition)', 'p50 latency (median)', 'CPU ms/request (median)'],
    ...([['Cached /whoami', cached], ['Introspection', introspection]] as const).flatMap(([name, result]) => [
      [name, 'baseline', result.baseline.map((s) => s.load.rps.toFixed(0)).join(', '), `${median(result.baseline.map((s) => s.load.p50)).toFixed(2)} ms`, median(result.baseline.map((s) => s.cpuPerRequest)).toFixed(3)],
      [name, name === 'Introspection' ? 'Portcullis' : 'downstream', result.service.map((s) => s.load.rps.toFixed(0)).join(', '), `${median(result.service.map((s) => s.load.p50)).toFixed(2)} ms`, median(result.service.map((s) => s.cpuPerRequest)).toFixed(3)],
    ])])}
${VERIFIER_END}`;
  console.log(`\n${section}`);
  const out = resolve(PROJECT_ROOT, settings.out);
  const previous = existsSync(out) ? readFileSync(out, 'utf8') : '';
  const existing = markedBlock(previous, VERIFIER_START, VERIFIER_END);
  let next: string;
  if (existing) next = previous.replace(existing, section);
  else if (previous.includes(NOTES_START)) next = previous.replace(NOTES_START, `${section}\n\n${NOTES_START}`);
  else next = `${previous.trimEnd()}\n\n${section}\n`;
  writeFileSync(out, next);
  log(`wrote the verifier section of ${settings.out}`);
}

main().catch(async (error: unknown) => {
  console.error('bench(verifier) failed:', error);
  await Promise.all(running.map((child) => child.stop()));
  process.exit(1);
});
