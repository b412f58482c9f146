import { isUuid } from '../../domain/ids';
import {
  composeServiceKey, isValidServiceKeyName, namedTenants, SERVICE_KEY_DISPLAY_PREFIX_LENGTH, SERVICE_KEY_RANDOM_BYTES, type ServiceKey,
  type ServiceKeyScope,
} from '../../domain/service-key';
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

/** A scope that names no tenant, or something that is not a tenant id; the command line reports it and changes nothing. */
export class InvalidServiceKeyScope extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidServiceKeyScope';
  }
}

/**
 * The operator's three actions on service keys (the `service-key` command). Not served over HTTP:
 * a service key can do more than any tenant's user (ask about any tenant's credentials), so only
 * someone with the database's owner credentials makes or revokes one.
 */
export class ManageServiceKeys {
  constructor(private readonly deps: ManageServiceKeysDeps) {}

  /**
   * The raw key is in the result only: it is never stored and cannot be shown again. `scope` says
   * which tenants the key may ask about and hear of; there is no default.
   */
  async create(name: string, scope: ServiceKeyScope): Promise<{ readonly key: ServiceKey; readonly rawKey: string }> {
    if (!isValidServiceKeyName(name)) throw new InvalidServiceKeyName();
    if (scope.kind === 'tenants') {
      if (scope.tenantIds.length === 0) throw new InvalidServiceKeyScope('Name at least one tenant, or choose all tenants');
      const bad = scope.tenantIds.find((id) => !isUuid(id));
      if (bad !== undefined) throw new InvalidServiceKeyScope(`Not a tenant id: "${bad}"`);
    }
    const { serviceKeys, ids, secrets, clock } = this.deps;
    const rawKey = composeServiceKey(secrets.randomHex(SERVICE_KEY_RANDOM_BYTES));
    const key: ServiceKey = {
      id: ids.newId(),
      name,
      keyPrefix: rawKey.slice(0, SERVICE_KEY_DISPLAY_PREFIX_LENGTH),
      keyHash: secrets.sha256Hex(rawKey),
      createdAt: clock.now(),
      revokedAt: null,
      scope: scope.kind === 'all-tenants' ? scope : namedTenants(scope.tenantIds),
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
