import { ServiceKeyNameTaken, type ServiceKeyRepository } from '../../../application/ports/service-keys';
import type { ServiceKey } from '../../../domain/service-key';

/** Service keys in process memory: for memory storage and tests. Each method is one atomic step. */
export class MemoryServiceKeys implements ServiceKeyRepository {
  private readonly keys: ServiceKey[] = [];

  async create(key: ServiceKey): Promise<void> {
    if (this.keys.some((k) => k.revokedAt === null && k.name === key.name)) throw new ServiceKeyNameTaken(key.name);
    this.keys.push({ ...key });
  }

  async findActiveByHash(keyHash: string): Promise<ServiceKey | null> {
    const key = this.keys.find((k) => k.keyHash === keyHash && k.revokedAt === null);
    return key ? { ...key } : null;
  }

  async list(): Promise<ServiceKey[]> {
    return [...this.keys].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).map((k) => ({ ...k }));
  }

  async revoke(idOrName: string, at: Date): Promise<ServiceKey | null> {
    const index = this.keys.findIndex((k) => k.revokedAt === null && (k.id === idOrName || k.name === idOrName));
    if (index < 0) return null;
    const revoked = { ...this.keys[index]!, revokedAt: at };
    this.keys[index] = revoked;
    return { ...revoked };
  }
}
