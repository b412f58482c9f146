/**
 * What a second factor adds to signing in, and how many codes an attacker may try.
 *
 * 1. Time. The service runs in this process as main assembles it (Postgres at DATABASE_URL, else
 *    the embedded database in memory; the production password hash), and is asked over HTTP with
 *    keep-alive, one request at a time, alternating a password-only sign-in (POST /login, 200) and
 *    a sign-in with an authenticator app (POST /login answering 401 with an mfa_token, then POST
 *    /login/mfa with the current code, 200), each by its own member in turn, so that noise hits
 *    both alike. Prints the median and p90 of each kind, the added time (difference of medians) and
 *    the ratio of the medians (TOTP / password), and the median of the /login/mfa step alone.
 *    The service accepts each code once, so the service's clock is the machine's plus an offset
 *    that the bench moves to the next 30-second step when a member's code of the current one was
 *    used; the code is made before the timer starts (a person types it).
 *
 * 2. Guesses. The number of codes an attacker holding a member's password may try in an hour,
 *    computed from the configured throttle of wrong second-factor proofs (SECOND_FACTOR_FAILURES:
 *    `limit` per client address and `accountLimit` over every address, per fixed window of
 *    `windowSeconds` that opens at the first attempt; a sign-in's second step and a reset's factor
 *    share it), and the chance that they find a valid code in that hour: a code is one of 10^6 and
 *    at most three are accepted at a time (the current step and one on either side).
 *    test/unit/second-factor-guesses.test.ts checks these counts against the throttle itself.
 *
 *   npx tsx scripts/bench/totp-sign-in.ts
 *   DATABASE_URL=postgres://… TOTP_BENCH_N=500 npx tsx scripts/bench/totp-sign-in.ts
 */
import 'reflect-metadata';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import type { Clock } from '../../src/application/ports/clock';
import { assemble, SECOND_FACTOR_FAILURES } from '../../src/bootstrap/assemble';
import { loadConfig } from '../../src/bootstrap/config';
import { createHttpServer } from '../../src/bootstrap/http-server';
import { median, percentile } from './stats';

const N = Number(process.env['TOTP_BENCH_N'] ?? 300);
const MEMBERS = Number(process.env['TOTP_BENCH_MEMBERS'] ?? 20);
const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;
const AUTH = '/api/v1/auth';

/** The machine's time plus an offset the bench moves forward, never back. */
class OffsetClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  /** Moves to the start of the step after `step` when the clock is not past it yet. */
  passStep(step: number): void {
    const next = (step + 1) * STEP_MS;
    const now = this.now().getTime();
    if (now < next) this.offsetMs += next - now;
  }
}

interface Answer {
  status: number;
  ms: number;
  body: Record<string, unknown>;
}

function post(agent: Agent, port: number, path: string, body: unknown, token?: string): Promise<Answer> {
  const payload = JSON.stringify(body);
  const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
  if (token) headers['authorization'] = `Bearer ${token}`;
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6, body: text ? JSON.parse(text) as Record<string, unknown> : {} });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

interface AppMember {
  readonly email: string;
  readonly totp: TOTP;
  lastStep: number;
}

/** A code for a step after the member's last one, the clock moved there if need be. */
function nextCode(clock: OffsetClock, member: AppMember): string {
  if (Math.floor(clock.now().getTime() / STEP_MS) <= member.lastStep) clock.passStep(member.lastStep);
  const step = Math.floor(clock.now().getTime() / STEP_MS);
  member.lastStep = step;
  return member.totp.generate({ timestamp: step * STEP_MS });
}

/** The attacker's figures, from the throttle as configured. */
function guesses(): void {
  const { limit, accountLimit, windowSeconds } = SECOND_FACTOR_FAILURES;
  const windowsPerHour = 3600 / windowSeconds;
  // Windows are fixed and open at the first attempt: an hour-long span can touch one window more
  // than fit in it (the end of one, then whole ones, then the start of another).
  const touched = Math.ceil(windowsPerHour) + 1;
  const sustained = accountLimit * windowsPerHour;
  const worstHour = accountLimit * touched;
  const oneAddress = limit * windowsPerHour;
  const accepted = 3 / 1_000_000;
  console.log('');
  console.log(`Codes an attacker may try per member (SECOND_FACTOR_FAILURES: ${limit} per client address, ${accountLimit} over all addresses, per ${windowSeconds} s window)`);
  console.log(`  sustained, from many addresses: ${accountLimit} × 3600 / ${windowSeconds} = ${sustained} per hour`);
  console.log(`  at most in any one hour (fixed windows: an hour touches up to ${touched}): ${accountLimit} × ${touched} = ${worstHour}`);
  console.log(`  from one address: ${limit} × 3600 / ${windowSeconds} = ${oneAddress} per hour`);
  console.log(`  chance of a valid code in that hour, at most: ${worstHour} × 3 / 10^6 = ${(worstHour * accepted * 100).toFixed(4)} %`);
  console.log(`  in a day at the sustained rate: 1 − (1 − 3/10^6)^${sustained * 24} = ${((1 - (1 - accepted) ** (sustained * 24)) * 100).toFixed(3)} %`);
}

