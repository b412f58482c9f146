/**
 * A request's shape is written once, in its DTO: the API reference's request schemas are derived
 * from the DTOs (src/adapters/http/docs/request-schemas.ts) and written into the YAML by
 * `npm run openapi:requests`. These tests hold the written YAML to the derivation, the routes to
 * the schemas their operations name, and the derivation to what the service really accepts.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { VISIBLE_TEXT_PATTERN, hiddenCharacterIn } from '../../src/domain/visible-text';
import { AuditEventsQuery } from '../../src/adapters/http/body/dto/audit-events-query';
import { ChangePasswordBody } from '../../src/adapters/http/body/dto/change-password-body';
import { ChangeRoleBody } from '../../src/adapters/http/body/dto/change-role-body';
import { CreateApiKeyBody } from '../../src/adapters/http/body/dto/create-api-key-body';
import { IntrospectBody } from '../../src/adapters/http/body/dto/introspect-body';
import { InviteBody } from '../../src/adapters/http/body/dto/invite-body';
import { LoginBody } from '../../src/adapters/http/body/dto/login-body';
import { SignupBody } from '../../src/adapters/http/body/dto/signup-body';
import { validatedInstance } from '../../src/adapters/http/body/validate-body';
import { packageRoot, readOpenApiDocument } from '../../src/adapters/http/docs/openapi-document';
import { queryParameters, requestBodySchema, type Dto, type JsonSchema } from '../../src/adapters/http/docs/request-schemas';
import { withRequestSchemas } from '../../scripts/openapi/request-schemas-yaml';
import { CreateNoteBody } from '../../examples/notes/adapters/http/create-note-body';
import { REQUEST_DOCUMENTS } from '../support/request-documents';

const RUN_THE_SCRIPT = 'run `npm run openapi:requests` to write the DTOs\' schemas into it';

type Operation = { operationId?: string; parameters?: JsonSchema[]; requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } };
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

function documentOf(file: string): Document {
  return readOpenApiDocument(path.join(packageRoot(), file)) as unknown as Document;
}

function operationWithId(document: Document, operationId: string): Operation | undefined {
  return Object.values(document.paths).flatMap((item) => Object.values(item)).find((operation) => operation.operationId === operationId);
}

/** Where two JSON values differ, as `<pointer>: <written> written, <derived> derived` lines. */
function differences(written: unknown, derived: unknown, at = ''): string[] {
  if (JSON.stringify(written) === JSON.stringify(derived)) return [];
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject(written) && isObject(derived)) {
    const keys = [...new Set([...Object.keys(written), ...Object.keys(derived)])];
    return keys.flatMap((key) => differences(written[key], derived[key], `${at}/${key}`));
  }
  const shown = (value: unknown): string => (value === undefined ? '(nothing)' : JSON.stringify(value));
  return [`${at || '/'}: ${shown(written)} written, ${shown(derived)} derived`];
}

describe('the API reference\'s request schemas are the DTOs\' (npm run openapi:requests)', () => {
  describe.each(REQUEST_DOCUMENTS.map((entry) => [entry.file, entry] as const))('%s', (file, { shapes }) => {
    const document = documentOf(file);

    it('holds, for each body, the schema its DTO derives', () => {
      const drifts = Object.entries(shapes.bodies).flatMap(([name, dto]) =>
        differences(document.components.schemas[name], requestBodySchema(dto)).map((difference) =>
          `${file}: components.schemas.${name} differs from what ${dto.name} derives at ${difference}; ${RUN_THE_SCRIPT}`));
      expect(drifts).toEqual([]);
    });

    it('holds, for each query, the parameters its DTO derives', () => {
      const drifts = Object.entries(shapes.queries).flatMap(([operationId, dto]) => {
        const byName = (parameters: JsonSchema[]) => Object.fromEntries(parameters.map((parameter) => [parameter['name'], parameter]));
        const written = (operationWithId(document, operationId)?.parameters ?? []).filter((parameter) => parameter['in'] === 'query');
        return differences(byName(written), byName(queryParameters(dto))).map((difference) =>
          `${file}: the query parameters of ${operationId} differ from what ${dto.name} derives at ${difference}; ${RUN_THE_SCRIPT}`);
      });
      expect(drifts).toEqual([]);
    });

    it('is written exactly as the script writes it (so running it changes nothing)', () => {
      const text = readFileSync(path.join(packageRoot(), file), 'utf8');
      expect(withRequestSchemas(text, file, shapes) === text ? 'up to date' : `${file} is not as the script writes it; ${RUN_THE_SCRIPT}`).toBe('up to date');
    });
  });

  it('rewrites a stale schema and stale query parameters, and nothing else', () => {
    const { file, shapes } = REQUEST_DOCUMENTS[0]!;
    const current = readFileSync(path.join(packageRoot(), file), 'utf8');
    const stale = current
      .replace(/( {4}ChangeRoleRequest:\n)(?: {6}.*\n)+/, '$1      type: object\n')
      .replace('            maximum: 100\n            default: 50\n', '            maximum: 1000\n');
    expect(stale).not.toBe(current);
    expect(withRequestSchemas(stale, file, shapes)).toBe(current);
  });
});

