import { AuditTrail } from '../../src/application/audit/audit-trail';
import { createApp, type AppOptions, type HttpConfig } from '../../src/adapters/http/app';
import { memoryModuleStore } from '../../src/adapters/persistence/modules/memory-module-store';
import { composeModules } from '../../src/bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import { GENEROUS_RATE_LIMITS, TEST_CORS_ORIGIN, type TestApp } from './http-app';
import { buildTestUseCases, type TestUseCasesOptions } from './test-use-cases';

/**
 * Identity and the given modules over memory storage, wired as main wires them (buildUseCases,
 * composeModules on the memory module store, createApp with the modules' routes and reference).
 */
export async function buildModuleTestApp(
  modules: readonly PortcullisModule[],
  overrides: Partial<HttpConfig> = {},
  options: TestUseCasesOptions = {},
  appOptions: AppOptions = {},
): Promise<TestApp> {
  const built = await buildTestUseCases({ moduleAuditActions: modules.flatMap((module) => module.auditActions ?? []), ...options });
  const { clock, ids } = built.services;
  const composed = await composeModules(modules, {
    store: memoryModuleStore(built.storage.unitOfWork), clock, ids, trail: new AuditTrail({ ids, clock }),
  });
  const logged: unknown[] = [];
  const config: HttpConfig = { corsOrigin: TEST_CORS_ORIGIN, rateLimits: GENEROUS_RATE_LIMITS, ...overrides };
  const app = createApp(built.useCases, config, {
    ...appOptions,
    modules: composed.http,
    apiReferenceJson: composed.apiReferenceJson,
    onError: (err) => {
      logged.push(err);
      appOptions.onError?.(err);
    },
  });
  return { ...built, app, logged };
}
