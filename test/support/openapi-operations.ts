import type { OpenApiDocument } from '../../src/adapters/http/docs/openapi-document';

/** One documented operation, with what it takes to recognise a request for it. */
export interface DocumentedOperation {
  readonly method: string;
  /** The path as the document writes it: `/api/v1/auth/invites/{id}`. */
  readonly template: string;
  readonly operationId: string;
  /** JSON pointer to the operation object, for reading it and for ajv references into it. */
  readonly pointer: string;
  readonly pattern: RegExp;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Matches a raw request path the way Express 5 routes it (path-to-regexp 8, Express's defaults):
 * letter case ignored, one optional trailing slash, a parameter is one non-empty segment, and
 * literal parts are compared undecoded (`/m%65` is not `/me`).
 */
function templatePattern(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

export function documentedOperations(document: OpenApiDocument): DocumentedOperation[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, { operationId?: string }>>;
  const operations: DocumentedOperation[] = [];
  for (const [template, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        template,
        operationId: operation.operationId ?? `${method} ${template}`,
        pointer: `#/paths/${escapePointer(template)}/${method}`,
        pattern: templatePattern(template),
      });
    }
  }
  return operations;
}

/**
 * The path of a request target as Express sees it, undecoded: origin-form up to the query, the path
 * of an absolute-form target, and null for `*` (which no route matches).
 */
export function requestPath(target: string): string | null {
  if (target.startsWith('/')) return target.split('?', 1)[0]!;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*(\/[^?]*)?/i.exec(target);
  if (absolute) return absolute[1] ?? '/';
  return null;
}

/** True when every parameter Express would decode can be decoded; Express answers 400 otherwise. */
export function parametersDecode(operation: DocumentedOperation, path: string): boolean {
  const match = operation.pattern.exec(path);
  if (!match) return true;
  return match.slice(1).every((value) => {
    try {
      decodeURIComponent(value);
      return true;
    } catch {
      return false;
    }
  });
}
