/**
 * `npx tsx scripts/bench/scim-deprovision.ts`: how long after an identity provider's deactivation
 * (SCIM PATCH active:false) a downstream service refuses the member's token.
 *
 * Two service processes (the bench's service-server, launched as production launches it) on one
 * Postgres (DATABASE_URL), and a downstream service in this process: the example app over the client
 * library (packages/client), following instance B's change stream and introspecting on B. The
 * tenant's domain is marked verified in SQL (nothing answers DNS here); each member of that domain
 * is created over SCIM on A; the downstream first admits (so remembers) their token. Then,
 * one at a time, the member is deactivated over SCIM on A, and from the SCIM answer on the
 * downstream is asked back to back, without pause, until it refuses the token. Reports the delay
 * from the SCIM answer to the downstream's refusal: median, p99, worst (goal: worst under 100 ms).
 *
 * Settings: DATABASE_URL (required), BENCH_SCIM_DEACTIVATIONS (default 50),
 * BENCH_PROPAGATION_DEADLINE_MS (give up on one after this, default 2000), BENCH_RUNNER (compiled
 * or tsx, default compiled; BENCH_BUILD_DIR where the compiled copy goes).
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { prepareRunner, ServerProcess } from './children';
import { call, intFromEnv, memberToken, nowMs, startDownstream, type Answer } from './propagation';
import { describeMachine, loadAverage, redactUrl } from './settings';
import { max, median, percentile } from './stats';

const SCIM = '/api/v1/scim/v2';
const PASSWORD = 'correct horse battery staple';

async function scim(base: string, token: string, method: string, path: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${base}${SCIM}${path}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' }, body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const deactivation = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] };

/** What a verified TXT record would have done, written as the database's owner: SCIM creates only addresses of verified domains. */
async function verifyDomain(databaseUrl: string, tenantId: string, domain: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      'insert into sso_domains (tenant_id, domain, txt_value, verified_at, created_at) values ($1, $2, $3, now(), now())',
      [tenantId, domain, `portcullis-verification=${randomUUID()}`],
    );
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('DATABASE_URL must name the Postgres both instances share');
  const count = intFromEnv('BENCH_SCIM_DEACTIVATIONS', 50, 1);
  const deadlineMs = intFromEnv('BENCH_PROPAGATION_DEADLINE_MS', 2_000, 100);
  const runnerKind = process.env['BENCH_RUNNER'] ?? 'compiled';
  const runner = prepareRunner(runnerKind);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  delete env['NODE_OPTIONS'];
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const [a, b] = await Promise.all([
    ServerProcess.start('A', runner, 'service-server', env, { launcher: 'production' }),
    ServerProcess.start('B', runner, 'service-server', env, { launcher: 'production' }),
  ]);
  const downstream = await startDownstream(b.url, databaseUrl);
  const delays: number[] = [];
  const polls: number[] = [];
  try {
    const signup = await call(a.url, 'POST', '/signup', {}, { email: `bench-scim-${randomUUID()}@example.com`, password: PASSWORD, tenant_name: 'SCIM' });
    if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
    const tenantId = signup.body['tenant_id'] as string;
    const made = await call(a.url, 'POST', '/sso/scim-token', { authorization: `Bearer ${signup.body['token'] as string}` });
    if (made.status !== 201) throw new Error(`scim token: ${made.status} ${JSON.stringify(made.body)}`);
    const token = made.body['token'] as string;
    const domain = `d-${randomUUID()}.example.test`;
    await verifyDomain(databaseUrl, tenantId, domain);

    for (let i = 0; i < count; i += 1) {
      const created = await scim(a.url, token, 'POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `bench-scim-${randomUUID()}@${domain}` });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
      const userId = created.body['id'] as string;
      // Signed as the service signs them: the member has no password (SCIM made them), and no session is needed to probe.
      const headers = memberToken(tenantId, userId, 'member', 0);
      const admitted = await downstream.whoami(headers);
      if (admitted.status !== 200) throw new Error(`token not admitted before the deactivation: ${admitted.status}`);

      const answered = await scim(a.url, token, 'PATCH', `/Users/${userId}`, deactivation);
      const at = nowMs();
      if (answered.status !== 200 || answered.body['active'] !== false) throw new Error(`deactivate: ${answered.status} ${JSON.stringify(answered.body)}`);
      for (let asked = 1; ; asked += 1) {
        const answer = await downstream.whoami(headers);
        const ms = nowMs() - at;
        if (answer.status === 401) {
          delays.push(ms);
          polls.push(asked);
          break;
        }
        if (answer.status !== 200) throw new Error(`downstream answered ${answer.status}`);
        if (ms > deadlineMs) throw new Error(`still admitted ${Math.round(ms)} ms after the SCIM answer`);
      }
    }
  } finally {
    await downstream.close().catch(() => undefined);
    await Promise.all([a.stop(), b.stop()]);
  }

  const f = (ms: number): string => ms.toFixed(1);
  const machine = describeMachine();
  const worst = max(delays);
  console.log([
    '## SCIM deactivation: from the SCIM answer to a downstream refusing the token',
    '',
    `- **Date:** ${startedAt.toISOString()}`,
    `- **Command:** \`${runnerKind === 'compiled' ? '' : `BENCH_RUNNER=${runnerKind} `}BENCH_SCIM_DEACTIVATIONS=${count} DATABASE_URL=postgres://… npx tsx scripts/bench/scim-deprovision.ts\``,
    `- **Machine:** ${machine.cores} CPUs (nproc), ${machine.cpuModel}; Node ${machine.node}; load average before ${loadBefore.map((l) => l.toFixed(2)).join(' / ')}, after ${loadAverage().map((l) => l.toFixed(2)).join(' / ')}`,
    `- **Setup:** ${redactUrl(databaseUrl)}; two service processes; SCIM on A; the downstream (client library) follows B's change stream and introspects on B`,
    '',
    `| Deactivations | Median ms | p99 ms | Worst ms | Downstream requests until refused (median / worst) |`,
    '| --- | --- | --- | --- | --- |',
    `| ${delays.length} | ${f(median(delays))} | ${f(percentile(delays, 99))} | ${f(worst)} | ${median(polls)} / ${max(polls)} |`,
    '',
    `**Worst delay ${f(worst)} ms** (goal: under 100 ms) — ${worst < 100 ? 'met' : 'NOT met'}.`,
  ].join('\n'));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error('scim-deprovision failed:', error);
    process.exit(1);
  });
}
