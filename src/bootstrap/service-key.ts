import { ManageServiceKeys, InvalidServiceKeyName } from '../application/service-keys/manage-service-keys';
import { ServiceKeyNameTaken } from '../application/ports/service-keys';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { KyselyServiceKeyRepository } from '../adapters/persistence/kysely/repositories/service-key-repository';
import { SystemClock } from '../adapters/time/system-clock';
import type { ServiceKey } from '../domain/service-key';
import { loadConfig } from './config';
import { openDatabase } from './database';

const USAGE = `Usage:
  npm run service-key -- create <name>     make a key for a verifying service; prints it once
  npm run service-key -- list              every key: id, name, prefix, created, revoked
  npm run service-key -- revoke <id|name>  revoke a key in use (instances stop accepting it within seconds)

Runs against DATABASE_URL (or the embedded database in PGLITE_DIR, with the service stopped),
as the database's owner, like npm run migrate.`;

function describe(key: ServiceKey): string {
  const revoked = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'in use';
  return `${key.id}  ${key.name}  ${key.keyPrefix}…  created ${key.createdAt.toISOString()}  ${revoked}`;
}

/** Exit code: 0 done, 1 failed, 2 misused (unknown command, missing argument). */
async function run(args: readonly string[]): Promise<number> {
  const [command, argument, ...rest] = args;
  const needsArgument = command === 'create' || command === 'revoke';
  if (!command || !['create', 'list', 'revoke'].includes(command) || (needsArgument && (!argument || rest.length > 0))
    || (command === 'list' && argument !== undefined)) {
    console.error(USAGE);
    return 2;
  }
  const { db, close } = await openDatabase(loadConfig());
  const manage = new ManageServiceKeys({
    serviceKeys: new KyselyServiceKeyRepository(db), ids: new RandomUuidGenerator(), secrets: new NodeSecrets(), clock: new SystemClock(),
  });
  try {
    if (command === 'create') {
      const { key, rawKey } = await manage.create(argument!);
      console.log(describe(key));
      console.log(`\nService key (shown once, store it as the service's PORTCULLIS_SERVICE_KEY):\n${rawKey}`);
    } else if (command === 'list') {
      const keys = await manage.list();
      console.log(keys.length ? keys.map(describe).join('\n') : 'No service keys.');
    } else {
      const revoked = await manage.revoke(argument!);
      if (!revoked) {
        console.error(`No service key in use with id or name "${argument}".`);
        return 1;
      }
      console.log(describe(revoked));
    }
    return 0;
  } catch (error) {
    if (error instanceof InvalidServiceKeyName || error instanceof ServiceKeyNameTaken) {
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
