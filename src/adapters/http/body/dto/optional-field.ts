import { ValidateIf } from 'class-validator';

/**
 * Like IsOptional, but only an absent field is skipped: IsOptional also waves `null` through, which
 * would reach the use-case as a value of the wrong type. Here `null` fails the field's own checks.
 */
export function OptionalField(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
