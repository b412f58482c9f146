import type { HttpConfig } from '../../src/adapters/http/app';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import { buildTestApp, type TestApp, type TestAppOptions } from './http-app';
import type { TestUseCasesOptions } from './test-use-cases';

/** Identity and the given modules over memory storage, assembled as main assembles them. */
export async function buildModuleTestApp(
  modules: readonly PortcullisModule[],
  overrides: Partial<HttpConfig> = {},
  options: TestUseCasesOptions = {},
  appOptions: TestAppOptions = {},
): Promise<TestApp> {
  return buildTestApp(overrides, { ...options, modules }, appOptions);
}
