/**
 * The credential check as credentials grow (`BENCH_GROWTH=1 npm run bench`, Postgres only): GET /me
 * rotated through N distinct API keys, and through N members' bearer tokens, of one tenant, side by
 * side with the bare-Express baseline in the same run (alternated, medians), with the service's
 * default settings (cache budget, TTL, key-usage interval). Keys and members are inserted in SQL
 * (as the schema's owner, outside the walls); keys are `pcls_` + md5(run id, n), so the load
 * generator makes each one when it sends it; tokens are signed as the service signs them.
 *
 * For each N: the credentials are used once each before measuring when the cache can hold them
 * ("after warm-up"), then B S B S ...; a larger N than the cache holds is measured as it comes (every
 * request a miss). The rotation continues from run to run, so no run starts again on keys the
 * previous one left in memory. The bench's rows are deleted at the end.
 */
import { createHash } from 'node:crypto';
import type autocannon from 'autocannon';
import { Client } from 'pg';
import { jwtKey } from '../../src/adapters/crypto/jwt-signing-keys';
import { JwtTokenService, TOKEN_ENTRY_BYTES } from '../../src/adapters/crypto/jwt-token-service';
import { KEY_ENTRY_BYTES, MEMBER_ENTRY_BYTES } from '../../src/adapters/cache/cached-credential-states';
import { loadConfig } from '../../src/bootstrap/config';
import { type Runner, ServerProcess } from './children';
import { runLoad } from './load';
import { AUTH_BASE, BENCH_JWT_SECRET } from './protocol';
import type { RunSample } from './results';
import { alternate, seed } from './scenarios';
import { describeCommand, describeMachine, loadAverage, type Settings } from './settings';
import { max, median } from './stats';

export interface GrowthSettings {
  /** Numbers of API keys rotated through, one scenario each. */
  readonly keys: readonly number[];
  /** Numbers of members (bearer tokens) rotated through. */
  readonly members: readonly number[];
}

/**
 * The bench's members and keys, deleted a thousand at a time. Each deleted row takes a position in
 * the credential change log, and one transaction that moves the log's one counter row 100,000 times
 * slows down with every update (each is a new version of the same row); short transactions do not.
 */
async function deleteBenchRows(client: Client, owner: { tenantId: string; userId: string }): Promise<void> {
  const batches = [
    'delete from api_keys where id in (select id from api_keys where tenant_id = $1 limit 1000)',
    'delete from users where id in (select id from users where tenant_id = $1 and id <> $2 limit 1000)',
  ];
  for (const [i, statement] of batches.entries()) {
    const params = i === 0 ? [owner.tenantId] : [owner.tenantId, owner.userId];
    while (((await client.query(statement, params)).rowCount ?? 0) > 0);
  }
}

export function readGrowthSettings(): GrowthSettings {
  const list = (name: string, fallback: readonly number[]): number[] => {
    const raw = process.env[name];
    if (raw === undefined || raw.trim() === '') return [...fallback];
    const values = raw.split(',').map((part) => Number(part.trim()));
    if (values.some((n) => !Number.isSafeInteger(n) || n < 1)) throw new Error(`${name} must be a comma-separated list of whole numbers, not ${raw}`);
    return values;
  };
  return { keys: list('BENCH_GROWTH_KEYS', [1_000, 100_000, 1_000_000]), members: list('BENCH_GROWTH_MEMBERS', [100_000]) };
}

interface GrowthRow {
  readonly kind: 'api-key' | 'bearer';
  readonly n: number;
  readonly warmed: boolean;
  readonly baseline: RunSample[];
  readonly service: RunSample[];
}

export interface GrowthResult {
  readonly startedAt: Date;
  readonly finishedAt: Date;
  readonly command: string;
  readonly source: { readonly commit: string; readonly dirtySrcFiles: number };
  readonly settings: Settings;
  readonly cacheCapacity: { readonly keys: number; readonly members: number; readonly mb: number };
  /** The verified-token memory's default budget, and the bench's tokens it holds. */
  readonly tokenCapacity: { readonly tokens: number; readonly mb: number };
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  readonly seedSeconds: number;
  readonly rows: GrowthRow[];
  readonly serverErrors: number;
}

function log(message: string): void {
  console.log(`bench: growth: ${message}`);
}

/** Raw key number `n` of a run: 37 characters, as the service makes them (prefix and 32 hex digits). */
function rawKey(runId: string, n: number): string {
  return `pcls_${createHash('md5').update(`${runId}:${n}`).digest('hex')}`;
}

async function insertKeys(client: Client, runId: string, tenantId: string, userId: string, count: number): Promise<void> {
  await client.query(
    `insert into api_keys (id, tenant_id, user_id, key_prefix, key_hash, revoked, created_at)
     select gen_random_uuid(), $1, $2, substr(raw, 1, 13), encode(sha256(convert_to(raw, 'UTF8')), 'hex'), false, now()
     from (select 'pcls_' || md5($3 || ':' || n) as raw from generate_series(0, $4::int - 1) as n) as keys`,
    [tenantId, userId, runId, count],
  );
}

