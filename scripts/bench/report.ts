import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { MemoryBreakdown } from './protocol';
import type { ModeResult, OpsResult, RunSample, SequentialTimings, ThroughputResult } from './results';
import type { DatabaseMode } from './settings';
import { max, median, percentile, ratio, spread } from './stats';

const MB = 2 ** 20;
/** Above this spread ((max - min) / median) between repetitions a figure is flagged as noisy. */
const NOISY_SPREAD = 0.1;
/** Above this many CPUs used by other processes during a run, the run shared the machine noticeably. */
const NOISY_FOREIGN_CPU = 0.2;
/** OWASP's equivalent scrypt settings (Password Storage Cheat Sheet), as the stored hash names them. */
const OWASP_SCHEMES: ReadonlySet<string> = new Set(['scrypt$131072$8$1', 'scrypt$65536$8$2', 'scrypt$32768$8$3', 'scrypt$16384$8$5', 'scrypt$8192$8$10']);

type Verdict = 'PASS' | 'MISS' | 'info';

interface TargetLine {
  readonly target: string;
  readonly figure: string;
  readonly verdict: Verdict;
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

function ms(value: number): string {
  return fixed(value, value < 10 ? 2 : 1);
}

function mb(bytes: number): string {
  return fixed(bytes / MB, 0);
}

function pct(value: number): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a';
}

function times(value: number): string {
  return Number.isFinite(value) ? `×${value.toFixed(2)}` : 'n/a';
}

function others(samples: readonly RunSample[]): string {
  const pg = median(samples.map((x) => x.foreignCpu.postgres));
  return `${fixed(median(samples.map((x) => x.foreignCpu.others)), 2)}${pg >= 0.01 ? ` (Postgres ${fixed(pg, 2)})` : ''}`;
}

