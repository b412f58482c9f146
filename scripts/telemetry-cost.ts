/**
 * What the request log and the metrics cost per request: GET /api/v1/auth/me (bearer token, no
 * database) on the real app without them, with the request log (pino-http, JSON to /dev/null through
 * the asynchronous destination main uses), with metrics, and with both. Variants alternate, each for
 * `TELEMETRY_SECONDS` (default 5) per round, `TELEMETRY_ROUNDS` rounds (default 3); medians reported.
 * The figure to read is CPU time per request (this process's user+system CPU over the requests
 * served): the load generator's share is the same in every variant, so the differences are the
 * middleware's own cost, and CPU time is far less disturbed than throughput by other processes.
 *
 *   npx tsx scripts/telemetry-cost.ts
 *
 * Server and load generator share the process (and the machine's CPUs): compare the variants with
 * each other, not with figures from docs/benchmarks.md.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import pino from 'pino';
import { Registry } from 'prom-client';
import { HttpMetrics } from '../src/adapters/http/middleware/http-metrics';
import { REDACT_PATHS } from '../src/adapters/http/middleware/request-log';
import { buildTestApp, type TestAppOptions } from '../test/support/http-app';

const SECONDS = Number(process.env['TELEMETRY_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['TELEMETRY_ROUNDS'] ?? 3);
const LIMITS = { global: 1e9, login: 1e9, signup: 1e9 };

function logger(): pino.Logger {
  return pino({ level: 'info', base: { service: 'portcullis' }, redact: { paths: [...REDACT_PATHS] }, formatters: { level: (label) => ({ level: label }) } },
    pino.destination({ dest: '/dev/null', sync: false }));
}

const VARIANTS: Record<string, () => TestAppOptions> = {
  bare: () => ({}),
  log: () => ({ logger: logger() }),
  metrics: () => ({ metrics: new HttpMetrics(new Registry()) }),
  'log+metrics': () => ({ logger: logger(), metrics: new HttpMetrics(new Registry()) }),
};

async function main(): Promise<void> {
  const results: Record<string, number[]> = {};
  const cpuPerRequest: Record<string, number[]> = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, options] of Object.entries(VARIANTS)) {
      // Assembled as main assembles the service (test/support's assembly: memory storage, fast scrypt).
      const { app, useCases } = await buildTestApp({ rateLimits: LIMITS }, {}, options());
      const signup = await useCases.signup.execute({ email: `cost-${name}-${round}@example.com`, password: 'correct horse battery', tenantName: 'Cost' });
      const server = createServer(app).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      const cpuBefore = process.cpuUsage();
      const result = await autocannon({
        url: `http://127.0.0.1:${port}/api/v1/auth/me`,
        connections: 10,
        duration: SECONDS,
        headers: { authorization: `Bearer ${signup.token}` },
      });
      const cpu = process.cpuUsage(cpuBefore);
      server.close();
      (results[name] ??= []).push(result.requests.average);
      (cpuPerRequest[name] ??= []).push((cpu.user + cpu.system) / result.requests.total);
    }
  }
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
  const bareCpu = median(cpuPerRequest['bare']!);
  for (const [name, values] of Object.entries(results)) {
    const cpu = median(cpuPerRequest[name]!);
    const extra = name === 'bare' ? '' : `  ${(cpu - bareCpu).toFixed(1)} µs more than bare`;
    console.log(`${name.padEnd(12)} ${median(values).toFixed(0).padStart(7)} req/s  ${cpu.toFixed(1).padStart(6)} µs CPU per request${extra}`);
  }
}

void main();
