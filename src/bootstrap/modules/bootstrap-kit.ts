/**
 * What a product module's own composition (its `*-module.ts` and its entry point, such as
 * examples/notes/main.ts) takes from the platform's composition root: the module interface, and
 * `startPortcullis(modules)`, the service's start with identity and the modules given.
 */
export type { ErrorAnswer, ModulePlatform, ModuleStore, PortcullisModule, Route, TenantUnitOfWork } from './portcullis-module';
export { main as startPortcullis } from '../main';
