import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, type ValidationError } from 'class-validator';
import { HttpError, type FieldError } from '../errors/http-error';

/**
 * whitelist + forbidNonWhitelisted: an unknown field is refused by name rather than dropped, so a
 * typo (`tenantName`) is visible to the client. No implicit conversion: a number is not an e-mail.
 */
export const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

/**
 * The most complaints one answer lists. A body may hold thousands of unknown keys (100 kB of `"k1":0`),
 * and a 400 listing each would be several times the body's size: the first ones are enough to fix a
 * client. No body the service reads can break more rules than this with known fields alone.
 */
export const MAX_DETAILS = 20;

/** An unknown field's name is shown up to this many characters, then `…`: the name is the client's text. */
export const MAX_FIELD_NAME_SHOWN = 64;

/**
 * A required field that is absent gets one detail, `<field> is required`: every rule it breaks
 * (type, length, format) says the same thing, less plainly. Otherwise, decorators run bottom-up, so
 * class-validator lists a field's constraints in reverse of how the DTO declares them; reversed back,
 * the type check declared first (`must be an email`, `must be a string`) leads.
 */
export function fieldErrors(errors: readonly ValidationError[]): FieldError[] {
  return errors.flatMap((error) => {
    if (error.value === undefined) return [{ field: error.property, message: `${error.property} is required` }];
    return Object.values(error.constraints ?? {}).reverse().map((message) => ({ field: error.property, message }));
  });
}

/** The fields a DTO declares (any decorator of class-validator's), read once per DTO. */
const declaredFields = new WeakMap<object, ReadonlySet<string>>();

function fieldsOf(dto: new () => object): ReadonlySet<string> {
  let fields = declaredFields.get(dto);
  if (!fields) {
    fields = new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false).map((metadata) => metadata.propertyName));
    declaredFields.set(dto, fields);
  }
  return fields;
}

/** A name as an answer may show it: cut after MAX_FIELD_NAME_SHOWN characters, never inside a surrogate pair. */
export function shownName(name: string): string {
  if (name.length <= MAX_FIELD_NAME_SHOWN) return name;
  const cut = name.slice(0, MAX_FIELD_NAME_SHOWN);
  const last = cut.charCodeAt(cut.length - 1);
  return `${last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut}\u2026`;
}

/** class-validator's own wording for a field the DTO does not declare. */
function unknownField(name: string): FieldError {
  const field = shownName(name);
  return { field, message: `property ${field} should not exist` };
}

/**
 * `plain` as a validated instance of `dto`, or a 400 with the first complaint's message (which names
 * its field) and at most MAX_DETAILS complaints under `details`. Unknown fields are found here, in
 * one pass over the keys, before class-transformer copies anything: a body of thousands of them is
 * refused after the first MAX_DETAILS, without copying their values or building an error for each.
 * The known fields then go through class-validator (whose whitelist then finds nothing more), and
 * their complaints follow the unknown ones', as class-validator orders them. With `ignoreUnknown`,
 * unknown fields are dropped instead (a query another party writes, such as a provider's callback).
 */
export async function validatedInstance<T extends object>(
  dto: new () => T, plain: Record<string, unknown>, options: { readonly ignoreUnknown?: boolean } = {},
): Promise<T> {
  const declared = fieldsOf(dto);
  const unknown: FieldError[] = [];
  const known: Record<string, unknown> = {};
  for (const key of Object.keys(plain)) {
    if (declared.has(key)) {
      known[key] = plain[key];
      continue;
    }
    if (options.ignoreUnknown) continue;
    unknown.push(unknownField(key));
    if (unknown.length === MAX_DETAILS) break;
  }
  const instance = plainToInstance(dto, known);
  const details = unknown.length === MAX_DETAILS
    ? unknown
    : [...unknown, ...fieldErrors(await validate(instance, VALIDATOR_OPTIONS))].slice(0, MAX_DETAILS);
  const first = details[0];
  if (first) throw new HttpError(400, first.message, details);
  return instance;
}
