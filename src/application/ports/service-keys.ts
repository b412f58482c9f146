import type { ServiceKey } from '../../domain/service-key';

/** What the running service needs of service keys: it only ever reads them. */
export interface ServiceKeyLookup {
  /** The key with that SHA-256 hash if it is not revoked; null otherwise. */
  findActiveByHash(keyHash: string): Promise<ServiceKey | null>;
}

/**
 * Everything an operator does with service keys. On SQL storage the service's own role may only
 * read the table: creating and revoking run as the schema's owner, from the command line.
 */
export interface ServiceKeyRepository extends ServiceKeyLookup {
  /** Inserts a new key. Throws ServiceKeyNameTaken when a key that is not revoked has that name. */
  create(key: ServiceKey): Promise<void>;
  /** Every key, revoked ones too, oldest first. */
  list(): Promise<ServiceKey[]>;
  /**
   * Revokes the key whose id or name (among keys not revoked) is given. Returns the revoked key, or
   * null when no key that is not revoked matches.
   */
  revoke(idOrName: string, at: Date): Promise<ServiceKey | null>;
}

/** A name that a key in use already has: the operator picks another or revokes the first. */
export class ServiceKeyNameTaken extends Error {
  constructor(readonly keyName: string) {
    super(`A service key named "${keyName}" already exists`);
    this.name = 'ServiceKeyNameTaken';
  }
}