async function insertMembers(client: Client, runId: string, tenantId: string, count: number): Promise<{ id: string; email: string }[]> {
  const { rows } = await client.query<{ id: string; email: string }>(
    `insert into users (id, tenant_id, email, password_hash, role, created_at, auth_version)
     select gen_random_uuid(), $1, 'bench-' || $2 || '-member-' || n || '@example.com', 'scrypt$bench$not-a-hash', 'member', now(), 0
     from generate_series(0, $3::int - 1) as n
     returning id, email`,
    [tenantId, runId, count],
  );
  return rows;
}

/** A rotation through `count` credentials that goes on from one run to the next. */
function rotation(count: number, header: (n: number) => [string, string]): () => (request: autocannon.Request) => autocannon.Request {
  let next = 0;
  return () => (request) => {
    const [name, value] = header(next++ % count);
    return { ...request, headers: { ...request.headers, [name]: value } };
  };
}

export async function runGrowth(
  settings: Settings, growth: GrowthSettings, runner: Runner, env: NodeJS.ProcessEnv, source: GrowthResult['source'],
  track: (server: ServerProcess | undefined, started: boolean) => void,
): Promise<GrowthResult> {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('BENCH_GROWTH needs DATABASE_URL (Postgres)');
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const budget = loadConfig({}).credentialCache.memoryBytes; // the service's default
  const capacity = { keys: Math.floor(budget / KEY_ENTRY_BYTES), members: Math.floor(budget / MEMBER_ENTRY_BYTES), mb: budget / 2 ** 20 };
  const tokenBudget = loadConfig({}).verifiedTokens.memoryBytes;
  let tokenCapacity = { tokens: 0, mb: tokenBudget / 2 ** 20 };

  const service = await ServerProcess.start('service', runner, 'service-server', env, { launcher: 'production' });
  track(service, true);
  const seeded = await seed(service, { ...settings, apiKeys: 1, freshKeys: 1, invites: 1 });
  const owner = new JwtTokenService({ signing: jwtKey(BENCH_JWT_SECRET) }).verify(seeded.token)!;
  const baseline = await ServerProcess.start('baseline', runner, 'baseline-server', { ...env, BENCH_ME_BODY: seeded.meBody }, { launcher: 'node' });
  track(baseline, true);

  const client = new Client({ connectionString: url });
  await client.connect();
  const rows: GrowthRow[] = [];
  let seedSeconds = 0;
  try {
    const seedStarted = Date.now();
    const mostKeys = Math.max(0, ...growth.keys);
    log(`inserting ${mostKeys} API keys in SQL`);
    if (mostKeys > 0) await insertKeys(client, seeded.runId, owner.tenantId, owner.userId, mostKeys);
    const mostMembers = Math.max(0, ...growth.members);
    log(`inserting ${mostMembers} members in SQL and signing their tokens`);
    const members = mostMembers > 0 ? await insertMembers(client, seeded.runId, owner.tenantId, mostMembers) : [];
    const tokens = new JwtTokenService({ signing: jwtKey(BENCH_JWT_SECRET) });
    const bearers = members.map((m) => `Bearer ${tokens.issue({ tenantId: owner.tenantId, userId: m.id, email: m.email, role: 'member', authVersion: 0 })}`);
    // As the token memory counts an entry: its fixed part and the characters of its claims.
    const claimChars = members.length ? owner.tenantId.length + members[0]!.id.length + members[0]!.email.length + 'member'.length : 0;
    tokenCapacity = { ...tokenCapacity, tokens: Math.floor(tokenBudget / (TOKEN_ENTRY_BYTES + claimChars)) };
    await client.query('analyze api_keys; analyze users');
    seedSeconds = (Date.now() - seedStarted) / 1000;

    const me = `${AUTH_BASE}/me`;
    const scenarios = [
      ...growth.keys.map((n) => ({ kind: 'api-key' as const, n, header: (i: number): [string, string] => ['x-api-key', rawKey(seeded.runId, i)] })),
      ...growth.members.map((n) => ({ kind: 'bearer' as const, n, header: (i: number): [string, string] => ['authorization', bearers[i]!] })),
    ].sort((a, b) => a.n - b.n || (a.kind === 'api-key' ? -1 : 1));
    for (const scenario of scenarios) {
      const rotate = rotation(scenario.n, scenario.header);
      // Warmed when they fit in half the cache, so that the other kind's scenario leaves them room,
      // and tokens in the token memory, which only they use.
      const warmed = scenario.kind === 'api-key'
        ? scenario.n <= capacity.keys / 2
        : scenario.n <= capacity.members / 2 && scenario.n <= tokenCapacity.tokens;
      log(`${scenario.kind === 'api-key' ? 'API keys' : 'members'}: ${scenario.n} rotated${warmed ? ', each used once before measuring' : ' (more than the cache holds: measured as they come)'}`);
      const result = await alternate(baseline, service, settings, (target) => ({
        url: target.url, path: me, connections: settings.connections, duration: settings.duration, setupRequest: rotate(),
      }), warmed ? async () => {
        const started = Date.now();
        await runLoad({ url: service.url, path: me, connections: settings.connections, duration: 3_600, amount: scenario.n, setupRequest: rotate() });
        log(`  warm-up: ${scenario.n} first uses in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      } : undefined);
      rows.push({ kind: scenario.kind, n: scenario.n, warmed, ...result });
    }
  } finally {
    log('deleting the bench rows');
    const failed = (error: unknown): void => console.warn(`bench: growth: could not delete the bench rows of tenant ${owner.tenantId}:`, error);
    await deleteBenchRows(client, owner).catch(failed);
    await client.end();
  }
  const { serverErrors } = await service.info();
  await baseline.stop();
  track(baseline, false);
  await service.stop();
  track(service, false);
  return {
    startedAt, finishedAt: new Date(), command: describeCommand(), source, settings,
    cacheCapacity: capacity, tokenCapacity,
    loadBefore, loadAfter: loadAverage(), seedSeconds, rows, serverErrors,
  };
}

const MB = 2 ** 20;

function fmt(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

/** The growth section of docs/benchmarks.md. */
export function renderGrowth(r: GrowthResult): string {
  const machine = describeMachine();
  const lines: string[] = [];
  lines.push('## Growth: the credential check as keys and members grow (Postgres)');
  lines.push('');
  lines.push(`- **Date:** ${r.startedAt.toISOString()} (${((r.finishedAt.getTime() - r.startedAt.getTime()) / 60000).toFixed(1)} min)`);
  lines.push(`- **Command:** \`${r.command}\``);
  lines.push(`- **Machine:** ${machine.cores} CPUs (nproc), ${machine.cpuModel}, ${machine.totalMemoryGiB.toFixed(1)} GiB RAM; ${machine.os}; Node ${machine.node}`);
  lines.push(`- **Source:** commit ${r.source.commit}${r.source.dirtySrcFiles ? `, ${r.source.dirtySrcFiles} file(s) under src changed` : ', clean src'}`);
  lines.push(`- **Settings:** ${r.settings.reps} repetitions × ${r.settings.duration} s per run after ${r.settings.warmup} s of warm-up per process, ${r.settings.connections} connections; the service's defaults otherwise: credential cache ${fmt(r.cacheCapacity.mb)} MB (${r.cacheCapacity.keys} keys or ${r.cacheCapacity.members} members), verified tokens ${fmt(r.tokenCapacity.mb)} MB (${r.tokenCapacity.tokens} of the bench's tokens), key usage written once a minute. Seeding (keys and members in SQL, tokens signed) took ${fmt(r.seedSeconds, 1)} s.`);
  lines.push(`- **Load average** before: ${r.loadBefore.map((v) => v.toFixed(2)).join(' / ')}, after: ${r.loadAfter.map((v) => v.toFixed(2)).join(' / ')}. Server errors (500): ${r.serverErrors}.`);
  lines.push('');
  lines.push('Medians over the repetitions; "vs base" is the service\'s req/s as a share of the baseline\'s median in the same scenario; CPU µs/req is each process\'s own CPU time per answered request (less sensitive to a busy machine than req/s). RSS is the service\'s peak over the scenario\'s measured runs; "others\' CPU" the most any run saw other processes use (Postgres apart).');
  lines.push('');
  lines.push('| Credentials rotated | Credential | Baseline req/s | Service req/s | vs base | Baseline p99 ms | Service p99 ms | CPU µs/req, baseline / service | Service peak RSS MB | Service req/s per repetition | non-2xx | others\' CPU (Postgres) |');
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of r.rows) {
    const b = median(row.baseline.map((s) => s.load.rps));
    const s = median(row.service.map((x) => x.load.rps));
    const non2xx = row.service.reduce((sum, x) => sum + x.load.non2xx + x.load.errors, 0);
    const others = max([...row.baseline, ...row.service].map((x) => x.foreignCpu.others));
    const pg = max(row.service.map((x) => x.foreignCpu.postgres));
    lines.push(`| ${row.n.toLocaleString('en-US')}${row.warmed ? ' (after warm-up)' : ' (as they come)'} | ${row.kind === 'api-key' ? 'API key' : 'bearer token'} | ${fmt(b)} | **${fmt(s)}** | **${fmt((100 * s) / b, 1)}%** | ${fmt(median(row.baseline.map((x) => x.load.p99)), 2)} | ${fmt(median(row.service.map((x) => x.load.p99)), 2)} | ${fmt(median(row.baseline.map((x) => x.cpuPerRequest * 1000)))} / ${fmt(median(row.service.map((x) => x.cpuPerRequest * 1000)))} | ${fmt(max(row.service.map((x) => x.rssPeak)) / MB)} | ${row.service.map((x) => fmt(x.load.rps)).join(' / ')} | ${non2xx} | ${fmt(others, 2)} (${fmt(pg, 2)}) |`);
  }
  return lines.join('\n');
}
