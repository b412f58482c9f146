import type { TestPortcullis, TestPortcullisServer } from '../../src/testing';
import { type Downstream, downstream } from './verifier-fixtures';

/**
 * A kit started before each test of the describe block and closed after it, once the test has
 * checked that the kit answered no request with a 500 or 503. Read it through the getter returned.
 */
export function eachTestKit<T extends TestPortcullis>(start: () => Promise<T>): () => T {
  let pc: T | undefined;
  beforeEach(async () => {
    pc = await start();
  });
  afterEach(async () => {
    expect(pc!.unexpectedErrors).toEqual([]);
    await pc!.close();
  });
  return () => pc!;
}

/** The example downstream service following the kit's server with a new service key, its feed open for `work`, closed after it. */
export async function withDownstream(pc: TestPortcullisServer, work: (service: Downstream) => Promise<void>): Promise<void> {
  const service = downstream(pc.url, await pc.serviceKey(), { now: pc.now });
  await service.auth.feedReady();
  try {
    await work(service);
  } finally {
    service.auth.close();
  }
}
