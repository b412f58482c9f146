/**
 * What the API reference says about a DTO or one of its fields, beside the rules class-validator
 * checks: the words for people, examples and the default the service applies when the field is
 * absent. The request schemas of docs/openapi.yaml are derived from the DTOs
 * (adapters/http/docs/request-schemas.ts), so this is where those words are written, once.
 */
export interface Description {
  readonly description?: string;
  readonly examples?: readonly unknown[];
  /** The value the service uses when the field is absent (documentation only: nothing is filled in). */
  readonly default?: unknown;
}

interface Described {
  schema?: Description;
  readonly fields: Map<string, Description>;
}

const descriptions = new WeakMap<object, Described>();

function describedOf(dto: object): Described {
  let described = descriptions.get(dto);
  if (!described) {
    described = { fields: new Map() };
    descriptions.set(dto, described);
  }
  return described;
}

/**
 * `@Described('What it is.', { examples: [...] })` on a DTO class (the schema's description) or on a
 * field (the property's); `@Described({ examples: [...] })` when there is nothing to say in words.
 * Carries no rule: what a field accepts is said by its validation decorators.
 */
export function Described(description: string | Description, more: Omit<Description, 'description'> = {}): ClassDecorator & PropertyDecorator {
  const text: Description = typeof description === 'string' ? { description, ...more } : description;
  return (target: object, property?: string | symbol) => {
    if (property === undefined) describedOf(target).schema = text;
    else describedOf(target.constructor).fields.set(String(property), text);
  };
}

/** The description given to a DTO class, or to one of its fields; empty when none was. */
export function descriptionOf(dto: object, field?: string): Description {
  const described = descriptions.get(dto);
  return (field === undefined ? described?.schema : described?.fields.get(field)) ?? {};
}
