import { ALL_TENANTS, namedTenants, type ServiceKeyScope } from '../domain/service-key';

export const SERVICE_KEY_USAGE = `Usage:
  npm run service-key -- create <name> --all-tenants
  npm run service-key -- create <name> --tenant <tenant id> [--tenant <tenant id> ...]
                                           make a key for a verifying service; prints it once. Say which
                                           tenants' credentials it may ask about and hear of: every
                                           tenant, or the ones named (there is no default)
  npm run service-key -- list              every key: id, name, prefix, scope, created, revoked
  npm run service-key -- revoke <id|name>  revoke a key in use (every instance refuses it and closes
                                           its change streams as soon as it hears of it)

Runs against DATABASE_URL (or the embedded database in PGLITE_DIR, with the service stopped),
as the database's owner, like npm run migrate.`;

export type ServiceKeyCommand =
  | { readonly command: 'create'; readonly name: string; readonly scope: ServiceKeyScope }
  | { readonly command: 'list' }
  | { readonly command: 'revoke'; readonly idOrName: string };

/** The command line's words as a command; null when they are not one (the usage is shown, exit code 2). */
export function parseServiceKeyCommand(args: readonly string[]): ServiceKeyCommand | null {
  const [command, ...rest] = args;
  if (command === 'list') return rest.length === 0 ? { command } : null;
  if (command === 'revoke') return rest.length === 1 && rest[0] ? { command, idOrName: rest[0] } : null;
  if (command !== 'create') return null;
  const [name, ...options] = rest;
  if (!name || name.startsWith('--')) return null;
  if (options.length === 1 && options[0] === '--all-tenants') return { command, name, scope: ALL_TENANTS };
  const tenantIds: string[] = [];
  for (let i = 0; i < options.length; i += 2) {
    const value = options[i + 1];
    if (options[i] !== '--tenant' || value === undefined || value.startsWith('--')) return null;
    tenantIds.push(value);
  }
  return tenantIds.length > 0 ? { command, name, scope: namedTenants(tenantIds) } : null;
}
