/**
 * Checks one HTTP exchange against docs/openapi.yaml: the operation (method and path template), the
 * status, the Content-Type, the body's schema and the headers the document requires. Every HTTP
 * test response passes through here (test/support/contract-request.ts and the fuzz harness),
 * so a route that drifts from the reference fails the tests.
 *
 * Schemas are JSON Schema 2020-12, the dialect of OpenAPI 3.1, checked by ajv's 2020 build (the
 * most used JSON Schema validator, maintained, and the one @redocly/cli and openapi-backend build
 * on) with ajv-formats. The document is registered once; each schema is compiled the first time a
 * response needs it and then reused, so the cost is paid once per test file and schema.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { apiReferenceWith } from '../../src/bootstrap/modules/compose-modules';
import { KNOWN_MODULES } from './known-modules';
import {
  documentedOperations, escapePointer, parametersDecode, requestPath, type DocumentedOperation,
} from './openapi-operations';

export interface Exchange {
  readonly method: string;
  /** The request target as sent: `/api/v1/auth/me?x=1`, or absolute-form. */
  readonly target: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as received; undefined or empty when there was none. */
  readonly body: string | Buffer | undefined;
}

export class OpenApiDriftError extends Error {
  override readonly name = 'OpenApiDriftError';
}

const DOCUMENT_ID = 'urn:portcullis:openapi';
/** Keys of the OpenAPI root that are not JSON Schema keywords: declared so strict mode lets them be. */
const OPENAPI_ROOT_KEYS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags', 'externalDocs'];
/** The OpenAPI 3.1 base dialect's own schema keywords (annotations for our purposes). */
const OPENAPI_SCHEMA_KEYWORDS = ['discriminator', 'xml', 'externalDocs', 'example'];

interface ResponseObject {
  readonly content?: Record<string, { schema?: unknown }>;
  readonly headers?: Record<string, unknown>;
}

// Identity's document with every module the tests build apps with: what such an app serves.
const document = apiReferenceWith(KNOWN_MODULES);
const operations = documentedOperations(document);
// The document's structure is checked by redocly lint; ajv's own check of each schema against the
// JSON Schema meta-schema would cost ~100 ms per test file for nothing more. Strict mode stays on,
// so an unknown keyword or format in a schema still fails the first response that needs it.
const ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addVocabulary([...new Set([...OPENAPI_ROOT_KEYS, ...OPENAPI_SCHEMA_KEYWORDS])]);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });
const compiled = new Map<string, ValidateFunction>();

