import { composeServiceKey, isValidServiceKeyName, SERVICE_KEY_DISPLAY_PREFIX_LENGTH, SERVICE_KEY_RANDOM_BYTES, type ServiceKey } from '../../domain/service-key';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Secrets } from '../ports/secrets';
import type { ServiceKeyRepository } from '../ports/service-keys';

export interface ManageServiceKeysDeps {
  readonly serviceKeys: ServiceKeyRepository;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
}

/** A name that cannot be a service key's; the command line reports it and changes nothing. */
export class InvalidServiceKeyName extends Error {
  constructor() {
    super('A service key name is 1 to 100 printable ASCII characters, without leading or trailing spaces');
    this.name = 'InvalidServiceKeyName';
  }
}

/**
 * The operator's three actions on service keys (the `service-key` command). Not served over HTTP:
 * a service key can do more than any tenant's user (ask about any tenant's credentials), so only
 * someone with the database's owner credentials makes or revokes one.
 */
export class ManageServiceKeys {
  constructor(private readonly deps: ManageServiceKeysDeps) {}

  /** The raw key is in the result only: it is never stored and cannot be shown again. */
  async create(name: string): Promise<{ readonly key: ServiceKey; readonly rawKey: string }> {
    if (!isValidServiceKeyName(name)) throw new InvalidServiceKeyName();
    const { serviceKeys, ids, secrets, clock } = this.deps;
    const rawKey = composeServiceKey(secrets.randomHex(SERVICE_KEY_RANDOM_BYTES));
    const key: ServiceKey = {
      id: ids.newId(),
      name,
      keyPrefix: rawKey.slice(0, SERVICE_KEY_DISPLAY_PREFIX_LENGTH),
      keyHash: secrets.sha256Hex(rawKey),
      createdAt: clock.now(),
      revokedAt: null,
    };
    await serviceKeys.create(key);
    return { key, rawKey };
  }

  list(): Promise<ServiceKey[]> {
    return this.deps.serviceKeys.list();
  }

  /** Null when no key in use has that id or name. */
  revoke(idOrName: string): Promise<ServiceKey | null> {
    return this.deps.serviceKeys.revoke(idOrName, this.deps.clock.now());
  }
}
