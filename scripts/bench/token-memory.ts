/**
 * What one bearer check costs the token service as the tokens in rotation outgrow its memory: N
 * distinct tokens (members of one tenant, signed as the service signs them) verified in turn, after
 * each was verified once, with the memory at its default budget (every token held) and with room for
 * 10,000 tokens only (the count it used to be bounded by, so most checks verify a signature again);
 * then ("hot") ten tokens sent again and again, as clients on open connections send theirs.
 * Alternated, medians of the repetitions, in this process (no HTTP): the figure behind the bearer
 * rows of the growth benchmark, without the machine's noise.
 *
 *   npx tsx scripts/bench/token-memory.ts [N, default 100000] [repetitions, default 5]
 */
import { randomUUID } from 'node:crypto';
import { jwtKey } from '../../src/adapters/crypto/jwt-signing-keys';
import { DEFAULT_VERIFIED_TOKENS, JwtTokenService, TOKEN_ENTRY_BYTES } from '../../src/adapters/crypto/jwt-token-service';
import { median } from './stats';

const SECRET = jwtKey('a-secret-for-measuring-the-token-memory-cost');

function microsPerCheck(service: JwtTokenService, tokens: readonly string[]): number {
  const started = process.hrtime.bigint();
  for (const token of tokens) if (service.verify(token) === null) throw new Error('a valid token was refused');
  return Number(process.hrtime.bigint() - started) / 1000 / tokens.length;
}

function main(): void {
  const n = Number(process.argv[2] ?? 100_000);
  const reps = Number(process.argv[3] ?? 5);
  const tenantId = randomUUID();
  const signer = new JwtTokenService({ signing: SECRET });
  const tokens = Array.from({ length: n }, (_, i) => signer.issue({ tenantId, userId: randomUUID(), email: `bench-member-${i}@example.com`, role: 'member', authVersion: 0 }));
  const perToken = TOKEN_ENTRY_BYTES + tenantId.length + 36 + `bench-member-${n}@example.com`.length + 'member'.length;
  const services = {
    default: new JwtTokenService({ signing: SECRET }),
    tenThousand: new JwtTokenService({ signing: SECRET }, { memoryBytes: 10_000 * perToken }),
  };
  for (const service of Object.values(services)) microsPerCheck(service, tokens); // each used once
  const runs: Record<keyof typeof services, number[]> = { default: [], tenThousand: [] };
  for (let rep = 0; rep < reps; rep++) {
    runs.tenThousand.push(microsPerCheck(services.tenThousand, tokens));
    runs.default.push(microsPerCheck(services.default, tokens));
  }
  // The tokens in use right now: ten clients, each sending its token again and again.
  const hotTokens = Array.from({ length: n }, (_, i) => tokens[i % 10]!);
  const hotRuns: number[] = [];
  for (let rep = 0; rep < reps; rep++) hotRuns.push(microsPerCheck(services.default, hotTokens));
  const held = median(runs.default);
  const small = median(runs.tenThousand);
  console.log(`${n} tokens in rotation, ${reps} repetitions (medians); Node ${process.version}`);
  console.log(`  memory at its default budget (${DEFAULT_VERIFIED_TOKENS.memoryBytes / 2 ** 20} MB, holds ${services.default.remembered.entries}): ${held.toFixed(2)} µs a check  [${runs.default.map((v) => v.toFixed(2)).join(', ')}]`);
  console.log(`  memory for 10,000 tokens (holds ${services.tenThousand.remembered.entries}): ${small.toFixed(2)} µs a check  [${runs.tenThousand.map((v) => v.toFixed(2)).join(', ')}]`);
  console.log(`  ratio: ${(small / held).toFixed(1)}× (${(small - held).toFixed(1)} µs a request saved)`);
  const hot = median(hotRuns);
  console.log(`  hot: 10 tokens sent again and again: ${hot.toFixed(2)} µs a check  [${hotRuns.map((v) => v.toFixed(2)).join(', ')}]; ${(held / hot).toFixed(1)}× cheaper than a token found in the memory`);
}

main();
