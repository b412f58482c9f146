import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import { CpuMeter, processCpuSeconds, RssSampler, type ServerProcess } from './children';
import { HttpClient, runLoad, startLoad, type LoadSpec } from './load';
import { AUTH_BASE } from './protocol';
import type { FirstUseResult, LoginTimingResult, OpsResult, OpsRun, RunSample, SequentialTimings, ThroughputResult } from './results';
import type { Settings } from './settings';

/** What seeding made: the owner's credentials, the keys, and the /me body the baseline copies. */
export interface Seed {
  readonly runId: string;
  readonly ownerEmail: string;
  readonly ownerPassword: string;
  readonly token: string;
  readonly meBody: string;
  /** Rotated in the API-key scenario. */
  readonly keys: readonly string[];
  /** Never sent before the first-use timing. */
  readonly freshKeys: readonly string[];
}

const OWNER_PASSWORD = 'bench-owner-password-1';
const WRONG_PASSWORD = 'bench-wrong-password-1';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * autocannon drops the requests still in flight when a run ends, but the service goes on with them:
 * for scrypt-bound requests that is seconds of work that would land in the next run. Wait it out.
 */
async function drain(lastP99: number): Promise<void> {
  await sleep(Number.isFinite(lastP99) ? Math.max(1000, 1.5 * lastP99) : 3000);
}

function log(message: string): void {
  console.log(`bench: ${message}`);
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Over HTTP, as a client would: one owner (a new tenant), its API keys, and pending invites. Bench
 * data is recognisable by its `bench-<run id>-` e-mail prefix; it is left in the database.
 */
export async function seed(service: ServerProcess, settings: Settings): Promise<Seed> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const ownerEmail = `bench-${runId}-owner@example.com`;
  const client = new HttpClient(service.url);
  try {
    const signup = await client.json<{ token: string }>('POST', `${AUTH_BASE}/signup`, 201, {
      json: { email: ownerEmail, password: OWNER_PASSWORD, tenant_name: `Bench ${runId}` },
    });
    const bearer = { authorization: `Bearer ${signup.token}` };
    const me = await client.request('GET', `${AUTH_BASE}/me`, { headers: bearer });
    if (me.status !== 200) throw new Error(`GET /me after sign-up: ${me.status} ${me.body}`);

    const total = settings.apiKeys + settings.freshKeys;
    log(`seeding ${total} API keys and ${settings.invites} invites`);
    const created = await inParallel(Array.from({ length: total }), 8, () =>
      client.json<{ api_key: string }>('POST', `${AUTH_BASE}/api-keys`, 201, { headers: bearer }));
    const allKeys = created.map((c) => c.api_key);
    await inParallel(Array.from({ length: settings.invites }), 8, (_, i) =>
      client.json('POST', `${AUTH_BASE}/invite`, 201, { headers: bearer, json: { email: `bench-${runId}-invitee-${i}@example.com`, role: 'member' } }));
    const listed = await client.json<{ invites: unknown[] }>('GET', `${AUTH_BASE}/invites`, 200, { headers: bearer });
    if (listed.invites.length < settings.invites) throw new Error(`GET /invites lists ${listed.invites.length} invites, expected ${settings.invites}`);

    return {
      runId,
      ownerEmail,
      ownerPassword: OWNER_PASSWORD,
      token: signup.token,
      meBody: me.body,
      keys: allKeys.slice(0, settings.apiKeys),
      freshKeys: allKeys.slice(settings.apiKeys),
    };
  } finally {
    client.close();
  }
}

/** A load spec for one process; the same requests go to the baseline and to the service. */
export type SpecFor = (target: ServerProcess) => LoadSpec;

async function measured(target: ServerProcess, spec: LoadSpec): Promise<RunSample> {
  await sleep(200);
  const sampler = new RssSampler([target.pid]);
  const cpu = new CpuMeter();
  const cpuBefore = processCpuSeconds(target.pid);
  const load = await runLoad(spec);
  const cpuPerRequest = ((processCpuSeconds(target.pid) - cpuBefore) * 1000) / (load.ok + load.non2xx);
  const foreignCpu = cpu.stop();
  const rssPeak = sampler.stop().get(target.pid) ?? Number.NaN;
  return { load, rssPeak, foreignCpu, cpuPerRequest };
}

export function describeRun(name: string, sample: RunSample): string {
  const statuses = Object.entries(sample.load.statusCounts).map(([code, n]) => `${code}:${n}`).join(' ');
  return `${name.padEnd(8)} ${sample.load.rps.toFixed(0).padStart(6)} req/s  CPU ${sample.cpuPerRequest.toFixed(3)} ms/req  p50 ${sample.load.p50.toFixed(2)} ms  p99 ${sample.load.p99.toFixed(2)} ms  RSS ${(sample.rssPeak / 2 ** 20).toFixed(0)} MB  [${statuses}${sample.load.errors ? ` errors:${sample.load.errors}` : ''}]  others' CPU ${sample.foreignCpu.others.toFixed(2)}`;
}