/** The value at a JSON pointer, following $ref to components (responses and headers use them). */
function resolve(pointer: string): { pointer: string; value: unknown } {
  let value: unknown = document;
  for (const part of pointer.replace(/^#\//, '').split('/')) {
    value = (value as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  return typeof ref === 'string' ? resolve(ref) : { pointer, value };
}

function validatorAt(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
    compiled.set(pointer, validate);
  }
  return validate;
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => `${error.instancePath || '(body)'} ${error.message ?? 'is invalid'}${
    error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : ''}`);
}

function headerValue(headers: Exchange['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function bodyText(body: Exchange['body']): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : body.toString('utf8');
}

interface MediaType {
  readonly type: string;
  readonly parameters: ReadonlyMap<string, string>;
}

/** `text/plain; version=0.0.4; charset=utf-8` as its type and parameters (names in lower case, quotes dropped). */
function parseMediaType(text: string): MediaType {
  const [type, ...parameters] = text.split(';');
  const entries = parameters.map((parameter) => {
    const at = parameter.indexOf('=');
    return [parameter.slice(0, at).trim().toLowerCase(), parameter.slice(at + 1).trim().replace(/^"(.*)"$/, '$1')] as const;
  }).filter(([name]) => name.length > 0);
  return { type: type!.trim().toLowerCase(), parameters: new Map(entries) };
}

/**
 * The documented media type the answer's Content-Type is: same type, and every parameter the
 * document names (`version=0.0.4`) present with that value. Parameters it does not name (charset)
 * are free.
 */
function documentedMediaType(headers: Exchange['headers'], documented: readonly string[]): string | undefined {
  const header = headerValue(headers, 'content-type');
  if (header === undefined) return undefined;
  const actual = parseMediaType(header);
  return documented.find((key) => {
    const expected = parseMediaType(key);
    return expected.type === actual.type && [...expected.parameters].every(([name, value]) => actual.parameters.get(name) === value);
  });
}

/** What the document allows for one status of one response object (already resolved). */
function checkResponse(exchange: Exchange, responsePointer: string): string[] {
  const problems: string[] = [];
  const { pointer, value } = resolve(responsePointer);
  const response = value as ResponseObject;
  const text = bodyText(exchange.body);
  const hasBody = exchange.method !== 'HEAD';

  for (const name of Object.keys(response.headers ?? {})) {
    const header = resolve(`${pointer}/headers/${escapePointer(name)}`);
    const declared = header.value as { required?: boolean; schema?: unknown };
    const actual = headerValue(exchange.headers, name);
    if (actual === undefined) {
      if (declared.required === true) problems.push(`header ${name} is required and missing`);
      continue;
    }
    if (declared.schema === undefined) continue;
    const validate = validatorAt(`${header.pointer}/schema`);
    if (!validate(actual)) problems.push(...describeErrors(validate.errors).map((p) => `header ${name}: ${p}`));
  }

  if (!response.content) {
    if (text.length > 0) problems.push(`no body is documented, got ${JSON.stringify(text.slice(0, 200))}`);
    return problems;
  }
  const documented = Object.keys(response.content);
  const mediaType = documentedMediaType(exchange.headers, documented);
  if (!mediaType) {
    problems.push(`Content-Type ${headerValue(exchange.headers, 'content-type') ?? '(none)'} is not documented (documented: ${documented.join(', ')})`);
    return problems;
  }
  if (!hasBody) return problems;
  const baseType = parseMediaType(mediaType).type;
  if (baseType === 'application/json' || baseType.endsWith('+json')) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push(`the body is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
      return problems;
    }
    if (response.content[mediaType]?.schema === undefined) return problems;
    const validate = validatorAt(`${pointer}/content/${escapePointer(mediaType)}/schema`);
    if (!validate(body)) problems.push(...describeErrors(validate.errors));
  } else if (text.length === 0 && !Buffer.isBuffer(exchange.body)) {
    problems.push(`the ${mediaType} body is empty`);
  }
  return problems;
}

function findStatus(responses: Record<string, unknown>, status: number): string | undefined {
  const code = String(status);
  const range = `${code[0]}XX`;
  return [code, range, 'default'].find((key) => Object.hasOwn(responses, key));
}

/**
 * The answer to a request no served operation matches: what every unknown route gets (the global
 * rate limit runs first, so it may also refuse it), or 400 for a parameter Express cannot decode.
 */
function checkUnrouted(exchange: Exchange, path: string | null): string[] {
  const allowed: Record<number, string> = {
    404: '#/components/responses/NotFound',
    429: '#/components/responses/TooManyRequests',
    503: '#/components/responses/ServiceUnavailable',
  };
  if (path !== null && operations.some((op) => op.pattern.test(path) && !parametersDecode(op, path))) {
    allowed[400] = '#/components/responses/BadRequestPath';
  }
  const pointer = allowed[exchange.status];
  if (!pointer) return [`no documented operation matches, so the answer must be one of ${Object.keys(allowed).join(', ')}, not ${exchange.status}`];
  return checkResponse(exchange, pointer);
}

function matchOperation(method: string, path: string | null): DocumentedOperation | undefined {
  if (path === null) return undefined;
  const candidates = operations.filter((op) => op.pattern.test(path));
  // Express answers HEAD with the GET route when there is no HEAD route of its own.
  return candidates.find((op) => op.method === method) ?? (method === 'HEAD' ? candidates.find((op) => op.method === 'GET') : undefined);
}

/** Every way the exchange departs from the document; empty when it keeps to it. */
export function openApiViolations(exchange: Exchange): string[] {
  const method = exchange.method.toUpperCase();
  // The CORS layer answers every OPTIONS itself, on any path, before routing (see the document's info).
  if (method === 'OPTIONS') {
    return exchange.status === 204 && bodyText(exchange.body).length === 0 ? [] : [`OPTIONS must be answered 204 without a body, got ${exchange.status}`];
  }
  const path = requestPath(exchange.target);
  const operation = matchOperation(method, path);
  if (!operation) return checkUnrouted({ ...exchange, method }, path);
  const responses = resolve(`${operation.pointer}/responses`).value as Record<string, unknown>;
  const key = findStatus(responses, exchange.status);
  if (!key) return [`status ${exchange.status} is not documented for ${operation.operationId} (documented: ${Object.keys(responses).join(', ')})`];
  return checkResponse({ ...exchange, method }, `${operation.pointer}/responses/${key}`);
}

/** Throws an OpenApiDriftError naming the request, the answer and every departure from the document. */
export function assertMatchesOpenApi(exchange: Exchange): void {
  const problems = openApiViolations(exchange);
  if (problems.length === 0) return;
  const text = bodyText(exchange.body);
  throw new OpenApiDriftError([
    `${exchange.method.toUpperCase()} ${exchange.target} answered ${exchange.status}, which docs/openapi.yaml does not allow:`,
    ...problems.map((problem) => `  - ${problem}`),
    `  Content-Type: ${headerValue(exchange.headers, 'content-type') ?? '(none)'}`,
    `  body: ${Buffer.isBuffer(exchange.body) ? `(${exchange.body.length} bytes)` : text.slice(0, 500) || '(empty)'}`,
  ].join('\n'));
}
