import path from 'node:path';
import { type OpenApiDocument, openApiDocument, readOpenApiDocument } from '../docs/openapi-document';

/** A module's part of the API reference. */
export interface ModuleApiReference {
  readonly name: string;
  /**
   * An OpenAPI 3.1 document with the module's paths and components: absolute, or relative to the
   * folder the service runs in (`examples/notes/openapi.yaml`). Its `$ref`s may name identity's components (the shared error
   * answers: `#/components/responses/Unauthorized`), since it is merged into identity's document.
   */
  readonly file: string;
  /** Added to the AuditAction schema, so the trail's answers list them. */
  readonly auditActions: readonly string[];
}

type Section = Record<string, unknown>;

const COMPONENT_SECTIONS = ['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'pathItems'];

function sectionOf(document: OpenApiDocument, key: string): Section {
  const value = document[key];
  return typeof value === 'object' && value !== null ? (value as Section) : {};
}

/**
 * Identity's document with each module's part merged in: paths, components and tags added, and the
 * modules' audit actions appended to the AuditAction enum. A path or component name that two
 * parts both define is refused (the service does not start), never silently overwritten.
 */
export function mergeOpenApi(base: OpenApiDocument, parts: readonly { name: string; document: OpenApiDocument; auditActions: readonly string[] }[]): OpenApiDocument {
  const paths: Section = { ...sectionOf(base, 'paths') };
  const components: Record<string, Section> = {};
  for (const [key, value] of Object.entries(sectionOf(base, 'components'))) components[key] = { ...(value as Section) };
  const tags = [...((base.tags as Array<{ name: string }> | undefined) ?? [])];
  const actions = new Set<string>();

  for (const part of parts) {
    for (const [template, item] of Object.entries(sectionOf(part.document, 'paths'))) {
      if (Object.hasOwn(paths, template)) throw new Error(`API reference: module ${part.name} documents ${template}, which is already documented`);
      paths[template] = item;
    }
    for (const [key, value] of Object.entries(sectionOf(part.document, 'components'))) {
      if (!COMPONENT_SECTIONS.includes(key)) throw new Error(`API reference: module ${part.name} has an unknown components section ${key}`);
      const section = (components[key] ??= {});
      for (const [name, component] of Object.entries(value as Section)) {
        if (Object.hasOwn(section, name)) throw new Error(`API reference: module ${part.name} defines components.${key}.${name}, which is already defined`);
        section[name] = component;
      }
    }
    for (const tag of (part.document.tags as Array<{ name: string }> | undefined) ?? []) {
      if (!tags.some((known) => known.name === tag.name)) tags.push(tag);
    }
    for (const action of part.auditActions) actions.add(action);
  }

  const auditAction = components['schemas']?.['AuditAction'] as { enum?: string[] } | undefined;
  if (auditAction && actions.size > 0) {
    components['schemas']!['AuditAction'] = { ...auditAction, enum: [...(auditAction.enum ?? []), ...actions] };
  }
  return { ...base, tags, paths, components };
}

/**
 * Identity's document with the given modules' parts, read from their files (at start: a missing
 * file stops the service). A module's file is its own project's, not this package's: a relative
 * name is taken from the folder the process runs in (the project's root, where npm runs its
 * scripts and jest its tests); an absolute one as it is.
 */
export function openApiWithModules(modules: readonly ModuleApiReference[]): OpenApiDocument {
  return mergeOpenApi(openApiDocument(), modules.map((module) => ({
    name: module.name,
    document: readOpenApiDocument(path.resolve(module.file)),
    auditActions: module.auditActions,
  })));
}