function verdict(ok: boolean): Verdict {
  return ok ? 'PASS' : 'MISS';
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function rps(samples: readonly RunSample[]): number[] {
  return samples.map((s) => s.load.rps);
}

function non2xx(samples: readonly RunSample[]): string {
  const counts: Record<string, number> = {};
  let errors = 0;
  for (const s of samples) {
    errors += s.load.errors;
    for (const [code, n] of Object.entries(s.load.statusCounts)) if (!code.startsWith('2')) counts[code] = (counts[code] ?? 0) + n;
  }
  const parts = Object.entries(counts).map(([code, n]) => `${n}×${code}`);
  if (errors > 0) parts.push(`${errors} socket errors`);
  return parts.length === 0 ? '0' : parts.join(', ');
}

interface Medians { rps: number; p50: number; p99: number; rss: number; cpu: number }

function medians(samples: readonly RunSample[]): Medians {
  return {
    rps: median(rps(samples)),
    p50: median(samples.map((s) => s.load.p50)),
    p99: median(samples.map((s) => s.load.p99)),
    rss: median(samples.map((s) => s.rssPeak)),
    cpu: median(samples.map((s) => s.cpuPerRequest)),
  };
}

function throughputRows(result: ThroughputResult): string[][] {
  const b = medians(result.baseline);
  const s = medians(result.service);
  const perRep = (samples: readonly RunSample[]): string => rps(samples).map((v) => v.toFixed(0)).join(' / ');
  return [
    [result.title, `baseline (${result.baselineNote})`, fixed(b.rps, 0), '', ms(b.p50), '', ms(b.p99), '', fixed(b.cpu * 1000, 0), '', mb(b.rss), '', perRep(result.baseline), non2xx(result.baseline), others(result.baseline)],
    ['', '**service**', `**${fixed(s.rps, 0)}**`, `**${pct(ratio(s.rps, b.rps))}**`, ms(s.p50), times(ratio(s.p50, b.p50)), ms(s.p99), times(ratio(s.p99, b.p99)), fixed(s.cpu * 1000, 0), times(ratio(s.cpu, b.cpu)), mb(s.rss), times(ratio(s.rss, b.rss)), perRep(result.service), non2xx(result.service), others(result.service)],
  ];
}

function opsRow(result: OpsResult): string[] {
  const runs = result.runs;
  const m = medians(runs);
  const probeP99 = runs.map((r) => r.probe.p99);
  return [
    result.title,
    `**${fixed(m.rps, 1)}**`,
    fixed(m.cpu, 0),
    ms(m.p50),
    ms(m.p99),
    `${ms(median(probeP99))} (worst ${ms(max(probeP99))})`,
    `${ms(median(runs.map((r) => r.loopDelay.p50)))} / ${ms(median(runs.map((r) => r.loopDelay.p99)))} / ${ms(max(runs.map((r) => r.loopDelay.max)))}`,
    mb(max(runs.map((r) => r.rssPeak))),
    runs.map((r) => r.load.rps.toFixed(1)).join(' / '),
    non2xx(runs),
    others(runs),
  ];
}

function statuses(t: SequentialTimings): string {
  return Object.entries(t.statuses).map(([code, n]) => `${n}×${code}`).join(', ');
}

function sequentialRow(label: string, t: SequentialTimings): string[] {
  return [label, ms(median(t.samples)), ms(percentile(t.samples, 90)), ms(percentile(t.samples, 99)), String(t.samples.length), statuses(t)];
}

function byId<T extends { id: string }>(list: readonly T[], id: string): T {
  const found = list.find((item) => item.id === id);
  if (!found) throw new Error(`no result ${id}`);
  return found;
}

function targets(r: ModeResult): TargetLine[] {
  const onPostgres = r.mode === 'postgres';
  const throughputRatio = (id: string): number => {
    const t = byId(r.throughput, id);
    return ratio(median(rps(t.service)), median(rps(t.baseline)));
  };
  const login = byId(r.ops, 'login');
  const loginRate = median(rps(login.runs));
  const probeP99 = median(login.runs.map((run) => run.probe.p99));
  const probeWorst = max(login.runs.map((run) => run.probe.p99));
  const freshP50 = median(r.firstUse.fresh.samples);
  const timingRatio = ratio(median(r.loginTiming.unknown.samples), median(r.loginTiming.known.samples));
  const allServiceRss = [
    ...r.throughput.flatMap((t) => t.service.map((s) => s.rssPeak)),
    ...r.ops.flatMap((o) => o.runs.map((s) => s.rssPeak)),
  ];
  const throughputRss = max(r.throughput.flatMap((t) => t.service.map((s) => s.rssPeak)));
  const peakRss = max(allServiceRss);

  const meBearer = throughputRatio('me-bearer');
  const meKey = throughputRatio('me-api-key');
  const invites = throughputRatio('invites');
  return [
    { target: 'GET /me, bearer: ≥ 90% of baseline req/s', figure: pct(meBearer), verdict: verdict(meBearer >= 0.9) },
    { target: 'GET /me, API key (seen): ≥ 85% of baseline req/s', figure: pct(meKey), verdict: verdict(meKey >= 0.85) },
    {
      target: `API key first use (database lookup): p50 ≤ 2 ms${onPostgres ? '' : ' (a Postgres target; embedded figure for reference)'}`,
      figure: `${ms(freshP50)} ms (seen key ${ms(median(r.firstUse.seen.samples))} ms, bearer ${ms(median(r.firstUse.bearer.samples))} ms, sequential)`,
      verdict: onPostgres ? verdict(freshP50 <= 2) : 'info',
    },
    { target: 'GET /invites: ≥ 40% of baseline req/s', figure: pct(invites), verdict: verdict(invites >= 0.4) },
    {
      target: 'Login: scrypt at OWASP parameters (one of N=2^17…2^13 with r=8, p=1…10)',
      figure: `\`${r.serviceInfo.hashScheme}\``,
      verdict: verdict(OWASP_SCHEMES.has(r.serviceInfo.hashScheme)),
    },
    { target: 'Login: ≥ 10 logins/s per instance', figure: `${fixed(loginRate, 1)} logins/s`, verdict: verdict(loginRate >= 10) },
    {
      target: 'Login: /healthz probe p99 < 25 ms meanwhile',
      figure: `${ms(probeP99)} ms (worst repetition ${ms(probeWorst)} ms)`,
      verdict: verdict(probeP99 < 25),
    },
    {
      target: 'Unknown e-mail login time within 5% of a known one (ratio of medians)',
      figure: `${fixed(timingRatio, 3)} (${ms(median(r.loginTiming.unknown.samples))} vs ${ms(median(r.loginTiming.known.samples))} ms)`,
      verdict: verdict(Math.abs(timingRatio - 1) <= 0.05),
    },
    {
      target: `RSS under load ≤ 150 MB${onPostgres ? '' : ' (a Postgres target; embedded figure reported)'}`,
      figure: `${mb(peakRss)} MB peak (${mb(throughputRss)} MB in the throughput scenarios, ${mb(r.idleRss.service)} MB idle after seeding)`,
      verdict: onPostgres ? verdict(peakRss <= 150 * MB) : 'info',
    },
  ];
}

function allRuns(r: ModeResult): RunSample[] {
  return [...r.throughput.flatMap((t) => [...t.baseline, ...t.service]), ...r.ops.flatMap((o) => o.runs)];
}

function noiseNotes(r: ModeResult): string[] {
  const notes: string[] = [];
  const runs = allRuns(r);
  const foreign = runs.map((x) => x.foreignCpu.others);
  const steal = runs.map((x) => x.foreignCpu.steal);
  if (median(foreign) > NOISY_FOREIGN_CPU || max(steal) > NOISY_FOREIGN_CPU) {
    notes.push(`Other processes kept ${fixed(median(foreign), 2)} of the ${r.machine.cores} CPUs busy during a median measured run (up to ${fixed(max(foreign), 2)}); steal time ${fixed(median(steal), 2)} (up to ${fixed(max(steal), 2)}). The load generator and both servers are not counted.`);
  }
  for (const t of r.throughput) {
    const b = spread(rps(t.baseline));
    const s = spread(rps(t.service));
    if (b > NOISY_SPREAD || s > NOISY_SPREAD) {
      notes.push(`${t.title}: req/s varied between repetitions by ${pct(b)} (baseline) and ${pct(s)} (service) of the median.`);
    }
  }
  for (const o of r.ops) {
    const s = spread(rps(o.runs));
    if (s > NOISY_SPREAD) notes.push(`${o.title}: ops/s varied between repetitions by ${pct(s)} of the median.`);
  }
  return notes;
}

export function modeTitle(mode: DatabaseMode): string {
  return mode === 'postgres' ? 'Postgres' : 'Embedded database (PGlite)';
}

/** One mode's section of docs/benchmarks.md (also what is printed). */
export function renderMode(r: ModeResult): string {
  const m = r.machine;
  const s = r.settings;
  const minutes = (r.finishedAt.getTime() - r.startedAt.getTime()) / 60_000;
  const targetLines = targets(r);
  const missed = targetLines.filter((t) => t.verdict === 'MISS').length;
  const noise = noiseNotes(r);
  const busy = median(allRuns(r).map((x) => x.foreignCpu.others)) > NOISY_FOREIGN_CPU;
  const out: string[] = [];

  out.push(`## ${modeTitle(r.mode)}${r.mode === 'postgres' ? ' (main figures)' : ''}`);
  out.push('');
  out.push(`- **Date:** ${r.startedAt.toISOString()} (${fixed(minutes, 1)} min)`);
  out.push(`- **Command:** \`${r.command}\``);
  out.push(`- **Machine:** ${m.cores} CPUs (nproc), ${m.cpuModel}, ${fixed(m.totalMemoryGiB, 1)} GiB RAM; ${m.os}; Node ${m.node}`);
  out.push(`- **Source:** commit ${r.source.commit}${r.source.dirtySrcFiles > 0 ? ` plus uncommitted changes to ${r.source.dirtySrcFiles} file(s) under src (others' work in progress: the working tree as it was is what ran)` : ', clean src'}`);
  out.push(`- **Database:** ${r.database}${r.databaseVersion ? ` (server ${r.databaseVersion})` : ''}`);
  out.push(`- **Settings:** ${s.quick ? '**quick mode (BENCH_QUICK=1): a check, not figures to compare**; ' : ''}${s.reps} repetitions × ${s.duration} s per run after ${s.warmup} s warm-up per process and scenario; ${s.connections} connections (throughput), ${s.loginConnections} (login, sign-up); ${s.apiKeys} API keys rotated, ${s.freshKeys} never-used keys for first use; ${s.invites} pending invites; ${s.timingPairs} known/unknown login pairs; /healthz probe at ${s.probeRate} req/s; libuv pool ${r.serviceInfo.threadPoolSize} threads; servers run ${s.runner === 'compiled' ? 'as compiled JavaScript' : 'under `node --import tsx`'}`);
  out.push(`- **Launch:** the service through \`scripts/start.sh\`, as \`npm start\` runs it in production (${r.serviceInfo.launch}); the baseline with plain node and its defaults (${r.baselineLaunch})`);
  out.push(`- **Load average** (1/5/15 min) before: ${r.loadBefore.map((v) => v.toFixed(2)).join(' / ')}, after: ${r.loadAfter.map((v) => v.toFixed(2)).join(' / ')}. CPU used by other processes (not the bench, its servers or Postgres) during measured runs: median ${fixed(median(allRuns(r).map((x) => x.foreignCpu.others)), 2)}, max ${fixed(max(allRuns(r).map((x) => x.foreignCpu.others)), 2)} CPUs (column "others' CPU" below)${busy ? ' — **the machine was busy with other work during most runs**' : ''}.`);
  const mem = (m: MemoryBreakdown): string => `RSS ${mb(m.rss)}, V8 heap ${mb(m.heapTotal)} (${mb(m.heapUsed)} used), external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}) MB`;
  out.push(`- **Memory** (process.memoryUsage): service after the throughput scenarios ${mem(r.memory.serviceAfterThroughput)}; after login and sign-up ${mem(r.memory.serviceAfterOps)}; baseline ${mem(r.memory.baseline)}.`);
  out.push(`- Seeding (owner, ${s.apiKeys + s.freshKeys} keys, ${s.invites} invites over HTTP) took ${fixed(r.seedSeconds, 1)} s. Idle RSS after seeding: service ${mb(r.idleRss.service)} MB, baseline ${mb(r.idleRss.baseline)} MB. Server errors (500) during the run: ${r.serverErrors}.`);
  out.push('');
  out.push(`### Targets (${missed === 0 ? 'all met' : `${missed} missed`})`);
  out.push('');
  out.push(table(['Target', 'Figure', 'Result'], targetLines.map((t) => [t.target, t.figure, t.verdict === 'info' ? 'info' : `**${t.verdict}**`])));
  out.push('');
  out.push('### Throughput against the baseline');
  out.push('');
  out.push('Medians over the repetitions; each service figure\'s ratio is to the baseline\'s median in the same run (req/s as a percentage, the rest as a factor). Latencies are per request under load; "CPU µs/req" is the server process\'s own CPU time per answered request (less sensitive to a shared machine than req/s); RSS is the process\'s peak during a run; "others\' CPU" is how many CPUs other processes on the machine kept busy meanwhile, with the local Postgres server\'s share (mostly the service\'s own queries, in the database scenarios) apart.');
  out.push('');
  out.push(table(
    ['Scenario', 'Process', 'req/s', 'vs base', 'p50 ms', 'vs base', 'p99 ms', 'vs base', 'CPU µs/req', 'vs base', 'RSS MB', 'vs base', 'req/s per repetition', 'non-2xx', "others' CPU"],
    r.throughput.flatMap(throughputRows),
  ));
  out.push('');
  out.push('### Login and sign-up (service only; a ratio to the baseline means nothing here)');
  out.push('');
  out.push('"CPU ms/op" counts every thread of the service, scrypt\'s pool included: with C CPUs free, C / that figure is the ceiling on operations per second.');
  out.push('');
  out.push(table(
    ['Scenario', 'ops/s', 'CPU ms/op', 'p50 ms', 'p99 ms', '/healthz probe p99 ms', 'event-loop delay p50 / p99 / max ms', 'peak RSS MB', 'ops/s per repetition', 'non-2xx', "others' CPU"],
    r.ops.map(opsRow),
  ));
  out.push('');
  out.push('### One request at a time');
  out.push('');
  out.push(table(['Request', 'p50 ms', 'p90 ms', 'p99 ms', 'n', 'statuses'], [
    sequentialRow('GET /me, API key never used before', r.firstUse.fresh),
    sequentialRow('GET /me, API key seen before (interleaved)', r.firstUse.seen),
    sequentialRow('GET /me, bearer (interleaved)', r.firstUse.bearer),
    sequentialRow('POST /login, known e-mail, wrong password', r.loginTiming.known),
    sequentialRow('POST /login, unknown e-mail', r.loginTiming.unknown),
  ]));
  out.push('');
  if (noise.length > 0 || busy) {
    out.push('### Noise');
    out.push('');
    out.push('The machine is shared: other engineers run builds and tests on it while the bench runs, so single figures can move by more than the differences they are compared with.');
    for (const note of noise) out.push(`- ${note}`);
    out.push('');
  }
  return out.join('\n');
}

const HEADER = `# Benchmarks

Produced by \`npm run bench\` (or \`make bench\`), which runs \`scripts/bench/run.ts\`, then \`scripts/bench/verifier.ts\`
(its own section, "Verifying services", between the \`bench:verifier\` markers); do not edit by hand
(each mode's section is replaced by the next run of that mode; the other mode's section and the
hand-written notes between the \`bench:notes\` markers at the end are kept). The Postgres section
holds the main figures; the embedded section is kept beside it.

## How it measures

- **Two processes, side by side.** The service (\`scripts/bench/service-server.ts\`) is built as
  \`src/bootstrap/main.ts\` builds it (openStorage, buildUseCases with the production scrypt hasher,
  createApp), with rate limits and the login-failure limit raised to 10^9 so that one client address
  measures the work rather than 429s. The baseline (\`scripts/bench/baseline-server.ts\`) is a bare
  Express 5 app answering \`GET /api/v1/auth/me\` with the service's own /me body and nothing else.
  Each is its own Node process, compiled by tsc (no TypeScript loader in the measured process), so
  RSS and event loops are their own; the load generator (autocannon, in the parent process) shares
  the machine's CPUs with them. The service is started the way production starts it, through
  \`scripts/start.sh\` (\`npm start\`: thread pool no larger than the CPUs, glibc and V8 memory
  settings, docs/operations.md); the baseline runs with plain \`node\` and Node's defaults.
- **Alternated.** For each throughput scenario both get a warm-up, then baseline and service take
  turns (B S B S B S), so that background noise hits both alike; figures are medians over the
  repetitions and each service figure is given as a ratio to the baseline's median.
- **Scenarios.** GET /me with a bearer token; GET /me with API keys (at least 1000, rotated per
  request by autocannon's setupRequest, each used once before measuring); GET /invites (a database
  read behind the tenant wall; the baseline gets GET /me); POST /login and POST /signup with a
  /healthz probe beside them (its p99) and the service's event-loop delay (how late a 10 ms timer
  fires: perf_hooks' histogram less its interval, read over the bench's IPC channel, not an HTTP
  route); sequential timings of a never-used API key's first request
  and of a login with an unknown e-mail against a known one (wrong password), alternated.
- **RSS** is VmRSS from /proc, sampled every 100 ms during each run; the peak is reported.
- **Noise** is measured, not guessed: for every run, the CPU time the rest of the machine used (from
  /proc/stat, minus the bench's own processes) is reported as "others' CPU", in CPUs, with the local
  Postgres server's processes counted apart (in a database scenario that is mostly the service's own
  queries; Postgres runs on the same 2 CPUs). Login and
  sign-up runs are followed by a pause until the requests autocannon abandoned at the end have been
  served, so that one run's scrypt work does not land in the next.
- Latency percentiles are computed from every 2xx response's time as autocannon reports it (in
  fractional milliseconds; autocannon's own histogram rounds to whole ones).
- Bench data (e-mails \`bench-<run id>-…@example.com\`) is left in the database.

Settings (environment): \`BENCH_MODE\` (auto: Postgres when \`DATABASE_URL\` is set; postgres,
embedded, both), \`BENCH_REPS\` (3), \`BENCH_DURATION\` (10 s), \`BENCH_WARMUP\` (3 s),
\`BENCH_CONNECTIONS\` (10), \`BENCH_LOGIN_CONNECTIONS\` (8), \`BENCH_API_KEYS\` (1000),
\`BENCH_FRESH_KEYS\` (200), \`BENCH_INVITES\` (20), \`BENCH_TIMING_PAIRS\` (40), \`BENCH_PROBE_RATE\`
(20 req/s), \`BENCH_RUNNER\` (compiled; or tsx), \`BENCH_OUT\` (docs/benchmarks.md).
\`BENCH_QUICK=1\` is a reduced run to check that everything works (one repetition of 2 s, 100 keys,
10 timing pairs; about a minute per database), written to
\`node_modules/.cache/portcullis-bench/benchmarks-quick.md\` unless \`BENCH_OUT\` is set; its figures
are not for comparison. The full run is the default.

Beside the table: \`npx tsx scripts/bench/profile.ts <me-bearer|me-api-key|invites|login>\` profiles
the service (\`node --cpu-prof\`) under one scenario and prints where the time goes, by package and
function; \`npx tsx scripts/bench/tenant-read.ts\` times GET /members' read both ways the adapter
can reach walled rows (a transaction through the walls, or one proven function).
`;

/** The generated sections, in the file's order: each mode's, then the growth scenarios' (growth.ts). */
type Section = DatabaseMode | 'growth';
const SECTIONS: readonly Section[] = ['postgres', 'embedded', 'growth'];
const NOTES_START = '<!-- bench:notes:start -->';
const NOTES_END = '<!-- bench:notes:end -->';
const PROPAGATION_START = '<!-- bench:propagation:start -->';
const PROPAGATION_END = '<!-- bench:propagation:end -->';
const startMarker = (section: Section): string => `<!-- bench:${section}:start -->`;
const endMarker = (section: Section): string => `<!-- bench:${section}:end -->`;

function notRunYet(section: Section): string {
  if (section === 'growth') return '## Growth\n\nNot run yet: `BENCH_GROWTH=only DATABASE_URL=postgres://… npm run bench`.';
  return `## ${modeTitle(section)}\n\nNot run yet: \`${section === 'postgres' ? 'DATABASE_URL=postgres://… ' : 'BENCH_MODE=embedded '}npm run bench\`.`;
}

export const VERIFIER_START = '<!-- bench:verifier:start -->';
export const VERIFIER_END = '<!-- bench:verifier:end -->';

/** The text from `start` to `end`, markers included; undefined when they are not both there. */
export function markedBlock(text: string, start: string, end: string): string | undefined {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  return from >= 0 && to > from ? text.slice(from, to + end.length) : undefined;
}

/** Replaces one section of the report, keeping the others and the hand-written notes. */
export function writeReport(path: string, which: Section, section: string): void {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const sections = new Map<Section, string>();
  for (const m of SECTIONS) {
    const start = previous.indexOf(startMarker(m));
    const end = previous.indexOf(endMarker(m));
    if (start >= 0 && end > start) sections.set(m, previous.slice(start + startMarker(m).length, end).trim());
  }
  sections.set(which, section.trim());
  // A hand-written section (reading of the figures), kept verbatim from run to run.
  const notesStart = previous.indexOf(NOTES_START);
  const notesEnd = previous.indexOf(NOTES_END);
  const notes = notesStart >= 0 && notesEnd > notesStart ? previous.slice(notesStart, notesEnd + NOTES_END.length) : undefined;
  const parts = [HEADER.trim()];
  for (const m of SECTIONS) parts.push(`${startMarker(m)}\n${sections.get(m) ?? notRunYet(m)}\n${endMarker(m)}`);
  // The propagation and verifier benches' sections (propagation.ts, verifier.ts write them), kept as they are.
  for (const [start, end] of [[PROPAGATION_START, PROPAGATION_END], [VERIFIER_START, VERIFIER_END]] as const) {
    const block = markedBlock(previous, start, end);
    if (block) parts.push(block);
  }
  if (notes) parts.push(notes);
  // Hand-written sections after the notes (other benches' own write-ups), kept verbatim too.
  const after = notes ? previous.slice(notesEnd + NOTES_END.length).trim() : '';
  if (after) parts.push(after);
  writeFileSync(path, `${parts.join('\n\n')}\n`);
}

/**
 * The propagation bench's section (scripts/bench/propagation.ts), replaced in place, or added
 * before the hand-written notes; `npm run bench` keeps it as it is.
 */
export function writePropagationSection(path: string, section: string): void {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const block = `${PROPAGATION_START}\n${section.trim()}\n${PROPAGATION_END}`;
  const current = markedBlock(previous, PROPAGATION_START, PROPAGATION_END);
  const notes = previous.indexOf(NOTES_START);
  const next = current !== undefined
    ? previous.replace(current, () => block)
    : notes >= 0
      ? `${previous.slice(0, notes)}${block}\n\n${previous.slice(notes)}`
      : `${previous.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, next);
}
