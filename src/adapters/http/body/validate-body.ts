import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import type { RequestHandler } from 'express';
import { HttpError, type FieldError } from '../errors/http-error';

/**
 * whitelist + forbidNonWhitelisted: an unknown field is refused by name rather than dropped, so a
 * typo (`tenantName`) is visible to the client. No implicit conversion: a number is not an e-mail.
 */
export const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true } as const;

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

/**
 * Replaces req.body with a validated instance of `dto`, or answers 400 with the first message (which
 * names its field) and every complaint under `details`. Runs after jsonBody, so the body is a plain
 * object without prototype-changing keys by the time class-transformer copies it.
 */
export function validateBody<T extends object>(dto: new () => T): RequestHandler {
  return async (req, _res, next) => {
    const instance = plainToInstance(dto, req.body as Record<string, unknown>);
    const details = fieldErrors(await validate(instance, VALIDATOR_OPTIONS));
    const first = details[0];
    if (first) throw new HttpError(400, first.message, details);
    req.body = instance;
    next();
  };
}
