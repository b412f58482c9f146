import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { describeStorageContract } from './storage-contract';

describeStorageContract('memory', async () => createMemoryStorage());
