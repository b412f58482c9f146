import { sql } from 'kysely';
import { InvalidServiceKeyName, InvalidServiceKeyScope, ManageServiceKeys } from '../application/service-keys/manage-service-keys';
import { ServiceKeyNameTaken } from '../application/ports/service-keys';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { KyselyServiceKeyRepository } from '../adapters/persistence/kysely/repositories/service-key-repository';
import { SystemClock } from '../adapters/time/system-clock';
import { describeScope, type ServiceKey } from '../domain/service-key';
import { isUuid } from '../domain/ids';
import { loadConfig } from './config';
import { openDatabase } from './database';
import { parseServiceKeyCommand, SERVICE_KEY_USAGE } from './service-key-command';

function describe(key: ServiceKey): string {
  const revoked = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'in use';
  return `${key.id}  ${key.name}  ${key.keyPrefix}…  ${describeScope(key.scope)}  created ${key.createdAt.toISOString()}  ${revoked}`;
}

/** Exit code: 0 done, 1 failed, 2 misused (unknown command, missing argument or scope). */
async function run(args: readonly string[]): Promise<number> {
  const parsed = parseServiceKeyCommand(args);
  if (!parsed) {
    console.error(SERVICE_KEY_USAGE);
    return 2;
  }
  const { db, close } = await openDatabase(loadConfig(process.env, { ownerTool: true }));
  const manage = new ManageServiceKeys({
    serviceKeys: new KyselyServiceKeyRepository(db), ids: new RandomUuidGenerator(), secrets: new NodeSecrets(), clock: new SystemClock(),
  });
  try {
    if (parsed.command === 'create') {
      // A typo would make a key that hears nothing: every tenant named must exist (the owner reads
      // them all). Something that is not an id at all is create's to refuse.
      if (parsed.scope.kind === 'tenants' && parsed.scope.tenantIds.every(isUuid)) {
        const ids = parsed.scope.tenantIds;
        const { rows } = await sql<{ id: string }>`select id from tenants where id = any(${ids}::uuid[])`.execute(db);
        const missing = ids.filter((id) => !rows.some((row) => row.id === id));
        if (missing.length > 0) {
          console.error(`No tenant with id ${missing.join(', ')}.`);
          return 1;
        }
      }
      const { key, rawKey } = await manage.create(parsed.name, parsed.scope);
      console.log(describe(key));
      console.log(`\nService key (shown once, store it as the service's PORTCULLIS_SERVICE_KEY):\n${rawKey}`);
    } else if (parsed.command === 'list') {
      const keys = await manage.list();
      console.log(keys.length ? keys.map(describe).join('\n') : 'No service keys.');
    } else {
      const revoked = await manage.revoke(parsed.idOrName);
      if (!revoked) {
        console.error(`No service key in use with id or name "${parsed.idOrName}".`);
        return 1;
      }
      console.log(describe(revoked));
    }
    return 0;
  } catch (error) {
    if (error instanceof InvalidServiceKeyName || error instanceof InvalidServiceKeyScope || error instanceof ServiceKeyNameTaken) {
      console.error(error.message);
      return 1;
    }
    if ((error as { code?: unknown }).code === '42P01') {
      console.error('The service_keys table does not exist yet: run `npm run migrate` first.');
      return 1;
    }
    throw error;
  } finally {
    await close();
  }
}

run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
}, (error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
