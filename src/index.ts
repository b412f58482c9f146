/**
 * The `portcullis` package's main entry: what a product module needs to be written, tested and
 * served from a repository of its own, with `portcullis` as a dependency (docs/modules.md). The
 * platform's kits, one per layer, and `startPortcullis(modules)`, which starts identity and the
 * modules given exactly as `npm start` starts identity alone.
 *
 * Nothing here is imported by the service itself: it is the surface the package offers, and the
 * only one a module may use (.dependency-cruiser.js). The test kit is the package's other entry,
 * `portcullis/testing`.
 */
// Decorator metadata for the DTOs of the service and of the modules, loaded before any of them.
import 'reflect-metadata';

export * from './domain/modules/domain-kit';
export * from './application/modules/application-kit';
export * from './adapters/http/modules/http-kit';
export * from './adapters/persistence/modules/persistence-kit';
export * from './bootstrap/modules/bootstrap-kit';