/** Warm-up of each, then B S B S ... for `reps` repetitions (also the growth scenarios'). */
export async function alternate(
  baseline: ServerProcess, service: ServerProcess, settings: Settings, specFor: SpecFor,
  afterWarmup?: () => Promise<void>,
): Promise<{ baseline: RunSample[]; service: RunSample[] }> {
  await runLoad({ ...specFor(baseline), duration: settings.warmup });
  await runLoad({ ...specFor(service), duration: settings.warmup });
  if (afterWarmup) await afterWarmup();
  const result = { baseline: [] as RunSample[], service: [] as RunSample[] };
  for (let rep = 1; rep <= settings.reps; rep++) {
    const b = await measured(baseline, { ...specFor(baseline), duration: settings.duration });
    log(`  rep ${rep}: ${describeRun('baseline', b)}`);
    result.baseline.push(b);
    const s = await measured(service, { ...specFor(service), duration: settings.duration });
    log(`  rep ${rep}: ${describeRun('service', s)}`);
    result.service.push(s);
  }
  return result;
}

/** The three throughput scenarios, each against the bare-Express baseline. */
export async function throughputScenarios(baseline: ServerProcess, service: ServerProcess, settings: Settings, seeded: Seed): Promise<ThroughputResult[]> {
  const bearer = { authorization: `Bearer ${seeded.token}` };
  const me = `${AUTH_BASE}/me`;
  const results: ThroughputResult[] = [];

  log('scenario GET /me with a bearer token');
  const meBearer = await alternate(baseline, service, settings, (target) => ({
    url: target.url, path: me, headers: bearer, connections: settings.connections, duration: settings.duration,
  }));
  results.push({ id: 'me-bearer', title: 'GET /me, bearer token', baselineNote: 'GET /me, same headers', ...meBearer });

  log(`scenario GET /me with ${seeded.keys.length} API keys rotated`);
  const keys = seeded.keys;
  const rotating = (): ((request: autocannon.Request) => autocannon.Request) => {
    let next = 0;
    return (request) => {
      const key = keys[next++ % keys.length]!;
      return { ...request, headers: { ...request.headers, 'x-api-key': key } };
    };
  };
  const meApiKey = await alternate(baseline, service, settings, (target) => ({
    url: target.url, path: me, connections: settings.connections, duration: settings.duration, setupRequest: rotating(),
  }), async () => {
    // Every key seen at least once before measuring, even if the warm-up was too short to go round.
    await runLoad({ url: service.url, path: me, connections: settings.connections, duration: 600, amount: keys.length, setupRequest: rotating() });
  });
  results.push({ id: 'me-api-key', title: `GET /me, API key (${keys.length} keys rotated, each seen before)`, baselineNote: 'GET /me, same rotating x-api-key header', ...meApiKey });

  log(`scenario GET /invites (${settings.invites} pending invites)`);
  const invites = await alternate(baseline, service, settings, (target) => ({
    // The baseline serves only /me: it gets GET /me with the same headers.
    url: target.url, path: target === baseline ? me : `${AUTH_BASE}/invites`, headers: bearer, connections: settings.connections, duration: settings.duration,
  }));
  results.push({ id: 'invites', title: `GET /invites (${settings.invites} pending, bearer)`, baselineNote: 'GET /me, same headers', ...invites });
  return results;
}

function countStatus(statuses: Record<string, number>, status: number): void {
  statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
}

function timings(): SequentialTimings {
  return { samples: [], statuses: {} };
}

/**
 * One request at a time over one kept-alive connection: a never-used key, a key seen many times,
 * and the bearer token, interleaved so that any drift hits all three alike.
 */
export async function firstUse(service: ServerProcess, seeded: Seed): Promise<FirstUseResult> {
  log(`first use of ${seeded.freshKeys.length} never-used API keys, one at a time`);
  const client = new HttpClient(service.url);
  const result: FirstUseResult = { fresh: timings(), seen: timings(), bearer: timings() };
  const me = `${AUTH_BASE}/me`;
  try {
    for (let i = 0; i < 20; i++) await client.request('GET', me, { headers: { 'x-api-key': seeded.keys[i % seeded.keys.length]! } });
    for (let i = 0; i < seeded.freshKeys.length; i++) {
      const fresh = await client.request('GET', me, { headers: { 'x-api-key': seeded.freshKeys[i]! } });
      result.fresh.samples.push(fresh.ms);
      countStatus(result.fresh.statuses, fresh.status);
      const seen = await client.request('GET', me, { headers: { 'x-api-key': seeded.keys[(i * 7) % seeded.keys.length]! } });
      result.seen.samples.push(seen.ms);
      countStatus(result.seen.statuses, seen.status);
      const bearer = await client.request('GET', me, { headers: { authorization: `Bearer ${seeded.token}` } });
      result.bearer.samples.push(bearer.ms);
      countStatus(result.bearer.statuses, bearer.status);
    }
  } finally {
    client.close();
  }
  return result;
}

