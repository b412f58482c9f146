import { getMetadataStorage } from 'class-validator';
import { descriptionOf, type Description } from '../body/dto/described';
import type { GroupRolesConstraint } from '../body/dto/group-roles';
import { isPresent } from '../body/dto/optional-field';

/**
 * The API reference's request schemas, derived from the DTOs that validate the requests, so that a
 * request's shape is written once: in its DTO (class-validator's decorators say what is accepted,
 * `@Described` what the reference says about it to people). `npm run openapi:requests` writes what
 * this derives into docs/openapi.yaml (scripts/openapi/write-request-schemas.ts), and
 * test/http/request-schemas.test.ts fails when the two differ, or when a derived schema accepts
 * what the DTO refuses or the reverse.
 *
 * Only the decorators our DTOs use are known here; any other stops the derivation by name, so a new
 * rule is never left out of the reference silently.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Dto = new () => any;

/** A JSON Schema 2020-12 object, as OpenAPI 3.1 embeds it. */
export type JsonSchema = { [keyword: string]: unknown };

/** Which DTO describes which part of one OpenAPI document. */
export interface RequestShapes {
  /** `components.schemas.<name>` ← the body DTO it is derived from. */
  readonly bodies: Readonly<Record<string, Dto>>;
  /** The query parameters of the operation with this operationId ← the query DTO. */
  readonly queries: Readonly<Record<string, Dto>>;
}

type JsonType = 'string' | 'integer' | 'number' | 'object' | 'boolean';

/** What one field's decorators say, gathered before it is written out in the reference's order. */
interface FieldRules {
  types: Set<JsonType>;
  optional: false | 'absent' | 'absent-or-null';
  format?: string;
  enum?: readonly unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  patterns: string[];
  /** An object's values (a map such as group_roles), and how many it may hold. */
  values?: { readonly enum: readonly string[]; readonly maxProperties: number; readonly maxKeyLength: number };
}

type ValidationMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

/** class-validator's ValidationTypes: ValidateIf and IsOptional, and every decorator built on ValidateBy. */
const CONDITIONAL = 'conditionalValidation';
const CUSTOM = 'customValidation';

function fail(dto: Dto, field: string, problem: string): never {
  throw new Error(`${dto.name}.${field}: ${problem}; describe it in src/adapters/http/docs/request-schemas.ts`);
}

function patternOf(dto: Dto, field: string, value: unknown): string {
  if (!(value instanceof RegExp)) fail(dto, field, 'a pattern that is not a regular expression');
  // JSON Schema patterns are unanchored ECMA-262 with the `u` flag; other flags have no counterpart.
  if (value.flags.replace('u', '') !== '') fail(dto, field, `the pattern /${value.source}/${value.flags} has flags a schema cannot state`);
  return value.source;
}

/** One class-validator rule into the field's rules; the types are what the validator itself insists on. */
function addRule(dto: Dto, field: string, rules: FieldRules, metadata: ValidationMetadata): void {
  if (metadata.each) fail(dto, field, `the rule ${metadata.name ?? metadata.type} applies to each item`);
  if (metadata.type === CONDITIONAL) {
    if (metadata.name === 'isOptional') rules.optional = 'absent-or-null';
    else if (metadata.constraints?.[0] === isPresent) rules.optional = 'absent';
    else fail(dto, field, 'a ValidateIf other than OptionalField');
    return;
  }
  if (metadata.type !== CUSTOM) fail(dto, field, `the rule ${metadata.type}`);
  const [first, second] = metadata.constraints ?? [];
  switch (metadata.name) {
    case 'isString': rules.types.add('string'); return;
    case 'isObject': rules.types.add('object'); return;
    case 'isInt': rules.types.add('integer'); return;
    case 'isBoolean': rules.types.add('boolean'); return;
    case 'isEmail': rules.types.add('string'); rules.format = 'email'; return;
    case 'isUuid': rules.types.add('string'); rules.format = 'uuid'; return;
    case 'isIn':
      rules.enum = first as readonly unknown[];
      if (rules.enum.every((value) => typeof value === 'string')) rules.types.add('string');
      return;
    case 'minLength': rules.types.add('string'); rules.minLength = first as number; return;
    case 'maxLength': rules.types.add('string'); rules.maxLength = first as number; return;
    case 'isLength':
      rules.types.add('string');
      rules.minLength = first as number;
      if (second !== undefined) rules.maxLength = second as number;
      return;
    case 'min': rules.types.add('number'); rules.minimum = first as number; return;
    case 'max': rules.types.add('number'); rules.maximum = first as number; return;
    case 'matches': rules.types.add('string'); rules.patterns.push(patternOf(dto, field, first)); return;
    case 'isVisibleText': rules.patterns.push(patternOf(dto, field, first)); return;
    case 'isGroupRoles': {
      const { roles, maxEntries, maxNameLength } = first as GroupRolesConstraint;
      rules.types.add('object');
      rules.values = { enum: roles, maxProperties: maxEntries, maxKeyLength: maxNameLength };
      return;
    }
    default: fail(dto, field, `the rule ${metadata.name ?? '(unnamed)'} has no JSON Schema counterpart here`);
  }
}

