/**
 * What the per-request credential check (issue: changes take effect on the next request) costs on
 * the bearer path: Authenticate.execute (signature, claims, then the member's role and auth version
 * from the instance's cache) against the token's signature and claims alone (TokenService.verify),
 * in one process, alternated, many rounds, medians. The difference is the check's cost per request;
 * divided by the CPU a bare Express request costs (given, from the benchmark's table), it reads as
 * a share of that request.
 *
 *   npx tsx scripts/bench/credential-check.ts [baseline µs/req, default 99]
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { buildTestUseCases } from '../../test/support/test-use-cases';
import { median } from './stats';

const ROUNDS = 15;
const CALLS = 20_000;

async function timePerCall(call: () => unknown | Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i += 1) await call();
  return ((performance.now() - start) * 1000) / CALLS;
}

async function main(): Promise<void> {
  const baselineUs = Number(process.argv[2] ?? 99);
  const { useCases, services } = await buildTestUseCases({ storage: createMemoryStorage() });
  const signup = await useCases.signup.execute({ email: 'bench-check@example.com', password: 'correct horse battery', tenantName: 'Bench' });
  const authorization = `Bearer ${signup.token}`;
  const verifyOnly = () => services.tokens.verify(signup.token);
  const fullCheck = () => useCases.authenticate.execute({ apiKey: undefined, authorization });

  await timePerCall(verifyOnly); // warm-up (JIT, and the cache's first miss)
  await timePerCall(fullCheck);
  const verify: number[] = [];
  const check: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    verify.push(await timePerCall(verifyOnly));
    check.push(await timePerCall(fullCheck));
  }
  const extra = median(check) - median(verify);
  console.log(`signature and claims only (TokenService.verify): ${median(verify).toFixed(2)} µs/call (median of ${ROUNDS} rounds of ${CALLS})`);
  console.log(`full bearer check (Authenticate.execute, cached member): ${median(check).toFixed(2)} µs/call`);
  console.log(`the credential check's own cost: ${extra.toFixed(2)} µs/request = ${((100 * extra) / baselineUs).toFixed(1)}% of a bare Express request (${baselineUs} µs CPU)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
