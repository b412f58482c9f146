/**
 * Invitation messages from two instances on one Postgres to one SMTP server: how long until every
 * message has arrived, and how many arrived twice or never. Two instances are assembled in this
 * process as main assembles them, each with its own pool and its own delivery worker polling the
 * shared outbox; a local SMTP server (the smtp-server package) takes the messages. Owners of
 * MAIL_BENCH_TENANTS tenants invite MAIL_BENCH_N addresses in all, alternating instances, as fast
 * as they answer; the clock starts with the first invitation and stops when the last message
 * arrives.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/bench/mail-delivery.ts
 *   MAIL_BENCH_N=1000 MAIL_BENCH_TENANTS=10 MAIL_BENCH_ROUNDS=3 …        (the defaults)
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { assemble, type Assembly } from '../../src/bootstrap/assemble';
import { loadConfig } from '../../src/bootstrap/config';
import { median } from './stats';

const N = Number(process.env['MAIL_BENCH_N'] ?? 1000);
const TENANTS = Number(process.env['MAIL_BENCH_TENANTS'] ?? 10);
const ROUNDS = Number(process.env['MAIL_BENCH_ROUNDS'] ?? 3);
const AUTH = '/api/v1/auth';

async function smtpServer(onMessage: (to: string) => void): Promise<{ url: string; stop(): Promise<void> }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'], logger: false, closeTimeout: 1_000,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) onMessage(rcpt.address);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, stop: () => new Promise<void>((resolve) => server.close(resolve)) };
}

async function instance(smtpUrl: string): Promise<Assembly> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    SMTP_URL: smtpUrl,
    MAIL_FROM: 'Bench <bench@example.com>',
    // One secret for both, as instances behind one load balancer share it.
    JWT_SECRET: 'mail-delivery-bench-secret-0123456789abcdef',
    RATE_LIMIT_GLOBAL: '1000000',
    RATE_LIMIT_SIGNUP: '1000000',
    MAIL_LIMIT_PER_RECIPIENT: '1000000',
    MAIL_LIMIT_PER_TENANT: '1000000',
  });
  const service = await assemble(config, { onError: (error) => console.error(error), onBackgroundError: (error) => console.error(error) });
  service.mailWorker!.start();
  return service;
}

async function main(): Promise<void> {
  if (!process.env['DATABASE_URL']) throw new Error('set DATABASE_URL to a Postgres database: the point is two instances on one');
  const arrivals = new Map<string, number>();
  let last = 0;
  const smtp = await smtpServer((to) => {
    arrivals.set(to, (arrivals.get(to) ?? 0) + 1);
    last = performance.now();
  });
  const [a, b] = [await instance(smtp.url), await instance(smtp.url)];
  const run = Date.now().toString(36);
  try {
    const owners: string[] = [];
    for (let t = 0; t < TENANTS; t += 1) {
      const res = await request(a.listener).post(`${AUTH}/signup`).send({ email: `owner-${run}-${t}@example.com`, password: 'correct horse battery', tenant_name: `Bench ${t}` });
      if (res.status !== 201) throw new Error(`signup answered ${res.status}`);
      owners.push(res.body.token as string);
    }
    console.log(`${N} invitations a round from two instances on one Postgres to one SMTP server (${TENANTS} tenants)`);
    console.log('round  invited in  all arrived in  duplicates  lost');
    const totals: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const invited: string[] = [];
      const started = performance.now();
      const batch = 8;
      for (let i = 0; i < N; i += batch) {
        await Promise.all(Array.from({ length: Math.min(batch, N - i) }, async (_, j) => {
          const k = i + j;
          const email = `invitee-${run}-${round}-${k}@example.com`;
          const res = await request(k % 2 === 0 ? a.listener : b.listener).post(`${AUTH}/invite`)
            .set('authorization', `Bearer ${owners[k % TENANTS]}`).send({ email, role: 'member' });
          if (res.status !== 201) throw new Error(`invite answered ${res.status}: ${JSON.stringify(res.body)}`);
          invited.push(email);
        }));
      }
      const invitedIn = performance.now() - started;
      const deadline = Date.now() + 120_000;
      while (invited.some((email) => !arrivals.has(email)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // A little longer, for any duplicate to show itself.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const arrivedIn = last - started;
      const duplicates = invited.filter((email) => (arrivals.get(email) ?? 0) > 1).length;
      const lost = invited.filter((email) => !arrivals.has(email)).length;
      totals.push(arrivedIn);
      console.log(`${String(round).padStart(5)}  ${(invitedIn / 1000).toFixed(2)} s`.padEnd(19) + `${(arrivedIn / 1000).toFixed(2)} s`.padEnd(16)
        + `${duplicates}`.padEnd(12) + `${lost}`);
    }
    console.log(`median time for all ${N} to arrive: ${(median(totals) / 1000).toFixed(2)} s (${Math.round(N / (median(totals) / 1000))} messages/s)`);
  } finally {
    await a.close();
    await b.close();
    await smtp.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
