import { memoryModuleStore } from '../../../src/adapters/persistence/modules/memory-module-store';
import { createMemoryStorage } from '../../../src/adapters/persistence/memory/memory-storage';
import { describeNotesStorageCases } from './notes-storage-cases';

describeNotesStorageCases('memory', async () => {
  const storage = createMemoryStorage();
  return { store: memoryModuleStore(storage.unitOfWork), identity: storage.repos, close: () => storage.close() };
});
