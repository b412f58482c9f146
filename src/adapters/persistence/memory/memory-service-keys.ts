import { ServiceKeyNameTaken, type ServiceKeyRepository } from '../../../application/ports/service-keys';
import type { ServiceKey } from '../../../domain/service-key';
import type { MemoryChangeLog } from './memory-change-log';

function copy(key: ServiceKey): ServiceKey {
  return { ...key, scope: key.scope.kind === 'all-tenants' ? key.scope : { kind: 'tenants', tenantIds: [...key.scope.tenantIds] } };
}

/**
 * Service keys in process memory: for memory storage and tests. Each method is one atomic step.
 * Given memory storage's change log, a revocation is logged there as the database's trigger logs
 * it, so every follower of the log (change streams, trusted keys) hears of it at once.
 */
export class MemoryServiceKeys implements ServiceKeyRepository {
  private readonly keys: ServiceKey[] = [];

  constructor(private readonly changeLog?: MemoryChangeLog) {}

  async create(key: ServiceKey): Promise<void> {
    if (this.keys.some((k) => k.revokedAt === null && k.name === key.name)) throw new ServiceKeyNameTaken(key.name);
    this.keys.push(copy(key));
  }

  async findActiveByHash(keyHash: string): Promise<ServiceKey | null> {
    const key = this.keys.find((k) => k.keyHash === keyHash && k.revokedAt === null);
    return key ? copy(key) : null;
  }

  async list(): Promise<ServiceKey[]> {
    return [...this.keys].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map(copy);
  }

  async revoke(idOrName: string, at: Date): Promise<ServiceKey | null> {
    const index = this.keys.findIndex((k) => k.revokedAt === null && (k.id === idOrName || k.name === idOrName));
    if (index < 0) return null;
    const revoked = { ...this.keys[index]!, revokedAt: at };
    this.keys[index] = revoked;
    this.changeLog?.append([{ kind: 'service-key', serviceKeyId: revoked.id }]);
    return copy(revoked);
  }
}
