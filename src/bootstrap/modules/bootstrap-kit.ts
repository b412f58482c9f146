/**
 * What a product module's own composition (its `*-module.ts` and an entry point such as
 * examples/notes/main.ts) may import from the platform's composition root: the module interface
 * and the service's main, to start identity with a list of modules.
 */
export type { ErrorAnswer, ModulePlatform, ModuleStore, PortcullisModule, Route, TenantUnitOfWork } from './portcullis-module';
export { main } from '../main';
