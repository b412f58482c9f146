import { ValidateIf } from 'class-validator';

/** OptionalField's condition: the field's checks run when it is present. Named, so the API reference can recognise it. */
export function isPresent(_object: object, value: unknown): boolean {
  return value !== undefined;
}

/**
 * Like IsOptional, but only an absent field is skipped: IsOptional also waves `null` through, which
 * would reach the use-case as a value of the wrong type. Here `null` fails the field's own checks.
 */
export function OptionalField(): PropertyDecorator {
  return ValidateIf(isPresent);
}
