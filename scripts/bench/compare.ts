/**
 * Before and after at the same moment: the bare-Express baseline, the service as of an earlier
 * commit and the service of the working tree, alternated on one scenario, so that a change's effect
 * can be read on a shared machine (ratios to the baseline and CPU per request, not absolute req/s).
 *
 *   npx tsx scripts/bench/compare.ts <commit> [/me|/me-key|/invites|/introspect]
 *     (default /me, bearer token; /me-key: GET /me by API key; /introspect: POST /introspect of a
 *     bearer token with a service key, which needs DATABASE_URL on Postgres: the key is made as the owner)
 *   COMPARE_REPS=7 COMPARE_SECONDS=5 DATABASE_URL=… npx tsx scripts/bench/compare.ts 1528511 /invites
 *   COMPARE_BEFORE_DATABASE_URL=postgres://…/other …   (the earlier commit on a database of its own, for
 *                                                       a change whose migration the earlier code cannot serve on)
 *
 * The earlier commit is exported with `git archive` into a temporary folder that borrows this
 * tree's packages, compiled there, and started as its own bench did: through scripts/start.sh if it
 * has one, with plain node otherwise. The working tree's service goes through scripts/start.sh.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT, prepareRunner, processCpuSeconds, RssSampler, ServerProcess, type Runner } from './children';
import { runLoad, type LoadSpec } from './load';
import { AUTH_BASE } from './protocol';
import { seed } from './scenarios';
import { readSettings } from './settings';
import { median } from './stats';
import { ManageServiceKeys } from '../../src/application/service-keys/manage-service-keys';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { ALL_TENANTS } from '../../src/domain/service-key';

/** The commit's tree, compiled into its own folder with the packages of this one. */
function compileCommit(commit: string): { dir: string; runner: Runner; hasLauncher: boolean } {
  const dir = mkdtempSync(join(tmpdir(), `portcullis-${commit.slice(0, 12)}-`));
  execFileSync('sh', ['-c', `git -C "${PROJECT_ROOT}" archive "${commit}" | tar -x -C "${dir}"`]);
  // The packages, but not this tree's compiled bench (node_modules/.cache): the old tree compiles its own.
  mkdirSync(join(dir, 'node_modules'));
  const modules = join(PROJECT_ROOT, 'node_modules');
  for (const name of readdirSync(modules)) if (name !== '.cache') symlinkSync(join(modules, name), join(dir, 'node_modules', name));
  execFileSync(process.execPath, ['--import', 'tsx', '-e', "require('./scripts/bench/children').prepareRunner('compiled')"], { cwd: dir, stdio: 'inherit' });
  return { dir, runner: { kind: 'compiled', dir: join(dir, 'node_modules', '.cache', 'portcullis-bench') }, hasLauncher: existsSync(join(dir, 'scripts', 'start.sh')) };
}

interface Target {
  readonly name: string;
  readonly server: ServerProcess;
  readonly headers: Record<string, string>;
  readonly path: string;
  readonly body?: string;
  readonly cpu: number[];
  readonly rps: number[];
  /** Each run's 2xx latency percentiles, ms. */
  readonly p50: number[];
  readonly p99: number[];
  rss: number;
  non2xx: number;
}

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** A service key for every tenant, made as the schema's owner on that database (as `npm run service-key` does). */
async function serviceKeyOn(url: string): Promise<string> {
  const owner = openPostgres(url, { max: 1 });
  try {
    const manage = new ManageServiceKeys({
      serviceKeys: new KyselyServiceKeyRepository(owner.db), ids: new RandomUuidGenerator(), secrets: new NodeSecrets(), clock: new SystemClock(),
    });
    return (await manage.create(`bench-compare-${Date.now().toString(36)}`, ALL_TENANTS)).rawKey;
  } finally {
    await owner.close();
  }
}

/** What each service is asked in the scenario: GET <path> with the credential, or an introspection of the token. */
async function request(scenario: string, seeded: { readonly token: string; readonly keys: readonly string[] }, url: string | undefined): Promise<Pick<Target, 'headers' | 'path' | 'body'>> {
  if (scenario === '/me-key') return { path: '/me', headers: { 'x-api-key': seeded.keys[0]! } };
  if (scenario !== '/introspect') return { path: scenario, headers: bearer(seeded.token) };
  if (!url?.startsWith('postgres')) throw new Error('/introspect needs DATABASE_URL on Postgres (the service key is made as the owner)');
  return {
    path: '/introspect', body: JSON.stringify({ token: seeded.token }),
    headers: { 'content-type': 'application/json', 'x-service-key': await serviceKeyOn(url) },
  };
}

