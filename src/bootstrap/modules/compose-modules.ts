import { AUDIT_ACTION_PATTERN } from '../../domain/audit-event';
import type { ModuleHttp } from '../../adapters/http/modules/module-http';
import type { OpenApiDocument } from '../../adapters/http/docs/openapi-document';
import { openApiWithModules } from '../../adapters/http/modules/module-openapi';
import type { Route } from '../../adapters/http/routes/route';
import { IDENTITY, IDENTITY_NAME } from './identity-module';
import type { ModuleMigrations } from '../../adapters/persistence/modules/module-migrations';
import type { ModulePlatform, PortcullisModule } from './portcullis-module';

const NAME_PATTERN = /^[a-z][a-z0-9_]{0,30}$/;

/** Paths identity and the platform's own routes own; a product module's route under one would shadow or be shadowed. */
const RESERVED_PREFIXES = ['/api/v1/auth', '/api/v1/openapi.json', '/healthz', '/readyz', '/metrics', '/docs', '/console'];

export class ModuleCompositionError extends Error {
  override readonly name = 'ModuleCompositionError';
}

/**
 * The modules' declarations, checked before anything is opened, against identity's (the first
 * module, whose names, audit actions and error codes no product module may take) and each other's.
 */
export function checkModules(modules: readonly PortcullisModule[]): void {
  const names = new Set<string>([IDENTITY_NAME]);
  const actions = new Set<string>(IDENTITY.auditActions);
  const codes = new Set<string>(Object.keys(IDENTITY.errors));
  for (const module of modules) {
    if (!NAME_PATTERN.test(module.name)) throw new ModuleCompositionError(`module name "${module.name}" must match ${NAME_PATTERN}`);
    if (names.has(module.name)) throw new ModuleCompositionError(`module name "${module.name}" is taken`);
    names.add(module.name);
    for (const action of module.auditActions ?? []) {
      if (!AUDIT_ACTION_PATTERN.test(action)) throw new ModuleCompositionError(`module ${module.name}: audit action "${action}" must be <noun>.<verb> in lower case`);
      if (actions.has(action)) throw new ModuleCompositionError(`module ${module.name}: audit action "${action}" is already used`);
      actions.add(action);
    }
    for (const [code, answer] of Object.entries(module.errors) as Array<[string, { status: number }]>) {
      if (codes.has(code)) throw new ModuleCompositionError(`module ${module.name}: error code ${code} is already used`);
      if (!Number.isInteger(answer.status) || answer.status < 400 || answer.status > 599) {
        throw new ModuleCompositionError(`module ${module.name}: error code ${code} needs a 4xx or 5xx status`);
      }
      codes.add(code);
    }
  }
}

/** What opening the database needs: each module's migrations, in list order (after identity's). */
export function moduleMigrationsOf(modules: readonly PortcullisModule[]): ModuleMigrations[] {
  return modules.filter((module) => module.migrations).map((module) => ({ name: module.name, migrations: module.migrations! }));
}

export interface ComposedModules {
  /** For createApp (AppOptions.modules): identity first, then the product modules in list order. */
  readonly http: ModuleHttp[];
  /** For createApp (AppOptions.apiReferenceJson): undefined when no product module documents anything. */
  readonly apiReferenceJson: string | undefined;
}

/**
 * Builds identity, then every product module, on the platform, in list order, and checks each
 * product module's routes against the platform's paths and every earlier module's routes, identity's
 * included. Throws ModuleCompositionError (the service does not start) on any clash.
 */
export async function composeModules(
  identity: PortcullisModule, modules: readonly PortcullisModule[], platform: ModulePlatform,
): Promise<ComposedModules> {
  checkModules(modules);
  const earlier: Array<{ method: string; pattern: RegExp; path: string }> = [];
  const http: ModuleHttp[] = [];
  for (const module of [identity, ...modules]) {
    const routes = await module.build(platform);
    for (const route of routes) {
      if (module !== identity) checkRoute(module.name, route);
      checkClash(module.name, route, earlier);
    }
    http.push({ name: module.name, routes, errors: module.errors });
  }
  const documented = modules.some((module) => module.apiReference !== undefined);
  return { http, apiReferenceJson: documented ? JSON.stringify(apiReferenceWith(modules)) : undefined };
}

/** Identity's API reference with the modules' parts merged in: what the service serves, and what the lint and the tests check. */
export function apiReferenceWith(modules: readonly PortcullisModule[]): OpenApiDocument {
  return openApiWithModules(modules.filter((module) => module.apiReference !== undefined).map((module) => ({
    name: module.name, file: module.apiReference!, auditActions: module.auditActions ?? [],
  })));
}

/** Express 5 matches paths case-insensitively, with an optional trailing slash; a parameter is one segment. */
function patternOf(path: string): RegExp {
  const source = path.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
  return new RegExp(`^${source}/?$`, 'i');
}

/** A product module's route: public or protected, under none of the paths the platform serves. */
function checkRoute(module: string, route: Route): void {
  const { method, path } = route;
  if (route.group !== 'public' && route.group !== 'protected') {
    throw new ModuleCompositionError(`module ${module}: ${method.toUpperCase()} ${path} must be in the public or the protected group`);
  }
  if (!path.startsWith('/')) throw new ModuleCompositionError(`module ${module}: route path ${path} must start with /`);
  const lower = path.toLowerCase();
  const reserved = RESERVED_PREFIXES.find((prefix) => lower === prefix || lower.startsWith(`${prefix}/`));
  if (reserved) throw new ModuleCompositionError(`module ${module}: ${method.toUpperCase()} ${path} is under ${reserved}, which the platform serves`);
}

/** A route an earlier one (identity's or a module's) would answer first, or that would answer an earlier one's path. */
function checkClash(module: string, route: Route, earlier: Array<{ method: string; pattern: RegExp; path: string }>): void {
  const { method, path } = route;
  const shadow = earlier.find((other) => other.method === method && (other.pattern.test(path) || patternOf(path).test(other.path)));
  if (shadow) throw new ModuleCompositionError(`module ${module}: ${method.toUpperCase()} ${path} clashes with ${shadow.path}`);
  earlier.push({ method, pattern: patternOf(path), path });
}