describe('each route\'s DTO is the one its operation\'s schema is derived from', () => {
  const toTemplate = (routePath: string): string => routePath.replace(/:([A-Za-z_]+)/g, '{$1}');

  it.each(REQUEST_DOCUMENTS.map((entry) => [entry.file, entry] as const))('%s', (file, { shapes, routes }) => {
    const document = documentOf(file);
    const problems: string[] = [];
    for (const route of routes()) {
      const operation = document.paths[toTemplate(route.path)]?.[route.method];
      const name = `${route.method.toUpperCase()} ${route.path}`;
      if (!operation) continue; // openapi-reference.test.ts checks that every route is documented
      const ref = operation.requestBody?.content?.['application/json']?.schema?.$ref;
      const schemaName = ref?.replace('#/components/schemas/', '');
      if (route.body && (schemaName === undefined || shapes.bodies[schemaName] !== route.body)) {
        problems.push(`${name} reads ${route.body.name}, but its request body schema (${ref ?? 'none'}) is not derived from it`);
      }
      if (!route.body && ref !== undefined) problems.push(`${name} reads no body, but documents ${ref}`);
      if (route.query && shapes.queries[operation.operationId ?? ''] !== route.query) {
        problems.push(`${name} reads ${route.query.name}, but ${operation.operationId}'s query parameters are not derived from it`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * The derivation is faithful: each body below is accepted or refused alike by the service's own
 * validation (validatedInstance: class-validator, with unknown fields refused) and by ajv with the
 * derived schema. `valid` and `invalid` say what both must answer; each field of the first valid
 * body is also sent null, of the other type, and (when required) left out.
 */
interface Samples {
  readonly dto: Dto;
  readonly valid: readonly Record<string, unknown>[];
  readonly invalid: readonly Record<string, unknown>[];
}

const LONG = (length: number): string => 'a'.repeat(length);
const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery';
const UUID = '0b7c9f2e-5d1a-4c3e-9f8b-1a2b3c4d5e6f';

const BODY_SAMPLES: readonly Samples[] = [
  {
    dto: LoginBody,
    valid: [{ email: EMAIL, password: PASSWORD }, { email: `${LONG(64)}@${LONG(60)}.${LONG(60)}.${LONG(60)}.com`, password: LONG(1024) }],
    invalid: [{ email: EMAIL }, { email: 'not an address', password: PASSWORD }, { email: EMAIL, password: 'short' }, { email: EMAIL, password: LONG(1025) }, { email: EMAIL, password: PASSWORD, remember: true }],
  },
  {
    dto: SignupBody,
    valid: [
      { email: EMAIL, password: PASSWORD, tenant_name: 'Analytical Engines' },
      { email: EMAIL, password: PASSWORD, invite_token: LONG(64) },
      { email: EMAIL, password: PASSWORD, tenant_name: 'Café Zürich' },
      { email: EMAIL, password: PASSWORD },
    ],
    invalid: [
      { email: EMAIL, password: PASSWORD, tenant_name: '' },
      { email: EMAIL, password: PASSWORD, tenant_name: LONG(101) },
      { email: EMAIL, password: PASSWORD, tenant_name: 'Evil\u202eCorp' },
      { email: EMAIL, password: PASSWORD, tenant_name: 'line\nbreak' },
      { email: EMAIL, password: PASSWORD, tenant_name: '\u0301accent' },
      { email: 'ada\u200b@example.com', password: PASSWORD, tenant_name: 'A' },
      { email: EMAIL, password: PASSWORD, invite_token: LONG(257) },
      { email: EMAIL, password: PASSWORD, tenantName: 'typo' },
    ],
  },
  {
    dto: CreateApiKeyBody,
    valid: [{}, { name: 'ci-deploy', expires_in_days: 30 }, { expires_in_days: 1 }, { name: LONG(100), expires_in_days: 365 }],
    invalid: [{ name: '' }, { name: LONG(101) }, { name: 'tab\there' }, { expires_in_days: 0 }, { expires_in_days: 366 }, { expires_in_days: 1.5 }, { expires_in_days: '30' }],
  },
  {
    dto: InviteBody,
    valid: [{ email: EMAIL }, { email: EMAIL, role: 'admin' }, { email: EMAIL, role: 'viewer' }],
    invalid: [{}, { email: EMAIL, role: 'owner' }, { email: EMAIL, role: 'Admin' }, { email: `${LONG(250)}@x.io` }, { email: EMAIL, roles: ['admin'] }],
  },
  {
    dto: ChangeRoleBody,
    valid: [{ role: 'owner' }, { role: 'viewer' }],
    invalid: [{}, { role: 'root' }, { role: ['admin'] }],
  },
  {
    dto: ChangePasswordBody,
    valid: [{ current_password: 'x', new_password: PASSWORD }],
    invalid: [{ current_password: '', new_password: PASSWORD }, { current_password: 'x', new_password: 'short' }, { new_password: PASSWORD }, { current_password: LONG(1025), new_password: PASSWORD }],
  },
  {
    dto: IntrospectBody,
    // Exactly one of token and api_key is the route's rule, not the DTO's.
    valid: [{ token: 'eyJ' }, { api_key: 'pcls_x', min_position: 0 }, {}, { api_key: 'k', min_position: Number.MAX_SAFE_INTEGER }],
    invalid: [{ token: LONG(4097) }, { token: null }, { api_key: null }, { min_position: -1 }, { min_position: 1.5 }, { min_position: null }, { min_position: 2 ** 53 }, { credential: 'x' }],
  },
  {
    dto: CreateNoteBody,
    valid: [{ title: 'Shopping' }, { title: 'Shopping', body: 'milk\neggs' }, { title: LONG(200), body: '' }],
    invalid: [{}, { title: '' }, { title: LONG(201) }, { title: 'two\nlines' }, { title: 'x', body: LONG(10_001) }],
  },
];

const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
addFormats(ajv);

async function serviceAccepts(dto: Dto, body: Record<string, unknown>): Promise<boolean> {
  return validatedInstance(dto, body).then(() => true, () => false);
}

function otherType(value: unknown): unknown {
  return typeof value === 'string' ? 42 : 'text';
}

/** The valid bodies, the invalid ones, and the first valid one with each field null, of the other type, or left out. */
function bodiesOf({ dto, valid, invalid }: Samples): Record<string, unknown>[] {
  const [base = {}] = valid;
  const required = new Set((requestBodySchema(dto)['required'] as string[] | undefined) ?? []);
  const mutations = Object.keys(base).flatMap((field) => [
    { ...base, [field]: null },
    { ...base, [field]: otherType(base[field]) },
    ...(required.has(field) ? [Object.fromEntries(Object.entries(base).filter(([key]) => key !== field))] : []),
  ]);
  return [...valid, ...invalid, ...mutations];
}

describe('the derived schemas accept and refuse what the service does', () => {
  it.each(BODY_SAMPLES.map((samples) => [samples.dto.name, samples] as const))('%s', async (_name, samples) => {
    const validate = ajv.compile(requestBodySchema(samples.dto));
    const verdicts = await Promise.all(bodiesOf(samples).map(async (body) => {
      const service = await serviceAccepts(samples.dto, body);
      return { body, service, schema: validate(body) };
    }));
    expect(verdicts.filter(({ service, schema }) => service !== schema)).toEqual([]);
    expect(samples.valid.filter((body) => !verdicts.find((verdict) => verdict.body === body)!.service)).toEqual([]);
    expect(samples.invalid.filter((body) => verdicts.find((verdict) => verdict.body === body)!.service)).toEqual([]);
  });

  it('AuditEventsQuery, as a query string\'s values (OpenAPI converts a number\'s text, as the service does)', async () => {
    const parameters = queryParameters(AuditEventsQuery);
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(parameters.map((parameter) => [parameter['name'], parameter['schema']])),
    };
    const coercing = new Ajv2020({ strict: true, coerceTypes: true, allErrors: true });
    addFormats(coercing);
    const validate: ValidateFunction = coercing.compile(schema);
    const valid: Record<string, string>[] = [{}, { limit: '1' }, { limit: '100', cursor: 'abc_DEF-123', action: 'login.failed', actor: UUID }, { action: 'note.created' }];
    const invalid: Record<string, string>[] = [{ limit: '0' }, { limit: '101' }, { limit: 'ten' }, { limit: '2.5' }, { cursor: 'a/b' }, { cursor: LONG(201) }, { action: 'login' }, { action: 'Login.failed' }, { actor: 'me' }, { page: '2' }];
    const verdicts = await Promise.all([...valid, ...invalid].map(async (query) => ({
      query, service: await serviceAccepts(AuditEventsQuery, query), schema: validate({ ...query }),
    })));
    expect(verdicts.filter(({ service, schema: bySchema }) => service !== bySchema)).toEqual([]);
    expect(verdicts.filter(({ query, service }) => service !== valid.includes(query))).toEqual([]);
    // Known difference: ajv-formats' uuid also takes the URN form and any version; isUUID('all') does not.
    const urn = { actor: `urn:uuid:${UUID}` };
    expect({ service: await serviceAccepts(AuditEventsQuery, urn), schema: validate({ ...urn }) }).toEqual({ service: false, schema: true });
  });

  it('states the visible-text rule as a pattern that answers as the service\'s check does', () => {
    const characters = ['a', 'Z', '7', 'é', 'e', ' ', '-', '.', '@', '\u0301', '\u0308', '\n', '\t', '\u0007', '\u0085', '\u200b', '\u200d', '\u202e', '\u2066', '\ufeff', '\u00ad', '日', '😀', '\u{1F3FD}', 'а'];
    fc.assert(fc.property(fc.array(fc.constantFrom(...characters), { maxLength: 8 }).map((parts) => parts.join('')), (text) => {
      expect(VISIBLE_TEXT_PATTERN.test(text)).toBe(hiddenCharacterIn(text) === null);
    }), { numRuns: 2000 });
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 12 }), (text) => {
      expect(VISIBLE_TEXT_PATTERN.test(text)).toBe(hiddenCharacterIn(text) === null);
    }), { numRuns: 2000 });
  });

  /**
   * Where a schema cannot follow the service, the service decides and the description says so.
   * Listed so that the differences are known, and this test says when one goes away.
   */
  it.each<[string, Dto, Record<string, unknown>, { service: boolean; schema: boolean }]>([
    ['a length counted after NFC normalisation (100 é written as e + U+0301)', SignupBody, { email: EMAIL, password: PASSWORD, tenant_name: 'e\u0301'.repeat(100) }, { service: true, schema: false }],
    ['an address whose domain has a one-letter top level (class-validator\'s isEmail wants two)', LoginBody, { email: 'ada@example.c', password: PASSWORD }, { service: false, schema: true }],
    ['an address with a non-ASCII local part (ajv-formats\' email is ASCII only)', LoginBody, { email: 'zoë@example.com', password: PASSWORD }, { service: true, schema: false }],
    ['a length that leaves out emoji presentation selectors (validator.js counts 100 for 100 a + U+FE0F)', SignupBody, { email: EMAIL, password: PASSWORD, tenant_name: 'a\ufe0f'.repeat(100) }, { service: true, schema: false }],
  ])('known difference: %s', async (_name, dto, body, expected) => {
    expect({ service: await serviceAccepts(dto, body), schema: ajv.compile(requestBodySchema(dto))(body) }).toEqual(expected);
  });
});
