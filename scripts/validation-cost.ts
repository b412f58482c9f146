/**
 * What an unauthenticated client can make the service spend on a body it refuses: the size of the
 * 400 answer and the time the request holds the event loop, for bodies up to the 100 kB limit
 * made of unknown keys (many short ones, one long one, many with nested values), against a small
 * body that breaks one rule, measured in the same run.
 *
 * The real app (buildUseCases + createApp) over memory storage, rate limits opened wide; each body
 * is POSTed to /api/v1/auth/login over one keep-alive socket, in turns, and timed on the server
 * from the request event to the end of the answer (process.hrtime; nothing in that path waits on
 * I/O but the body's own bytes, which arrive on loopback at once). Medians of the runs.
 *
 *   npx tsx scripts/validation-cost.ts          15 runs of each body
 *   npx tsx scripts/validation-cost.ts 40
 *
 * A benchmark, not a test: test/http/bad-input.test.ts asserts the answer sizes.
 */
import 'reflect-metadata';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { assemble } from '../src/bootstrap/assemble';
import { loadConfig } from '../src/bootstrap/config';
import { openMemoryStorage } from '../src/bootstrap/database';

const RUNS = Number(process.argv[2] ?? 15);
const WIDE_OPEN = 1_000_000_000;
const BODY_BYTES = 84 * 1024;

/** Keys `k0`, `k1`, ... until the JSON reaches about `bytes`. */
function manyShortKeys(bytes: number): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i += 1) {
    const part = `"k${i}":0`;
    parts.push(part);
    size += part.length + 1;
  }
  return `{${parts.join(',')}}`;
}

/** Many keys whose values are small objects, which a copy of the body would walk. */
function manyNestedKeys(bytes: number): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i += 1) {
    const part = `"n${i}":{"a":[1,2,{"b":"c"}]}`;
    parts.push(part);
    size += part.length + 1;
  }
  return `{${parts.join(',')}}`;
}

const BODIES: ReadonlyArray<readonly [string, string]> = [
  ['baseline: one broken rule', '{"email":"not an e-mail","password":"correct horse battery"}'],
  ['84 kB of short unknown keys', manyShortKeys(BODY_BYTES)],
  ['one unknown key of 84 kB', `{"${'x'.repeat(BODY_BYTES)}":0}`],
  ['84 kB of unknown keys with nested values', manyNestedKeys(BODY_BYTES)],
];

function post(port: number, agent: http.Agent, body: string): Promise<{ status: number; bytes: number }> {
  const payload = Buffer.from(body);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path: '/api/v1/auth/login', method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': String(payload.length) },
    }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  if (!Number.isSafeInteger(RUNS) || RUNS < 1) throw new Error(`runs must be a positive integer, got ${RUNS}`);
  // Assembled as main assembles the service (the production hasher, OWASP_SCRYPT), on memory storage,
  // with every limit raised: one address asks again and again.
  const service = await assemble(loadConfig({
    RATE_LIMIT_GLOBAL: String(WIDE_OPEN), RATE_LIMIT_LOGIN: String(WIDE_OPEN), RATE_LIMIT_SIGNUP: String(WIDE_OPEN),
    LOGIN_FAILURE_LIMIT: String(WIDE_OPEN), LOGIN_FAILURE_ACCOUNT_LIMIT: String(WIDE_OPEN), METRICS_ENABLED: 'false',
  }), { storage: openMemoryStorage(), consoleFiles: null, onError: (error: unknown) => console.error(error) });
  const app = service.listener;
  let lastMs = 0;
  const server = http.createServer((req, res) => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      lastMs = Number(process.hrtime.bigint() - start) / 1e6;
    });
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  const times = new Map<string, number[]>(BODIES.map(([name]) => [name, []]));
  const sizes = new Map<string, { status: number; bytes: number }>();
  for (let run = -2; run < RUNS; run += 1) { // two warm-up rounds, not counted
    for (const [name, body] of BODIES) {
      const answer = await post(port, agent, body);
      if (run < 0) continue;
      times.get(name)!.push(lastMs);
      sizes.set(name, answer);
    }
  }
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));

  const baseline = median(times.get(BODIES[0]![0])!);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, ${RUNS} runs each`);
  console.log('| body (POST /api/v1/auth/login) | request bytes | status | answer bytes | median ms on the server | × baseline |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, body] of BODIES) {
    const ms = median(times.get(name)!);
    const { status, bytes } = sizes.get(name)!;
    console.log(`| ${name} | ${Buffer.byteLength(body)} | ${status} | ${bytes} | ${ms.toFixed(2)} | ${(ms / baseline).toFixed(1)} |`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
