import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { MemoryStore } from 'express-rate-limit';
import { fixedWindowLimiter } from '../../src/adapters/http/middleware/fixed-window-limiter';
import { TooManyRequests } from '../../src/adapters/http/errors/http-error';

/** Just what the limiter touches of a response: its headers. */
function fakeResponse(): Response & { headers: Map<string, unknown> } {
  const headers = new Map<string, unknown>();
  return {
    headers,
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), value),
  } as unknown as Response & { headers: Map<string, unknown> };
}

function pass(limiter: ReturnType<typeof fixedWindowLimiter>, ip: string, res = fakeResponse()): Promise<unknown> {
  return new Promise((resolve) => limiter({ ip } as Request, res, resolve));
}

describe('fixed-window limiter', () => {
  test("RateLimit-Policy carries express-rate-limit's partition key: base64 of the first 12 hex digits of the key's SHA-256", async () => {
    const limiter = fixedWindowLimiter({ limit: 5, windowMs: 60_000, store: new MemoryStore(), log: () => undefined });
    const res = fakeResponse();
    expect(await pass(limiter, '203.0.113.7', res)).toBeUndefined();
    const pk = Buffer.from(createHash('sha256').update('203.0.113.7').digest('hex').slice(0, 12)).toString('base64');
    expect(res.headers.get('ratelimit-policy')).toBe(`"5-in-1min"; q=5; w=60; pk=:${pk}:`);
    expect(res.headers.get('ratelimit')).toMatch(/^"5-in-1min"; r=4; t=(59|60)$/);
  });

  test('a second limiter on the same request appends its own policy after the first', async () => {
    const global = fixedWindowLimiter({ limit: 100, windowMs: 60_000, store: new MemoryStore(), log: () => undefined });
    const login = fixedWindowLimiter({ limit: 5, windowMs: 60_000, store: new MemoryStore(), log: () => undefined });
    const res = fakeResponse();
    await pass(global, '203.0.113.7', res);
    await pass(login, '203.0.113.7', res);
    expect(res.headers.get('ratelimit')).toEqual([expect.stringMatching(/^"100-in-1min"; r=99;/), expect.stringMatching(/^"5-in-1min"; r=4;/)]);
  });

  test('past the memo of addresses it keeps counting each address in its own bucket', async () => {
    const limiter = fixedWindowLimiter({ limit: 1, windowMs: 60_000, store: new MemoryStore(), log: () => undefined });
    expect(await pass(limiter, '198.51.100.1')).toBeUndefined();
    // More addresses than the memo holds: it starts again, the counts in the store stay.
    for (let i = 0; i < 10_050; i += 1) await pass(limiter, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(await pass(limiter, '198.51.100.1')).toBeInstanceOf(TooManyRequests);
    expect(await pass(limiter, '198.51.100.2')).toBeUndefined();
  });
});