async function main(): Promise<void> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_GLOBAL: '1000000',
    RATE_LIMIT_LOGIN: '1000000',
    RATE_LIMIT_SIGNUP: '1000000',
    PGLITE_DIR: process.env['DATABASE_URL'] ? undefined : 'memory://',
  });
  const clock = new OffsetClock();
  const service = await assemble(config, { clock, onError: (error) => console.error(error) });
  const server = createHttpServer(config.http);
  server.on('request', service.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const run = Date.now().toString(36);
    const plain: string[] = [];
    const withApp: AppMember[] = [];
    for (let i = 0; i < MEMBERS; i += 1) {
      const email = `totp-bench-plain-${run}-${i}@example.com`;
      expectStatus(await post(agent, port, `${AUTH}/signup`, { email, password: PASSWORD, tenant_name: `Plain ${i}` }), 201, 'signup');
      plain.push(email);
      const appEmail = `totp-bench-app-${run}-${i}@example.com`;
      const signedUp = await post(agent, port, `${AUTH}/signup`, { email: appEmail, password: PASSWORD, tenant_name: `App ${i}` });
      expectStatus(signedUp, 201, 'signup');
      const token = signedUp.body['token'] as string;
      const started = await post(agent, port, `${AUTH}/mfa/totp`, {}, token);
      expectStatus(started, 200, 'POST /mfa/totp');
      const member: AppMember = {
        email: appEmail, lastStep: -1,
        totp: new TOTP({ secret: Secret.fromBase32(started.body['secret'] as string), algorithm: 'SHA1', digits: 6, period: 30 }),
      };
      expectStatus(await post(agent, port, `${AUTH}/mfa/totp/confirm`, { code: nextCode(clock, member) }, token), 200, 'POST /mfa/totp/confirm');
      withApp.push(member);
    }

    const times = { password: [] as number[], totp: [] as number[], secondStep: [] as number[] };
    for (let i = 0; i < N; i += 1) {
      const once = await post(agent, port, `${AUTH}/login`, { email: plain[i % MEMBERS], password: PASSWORD });
      expectStatus(once, 200, 'password-only POST /login');
      times.password.push(once.ms);

      const member = withApp[i % MEMBERS]!;
      const code = nextCode(clock, member);
      const first = await post(agent, port, `${AUTH}/login`, { email: member.email, password: PASSWORD });
      expectStatus(first, 401, 'first step POST /login');
      const second = await post(agent, port, `${AUTH}/login/mfa`, { mfa_token: first.body['mfa_token'], code });
      expectStatus(second, 200, 'POST /login/mfa');
      times.totp.push(first.ms + second.ms);
      times.secondStep.push(second.ms);
    }

    const p50 = { password: median(times.password), totp: median(times.totp), secondStep: median(times.secondStep) };
    console.log(`Sign-ins, ${N} of each kind alternated, ${MEMBERS} members each (${process.env['DATABASE_URL'] ? 'Postgres' : 'embedded database'}), wall time per sign-in`);
    console.log('kind                                    median ms   p90 ms');
    console.log(`password only (POST /login)             ${p50.password.toFixed(2).padStart(9)}  ${percentile(times.password, 90).toFixed(2).padStart(7)}`);
    console.log(`with an app (POST /login + /login/mfa)  ${p50.totp.toFixed(2).padStart(9)}  ${percentile(times.totp, 90).toFixed(2).padStart(7)}`);
    console.log(`  of which POST /login/mfa              ${p50.secondStep.toFixed(2).padStart(9)}  ${percentile(times.secondStep, 90).toFixed(2).padStart(7)}`);
    console.log(`added by the second factor (difference of medians): ${(p50.totp - p50.password).toFixed(2)} ms; ratio of medians (with an app / password only): ${(p50.totp / p50.password).toFixed(3)}`);
    guesses();
  } finally {
    agent.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
