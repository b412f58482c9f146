/**
 * Compares OWASP's scrypt settings on this machine: one hash's median time, and hashes per
 * second with four in flight (libuv's default pool), which bounds logins per second per instance.
 *   npx tsx scripts/scrypt-parameters.ts
 */
import { randomBytes, scrypt } from 'node:crypto';

interface Params { N: number; r: number; p: number }

const SETTINGS: Record<string, Params> = {
  'N=2^17,r=8,p=1 (128 MiB)': { N: 2 ** 17, r: 8, p: 1 },
  'N=2^14,r=8,p=5 (16 MiB)': { N: 2 ** 14, r: 8, p: 5 },
  'N=2^13,r=8,p=10 (8 MiB)': { N: 2 ** 13, r: 8, p: 10 },
};
const SAMPLES = 9;
const THROUGHPUT_MS = 3000;
const IN_FLIGHT = 4;

function hashOnce(params: Params): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    scrypt('password', randomBytes(16), 32, { ...params, maxmem: 256 * params.N * params.r }, (error) =>
      error ? reject(error) : resolve(Number(process.hrtime.bigint() - start) / 1e6));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const times = new Map<string, number[]>(Object.keys(SETTINGS).map((name) => [name, []]));
  // Alternate the settings so that machine noise hits both alike.
  for (let i = 0; i < SAMPLES; i++) {
    for (const [name, params] of Object.entries(SETTINGS)) times.get(name)!.push(await hashOnce(params));
  }
  for (const [name, params] of Object.entries(SETTINGS)) {
    const start = Date.now();
    let done = 0;
    await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
      while (Date.now() - start < THROUGHPUT_MS) {
        await hashOnce(params);
        done += 1;
      }
    }));
    const perSecond = done / ((Date.now() - start) / 1000);
    console.log(`${name}: median ${median(times.get(name)!).toFixed(1)} ms a hash, ${perSecond.toFixed(1)} hashes/s with ${IN_FLIGHT} in flight`);
  }
}

void main();