/** The one JSON type the field's rules allow (an integer is a number too). */
function typeOf(dto: Dto, field: string, types: ReadonlySet<JsonType>): JsonType | undefined {
  if (types.has('integer')) types = new Set([...types].filter((type) => type !== 'number'));
  if (types.size > 1) fail(dto, field, `rules that want ${[...types].join(' and ')} at once`);
  return [...types][0];
}

/** Each field's rules, in the order the DTO declares its fields. */
function rulesOf(dto: Dto): Map<string, FieldRules> {
  const fields = new Map<string, FieldRules>();
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false)) {
    let rules = fields.get(metadata.propertyName);
    if (!rules) {
      rules = { types: new Set(), optional: false, patterns: [] };
      fields.set(metadata.propertyName, rules);
    }
    addRule(dto, metadata.propertyName, rules, metadata);
  }
  if (fields.size === 0) throw new Error(`${dto.name} declares no validated field: it is not a DTO`);
  return fields;
}

/** The words `@Described` gave, in the reference's order: default, description, examples. */
function described(description: Description): JsonSchema {
  return {
    ...(description.default !== undefined ? { default: description.default } : {}),
    ...(description.description !== undefined ? { description: description.description } : {}),
    ...(description.examples !== undefined ? { examples: [...description.examples] } : {}),
  };
}

function fieldSchema(dto: Dto, field: string, rules: FieldRules, nullable: boolean): JsonSchema {
  const type = typeOf(dto, field, rules.types);
  if (type === undefined) fail(dto, field, 'no rule that fixes its type (IsString, IsInt, ...)');
  if (rules.patterns.length > 1) fail(dto, field, 'two patterns on one field');
  return {
    type: nullable ? [type, 'null'] : type,
    ...(rules.format !== undefined ? { format: rules.format } : {}),
    ...(rules.enum !== undefined ? { enum: [...rules.enum] } : {}),
    ...(rules.minLength !== undefined ? { minLength: rules.minLength } : {}),
    ...(rules.maxLength !== undefined ? { maxLength: rules.maxLength } : {}),
    ...(rules.minimum !== undefined ? { minimum: rules.minimum } : {}),
    ...(rules.maximum !== undefined ? { maximum: rules.maximum } : {}),
    ...(rules.patterns[0] !== undefined ? { pattern: rules.patterns[0] } : {}),
    ...(rules.values !== undefined
      ? {
        maxProperties: rules.values.maxProperties,
        propertyNames: { minLength: 1, maxLength: rules.values.maxKeyLength },
        additionalProperties: { type: 'string', enum: [...rules.values.enum] },
      }
      : {}),
    ...described(descriptionOf(dto, field)),
  };
}

/**
 * A body DTO as the schema of the JSON object it accepts. A field without OptionalField or
 * IsOptional is required; IsOptional also lets `null` through (its other checks are skipped), so
 * such a field's type admits null. Unknown fields are refused by name (validatedInstance), hence
 * `additionalProperties: false`.
 */
export function requestBodySchema(dto: Dto): JsonSchema {
  const fields = rulesOf(dto);
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const [field, rules] of fields) {
    properties[field] = fieldSchema(dto, field, rules, rules.optional === 'absent-or-null');
    if (rules.optional === false) required.push(field);
  }
  const { description, examples } = descriptionOf(dto);
  return {
    type: 'object',
    ...(description !== undefined ? { description } : {}),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    properties,
    ...(examples !== undefined ? { examples: [...examples] } : {}),
  };
}

/**
 * A query DTO as the operation's query parameters: the field's description on the parameter, the
 * rest in its schema. A query value is text, never null; the service converts a number's text
 * before validating it (class-transformer's @Type), as OpenAPI's `type: integer` means.
 */
export function queryParameters(dto: Dto): JsonSchema[] {
  return [...rulesOf(dto)].map(([field, rules]) => {
    const { description, ...schema } = fieldSchema(dto, field, rules, false);
    return {
      name: field,
      in: 'query',
      ...(rules.optional === false ? { required: true } : {}),
      ...(description !== undefined ? { description } : {}),
      schema,
    };
  });
}
