import { BatchedApiKeyUsage } from '../../src/adapters/cache/batched-api-key-usage';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { describeLifecycle } from '../http-db/lifecycle-flow';
import { buildTestApp } from '../support/http-app';

describeLifecycle('memory', async () => {
  const storage = createMemoryStorage();
  const keyUsage = new BatchedApiKeyUsage(storage.repos.apiKeys, new SystemClock(), (error) => { throw error; });
  const { app } = await buildTestApp({}, { storage, keyUsage });
  return { app, flushKeyUsage: () => keyUsage.flush(), close: () => keyUsage.close() };
});