/**
 * POST /login (the owner, right password) and POST /signup (a new tenant each), alternated L S L S,
 * each with a light /healthz probe beside it and the service's event-loop delay read over IPC.
 */
export async function opsScenarios(service: ServerProcess, settings: Settings, seeded: Seed): Promise<OpsResult[]> {
  const json = { 'content-type': 'application/json' };
  const loginSpec = (): LoadSpec => ({
    url: service.url, path: `${AUTH_BASE}/login`, method: 'POST', headers: json,
    body: JSON.stringify({ email: seeded.ownerEmail, password: seeded.ownerPassword }),
    connections: settings.loginConnections, duration: settings.duration,
  });
  let signups = 0;
  const signupSpec = (): LoadSpec => ({
    url: service.url, path: `${AUTH_BASE}/signup`, method: 'POST', headers: json,
    connections: settings.loginConnections, duration: settings.duration,
    setupRequest: (request) => {
      signups += 1;
      const body = JSON.stringify({ email: `bench-${seeded.runId}-signup-${signups}@example.com`, password: 'bench-signup-password', tenant_name: `Bench signup ${signups}` });
      return { ...request, body };
    },
  });

  const once = async (spec: LoadSpec): Promise<OpsRun> => {
    await sleep(200);
    service.resetLoopDelay();
    const sampler = new RssSampler([service.pid]);
    const cpu = new CpuMeter();
    const cpuBefore = processCpuSeconds(service.pid);
    const probe = startLoad({ url: service.url, path: '/healthz', connections: 1, overallRate: settings.probeRate, duration: spec.duration + 60 });
    const load = await runLoad(spec);
    // The probe's requests are a rounding error next to scrypt; the requests abandoned in flight are not.
    const cpuPerRequest = ((processCpuSeconds(service.pid) - cpuBefore) * 1000) / (load.ok + load.non2xx);
    const foreignCpu = cpu.stop();
    probe.stop();
    const probeResult = await probe.done;
    const loopDelay = await service.loopDelay();
    const rssPeak = sampler.stop().get(service.pid) ?? Number.NaN;
    await drain(load.p99);
    return { load, rssPeak, foreignCpu, cpuPerRequest, probe: probeResult, loopDelay };
  };

  log('scenario POST /login and POST /signup, alternated, with a /healthz probe beside each');
  await drain((await runLoad({ ...loginSpec(), duration: settings.warmup })).p99);
  await drain((await runLoad({ ...signupSpec(), duration: settings.warmup })).p99);
  const login: OpsResult = { id: 'login', title: 'POST /login (known user, right password)', runs: [] };
  const signup: OpsResult = { id: 'signup', title: 'POST /signup (new tenant each)', runs: [] };
  for (let rep = 1; rep <= settings.reps; rep++) {
    for (const [result, spec] of [[login, loginSpec()], [signup, signupSpec()]] as const) {
      const run = await once(spec);
      result.runs.push(run);
      log(`  rep ${rep}: ${describeRun(result.id, run)}  probe p99 ${run.probe.p99.toFixed(2)} ms  loop delay p99 ${run.loopDelay.p99.toFixed(2)} ms`);
    }
  }
  return [login, signup];
}

/**
 * Login time of an e-mail nobody registered against a known one with a wrong password, one request
 * at a time, alternating (and swapping which goes first) so that drift hits both alike.
 */
export async function loginTiming(service: ServerProcess, settings: Settings, seeded: Seed): Promise<LoginTimingResult> {
  log(`login timing: ${settings.timingPairs} pairs of known / unknown e-mail, one at a time`);
  const client = new HttpClient(service.url);
  const result: LoginTimingResult = { known: timings(), unknown: timings() };
  const path = `${AUTH_BASE}/login`;
  const attempt = async (email: string, into?: SequentialTimings): Promise<void> => {
    const res = await client.request('POST', path, { json: { email, password: WRONG_PASSWORD } });
    if (into) {
      into.samples.push(res.ms);
      countStatus(into.statuses, res.status);
    }
  };
  try {
    for (let i = 0; i < 3; i++) {
      await attempt(seeded.ownerEmail);
      await attempt(`bench-${seeded.runId}-nobody-warmup-${i}@example.com`);
    }
    for (let i = 0; i < settings.timingPairs; i++) {
      const known = (): Promise<void> => attempt(seeded.ownerEmail, result.known);
      const unknown = (): Promise<void> => attempt(`bench-${seeded.runId}-nobody-${i}@example.com`, result.unknown);
      if (i % 2 === 0) {
        await known();
        await unknown();
      } else {
        await unknown();
        await known();
      }
    }
  } finally {
    client.close();
  }
  return result;
}