const signed = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)}`;

async function main(): Promise<void> {
  const commit = process.argv[2];
  if (!commit) throw new Error('usage: compare.ts <commit> [/me|/me-key|/invites|/introspect]');
  const scenario = process.argv[3] ?? '/me';
  const reps = Number(process.env['COMPARE_REPS'] ?? 5);
  const seconds = Number(process.env['COMPARE_SECONDS'] ?? 5);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS'];

  const before = compileCommit(commit);
  const now = prepareRunner('compiled');
  const settings = { ...readSettings(), apiKeys: 1, freshKeys: 1, invites: 20 };
  const started: ServerProcess[] = [];
  try {
    const start = async (name: string, runner: Runner, launcher: 'production' | 'node', extraEnv: NodeJS.ProcessEnv = {}) => {
      const server = await ServerProcess.start(name, runner, name === 'baseline' ? 'baseline-server' : 'service-server', { ...env, ...extraEnv }, { launcher });
      started.push(server);
      return server;
    };
    const beforeDatabase = process.env['COMPARE_BEFORE_DATABASE_URL'];
    const old = await start(`service@${commit.slice(0, 7)}`, before.runner, before.hasLauncher ? 'production' : 'node',
      beforeDatabase ? { DATABASE_URL: beforeDatabase } : {});
    const current = await start('service (working tree)', now, 'production');
    const oldSeed = await seed(old, settings);
    const currentSeed = await seed(current, settings);
    const baseline = await start('baseline', now, 'node', { BENCH_ME_BODY: currentSeed.meBody });
    const targets: Target[] = [
      { name: 'baseline', server: baseline, headers: bearer(currentSeed.token), path: '/me', cpu: [], rps: [], p50: [], p99: [], rss: 0, non2xx: 0 },
      { name: old.name, server: old, ...(await request(scenario, oldSeed, beforeDatabase ?? env['DATABASE_URL'])), cpu: [], rps: [], p50: [], p99: [], rss: 0, non2xx: 0 },
      { name: current.name, server: current, ...(await request(scenario, currentSeed, env['DATABASE_URL'])), cpu: [], rps: [], p50: [], p99: [], rss: 0, non2xx: 0 },
    ];
    const spec = (t: Target, duration: number): LoadSpec => ({
      url: t.server.url, path: `${AUTH_BASE}${t.path}`, headers: t.headers, connections: 10, duration,
      ...(t.body === undefined ? {} : { method: 'POST' as const, body: t.body }),
    });
    for (const t of targets) await runLoad(spec(t, 2));
    const loadAtStart = loadavg();
    for (let rep = 0; rep < reps; rep++) {
      for (const t of rep % 2 === 0 ? targets : [...targets].reverse()) {
        const sampler = new RssSampler([t.server.pid]);
        const cpuBefore = processCpuSeconds(t.server.pid);
        const load = await runLoad(spec(t, seconds));
        t.cpu.push(((processCpuSeconds(t.server.pid) - cpuBefore) * 1e6) / (load.ok + load.non2xx));
        t.rps.push(load.rps);
        t.p50.push(load.p50);
        t.p99.push(load.p99);
        t.non2xx += load.non2xx;
        t.rss = Math.max(t.rss, sampler.stop().get(t.server.pid) ?? Number.NaN);
      }
    }
    const base = targets[0]!;
    const loads = [loadAtStart, loadavg()].map((l) => l.map((v) => v.toFixed(2)).join(' ')).join(' → ');
    console.log(`\ncompare: ${scenario} (baseline: GET /me), ${reps} alternated runs of ${seconds} s, medians; load average ${loads}`);
    for (const t of targets) {
      console.log(`${t.name.padEnd(24)} ${median(t.rps).toFixed(0).padStart(6)} req/s ${(100 * median(t.rps) / median(base.rps)).toFixed(1).padStart(5)}% of baseline`
        + `   CPU ${median(t.cpu).toFixed(0).padStart(4)} µs/req ×${(median(t.cpu) / median(base.cpu)).toFixed(2)}   p50 ${median(t.p50).toFixed(2)} ms p99 ${median(t.p99).toFixed(2)} ms   peak RSS ${(t.rss / 2 ** 20).toFixed(0)} MB`
        + `   runs ${t.rps.map((rps) => rps.toFixed(0)).join(' ')}   non-2xx ${t.non2xx}`);
    }
    const [, earlier, later] = targets as [Target, Target, Target];
    console.log(`working tree / ${earlier.name}: req/s ×${(median(later.rps) / median(earlier.rps)).toFixed(3)}, CPU per request ×${(median(later.cpu) / median(earlier.cpu)).toFixed(3)}`
      + `, latency p50 ${signed(median(later.p50) - median(earlier.p50))} ms, p99 ${signed(median(later.p99) - median(earlier.p99))} ms (medians of the runs' percentiles)`);
  } finally {
    await Promise.all(started.map((server) => server.stop()));
    rmSync(before.dir, { recursive: true, force: true }); // the symlinks go, the packages they point at stay
  }
}

main().catch((error: unknown) => {
  console.error('compare failed:', error);
  process.exit(1);
});
