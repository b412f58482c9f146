/**
 * What a module's test file costs with the test kit, against the same file on PGlite and on
 * Postgres: each run builds a Portcullis with the notes module, arranges a tenant with one member of
 * each role (and a key for each), then makes 100 requests across the four roles (write, list,
 * delete, by token and by key), checking every status. The three set-ups share the kit's assembly
 * and helpers (src/testing); only the storage differs. Medians over several runs, in one process.
 *
 *   npm run bench:test-kit                # kit and PGlite
 *   DATABASE_URL=postgres://... npm run bench:test-kit   # and Postgres
 */
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import request from 'supertest';
import { createTestPortcullis, type TestMember, type TestPortcullis } from '../../src/testing';
import { notesModule } from '../../examples/notes/notes-module';
import { sqlTestPortcullis } from '../../test/support/sql-test-portcullis';
import { median } from './stats';

const REQUESTS = 100;
const NOTES = '/api/v1/notes';

interface Timing {
  readonly open: number;
  readonly arrange: number;
  readonly requests: number;
  readonly total: number;
  /** This process's CPU time over the run (the test's and the app's side alike): what the run costs without waiting for a core. */
  readonly cpu: number;
}

type Role = 'owner' | 'admin' | 'member' | 'viewer';
const ROLES: readonly Role[] = ['owner', 'admin', 'member', 'viewer'];
const MAY_WRITE: Record<Role, boolean> = { owner: true, admin: true, member: true, viewer: false };
const MAY_DELETE: Record<Role, boolean> = { owner: true, admin: true, member: false, viewer: false };

async function expectStatus(pending: request.Test, status: number, what: string): Promise<request.Response> {
  const res = await pending;
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)} `);
  return res;
}

/** The test file's body: 100 requests, a quarter per role, alternating token and key. */
async function moduleTestFlow(pc: TestPortcullis): Promise<{ arrange: number; requests: number }> {
  const started = performance.now();
  const acme = await pc.tenant({ name: 'Bench' });
  const team = await pc.team(acme);
  const keys = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, (await pc.apiKey(team[role])).headers] as const)));
  const arranged = performance.now();

  const created: string[] = [];
  let sent = 0;
  for (let i = 0; sent < REQUESTS; i += 1) {
    const role = ROLES[i % ROLES.length]!;
    const headers = i % 2 === 0 ? (team[role] as TestMember).headers : keys[role]!;
    const step = Math.floor(i / ROLES.length) % 3;
    if (step === 0) {
      const res = await expectStatus(request(pc.app).post(NOTES).set(headers).send({ title: `note ${i}` }), MAY_WRITE[role] ? 201 : 403, `${role} writes`);
      if (res.status === 201) created.push(res.body.id as string);
    } else if (step === 1) {
      await expectStatus(request(pc.app).get(NOTES).set(headers), 200, `${role} lists`);
    } else {
      const id = MAY_DELETE[role] ? created.pop() : created[0];
      if (id === undefined) throw new Error('nothing to delete');
      await expectStatus(request(pc.app).delete(`${NOTES}/${id}`).set(headers), MAY_DELETE[role] ? 200 : 403, `${role} deletes`);
    }
    sent += 1;
  }
  const done = performance.now();
  return { arrange: arranged - started, requests: done - arranged };
}

async function timeRun(open: () => Promise<TestPortcullis>): Promise<Timing> {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const pc = await open();
  const opened = performance.now();
  try {
    const flow = await moduleTestFlow(pc);
    const total = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    return { open: opened - started, ...flow, total, cpu: (cpu.user + cpu.system) / 1_000 };
  } finally {
    await pc.close();
  }
}

async function measure(name: string, runs: number, open: () => Promise<TestPortcullis>): Promise<{ name: string; runs: number; timing: Timing }> {
  await timeRun(open); // warm-up: module loading and JIT, which a test file pays once per worker
  const timings: Timing[] = [];
  for (let i = 0; i < runs; i += 1) timings.push(await timeRun(open));
  const pick = (key: keyof Timing) => median(timings.map((t) => t[key]));
  return { name, runs, timing: { open: pick('open'), arrange: pick('arrange'), requests: pick('requests'), total: pick('total'), cpu: pick('cpu') } };
}

async function main(): Promise<void> {
  const modules = [notesModule];
  const results = [await measure('test kit (memory)', 9, () => createTestPortcullis({ modules }))];
  results.push(await measure('PGlite (in memory)', 3, () => sqlTestPortcullis('pglite', modules)));
  const url = process.env.DATABASE_URL;
  if (url) results.push(await measure('Postgres (DATABASE_URL)', 5, () => sqlTestPortcullis({ postgres: url }, modules)));
  else console.log('DATABASE_URL unset: the Postgres set-up is not measured');

  const kit = results[0]!.timing.total;
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const kitCpu = results[0]!.timing.cpu;
  console.log(`\nA module's test file: open, arrange a tenant with four roles and four keys, ${REQUESTS} requests (medians, wall clock; CPU is this process's)`);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores\n`);
  console.log('| set-up | runs | open | arrange | 100 requests | total | total / kit | CPU | CPU / kit |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { name, runs, timing } of results) {
    console.log(`| ${name} | ${runs} | ${ms(timing.open)} | ${ms(timing.arrange)} | ${ms(timing.requests)} | ${ms(timing.total)} | ${(timing.total / kit).toFixed(1)}x | ${ms(timing.cpu)} | ${(timing.cpu / kitCpu).toFixed(1)}x |`);
  }
  console.log(`\ntest kit under 1 s: ${kit < 1_000 ? 'yes' : 'NO'} (${ms(kit)} wall, ${ms(kitCpu)} CPU)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
