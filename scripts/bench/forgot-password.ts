/**
 * Whether POST /password/forgot's timing tells a registered address from an unknown one. The
 * service runs in this process as main assembles it (Postgres at DATABASE_URL, else the embedded
 * database in memory), with its delivery worker polling as in production; requests go over HTTP
 * with keep-alive, one at a time, alternating a registered and an unregistered address so that
 * noise hits both alike. Prints, per round and overall, the median and p90 answer time of each
 * kind, and the ratio of the medians (registered / unregistered): 1.00 means the same.
 *
 *   npx tsx scripts/bench/forgot-password.ts
 *   DATABASE_URL=postgres://… FORGOT_ROUNDS=5 FORGOT_N=1000 npx tsx scripts/bench/forgot-password.ts
 *
 * The send limit per recipient holds back all but the first few messages to each registered
 * address: what is measured is the answer, which is given before any of that.
 */
import 'reflect-metadata';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assemble } from '../../src/bootstrap/assemble';
import { loadConfig } from '../../src/bootstrap/config';
import { createHttpServer } from '../../src/bootstrap/http-server';
import { median, percentile } from './stats';

const ROUNDS = Number(process.env['FORGOT_ROUNDS'] ?? 5);
const N = Number(process.env['FORGOT_N'] ?? 500);
const MEMBERS = 50;

function post(agent: Agent, port: number, path: string, body: unknown): Promise<{ status: number; ms: number; text: string }> {
  const payload = JSON.stringify(body);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function main(): Promise<void> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_GLOBAL: '1000000',
    RATE_LIMIT_RECOVERY: '1000000',
    RATE_LIMIT_SIGNUP: '1000000',
    PGLITE_DIR: process.env['DATABASE_URL'] ? undefined : 'memory://',
  });
  const service = await assemble(config, { onError: (error) => console.error(error) });
  service.mailWorker?.start();
  const server = createHttpServer(config.http);
  server.on('request', service.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const registered: string[] = [];
    const run = `${Date.now().toString(36)}`;
    for (let i = 0; i < MEMBERS; i += 1) {
      const email = `forgot-${run}-${i}@example.com`;
      const res = await post(agent, port, '/api/v1/auth/signup', { email, password: 'correct horse battery', tenant_name: `Bench ${i}` });
      if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${res.text}`);
      registered.push(email);
    }
    const all = { registered: [] as number[], unknown: [] as number[] };
    console.log(`POST /api/v1/auth/password/forgot, ${ROUNDS} rounds of ${N} requests of each kind, alternated (${process.env['DATABASE_URL'] ? 'Postgres' : 'embedded database'})`);
    console.log('round  registered median/p90 ms  unknown median/p90 ms  ratio of medians');
    for (let round = 1; round <= ROUNDS; round += 1) {
      const times = { registered: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < N; i += 1) {
        const known = await post(agent, port, '/api/v1/auth/password/forgot', { email: registered[i % MEMBERS] });
        const unknown = await post(agent, port, '/api/v1/auth/password/forgot', { email: `nobody-${run}-${round}-${i}@example.com` });
        if (known.status !== 202 || unknown.status !== 202) throw new Error(`answered ${known.status} and ${unknown.status}`);
        times.registered.push(known.ms);
        times.unknown.push(unknown.ms);
      }
      all.registered.push(...times.registered);
      all.unknown.push(...times.unknown);
      console.log(`${String(round).padStart(5)}  ${median(times.registered).toFixed(3)} / ${percentile(times.registered, 90).toFixed(3)}`.padEnd(33)
        + `${median(times.unknown).toFixed(3)} / ${percentile(times.unknown, 90).toFixed(3)}`.padEnd(23)
        + (median(times.registered) / median(times.unknown)).toFixed(3));
    }
    console.log(`  all  ${median(all.registered).toFixed(3)} / ${percentile(all.registered, 90).toFixed(3)}`.padEnd(33)
      + `${median(all.unknown).toFixed(3)} / ${percentile(all.unknown, 90).toFixed(3)}`.padEnd(23)
      + (median(all.registered) / median(all.unknown)).toFixed(3));
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
