/**
 * Does a failed login tell an attacker whether the e-mail is registered? Login verifies an unknown
 * e-mail's password against a dummy scrypt hash, so both failures should cost one scrypt. This
 * measures it: the real app (buildUseCases + createApp) over memory storage, production scrypt
 * (OWASP N=2^14, r=8, p=5), rate limits and the per-account throttle opened wide; one registered
 * user; then logins alternating a wrong password for the known e-mail and any password for an
 * unknown one, each timed over a real socket with process.hrtime.
 *
 *   npx tsx scripts/login-timing.ts            40 pairs
 *   npx tsx scripts/login-timing.ts 200        (or LOGIN_TIMING_PAIRS=200)
 *
 * A benchmark, not a test: the figures depend on the machine. docs/security-abuse.md keeps a run.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { assemble } from '../src/bootstrap/assemble';
import { loadConfig } from '../src/bootstrap/config';
import { openMemoryStorage } from '../src/bootstrap/database';
import { OWASP_SCRYPT } from '../src/adapters/crypto/scrypt-password-hasher';

const PAIRS = Number(process.argv[2] ?? process.env['LOGIN_TIMING_PAIRS'] ?? 40);
const WARM_UP_PAIRS = 3;
const WIDE_OPEN = 1_000_000_000;
const KNOWN_EMAIL = 'known@timing.example';
const PASSWORD = 'correct horse battery staple';

interface Answer {
  readonly status: number;
  readonly ms: number;
}

function post(port: number, agent: http.Agent, path: string, body: unknown): Promise<Answer> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.request({
      host: '127.0.0.1', port, path, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': String(payload.length) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - start) / 1e6 }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function quantile(sorted: readonly number[], q: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

function summary(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), mean, min: sorted[0]!, max: sorted[sorted.length - 1]! };
}

async function main(): Promise<void> {
  if (!Number.isSafeInteger(PAIRS) || PAIRS < 1) throw new Error(`pairs must be a positive integer, got ${PAIRS}`);
  // Assembled as main assembles the service (the production hasher, OWASP_SCRYPT), on memory storage,
  // with every limit raised: one address asks again and again.
  const service = await assemble(loadConfig({
    RATE_LIMIT_GLOBAL: String(WIDE_OPEN), RATE_LIMIT_LOGIN: String(WIDE_OPEN), RATE_LIMIT_SIGNUP: String(WIDE_OPEN),
    LOGIN_FAILURE_LIMIT: String(WIDE_OPEN), LOGIN_FAILURE_ACCOUNT_LIMIT: String(WIDE_OPEN), METRICS_ENABLED: 'false',
  }), { storage: openMemoryStorage(), consoleFiles: null, onError: (error: unknown) => console.error(error) });
  const app = service.listener;

  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 }); // one request at a time, on one connection

  try {
    const signup = await post(port, agent, '/api/v1/auth/signup', { email: KNOWN_EMAIL, password: PASSWORD, tenant_name: 'Timing' });
    if (signup.status !== 201) throw new Error(`signup answered ${signup.status}`);
    const right = await post(port, agent, '/api/v1/auth/login', { email: KNOWN_EMAIL, password: PASSWORD });
    if (right.status !== 200) throw new Error(`login with the right password answered ${right.status}`);

    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < WARM_UP_PAIRS + PAIRS; i += 1) {
      const tryKnown = () => post(port, agent, '/api/v1/auth/login', { email: KNOWN_EMAIL, password: `wrong password ${i}` });
      const tryUnknown = () => post(port, agent, '/api/v1/auth/login', { email: `nobody-${i}-${randomBytes(4).toString('hex')}@timing.example`, password: `wrong password ${i}` });
      // Alternate which goes first, so that neither kind always follows the other.
      let knownAnswer: Answer;
      let unknownAnswer: Answer;
      if (i % 2 === 0) {
        knownAnswer = await tryKnown();
        unknownAnswer = await tryUnknown();
      } else {
        unknownAnswer = await tryUnknown();
        knownAnswer = await tryKnown();
      }
      for (const answer of [knownAnswer, unknownAnswer]) if (answer.status !== 401) throw new Error(`a failed login answered ${answer.status}, not 401`);
      if (i < WARM_UP_PAIRS) continue;
      known.push(knownAnswer.ms);
      unknown.push(unknownAnswer.ms);
    }

    const k = summary(known);
    const u = summary(unknown);
    const f = (ms: number) => ms.toFixed(2);
    const cpus = os.cpus();
    console.log(`login timing, ${PAIRS} pairs (+${WARM_UP_PAIRS} warm-up), scrypt N=${OWASP_SCRYPT.N} r=${OWASP_SCRYPT.r} p=${OWASP_SCRYPT.p}`);
    console.log(`machine: ${os.availableParallelism()} CPUs (nproc), ${cpus[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${os.platform()} ${os.arch()}`);
    console.log('');
    console.log('| failed login (401) | median ms | p90 ms | mean ms | min ms | max ms |');
    console.log('|---|---|---|---|---|---|');
    console.log(`| known e-mail, wrong password | ${f(k.median)} | ${f(k.p90)} | ${f(k.mean)} | ${f(k.min)} | ${f(k.max)} |`);
    console.log(`| unknown e-mail | ${f(u.median)} | ${f(u.p90)} | ${f(u.mean)} | ${f(u.min)} | ${f(u.max)} |`);
    console.log('');
    console.log(`ratio unknown/known: median ${(u.median / k.median).toFixed(3)}, p90 ${(u.p90 / k.p90).toFixed(3)}; ` +
      `median difference ${f(u.median - k.median)} ms`);
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
