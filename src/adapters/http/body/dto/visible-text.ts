import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { hiddenCharacterIn, normalizeVisibleText, VISIBLE_TEXT_PATTERN } from '../../../../domain/visible-text';

/**
 * The field's text must show what it holds (domain/visible-text.ts): no control or invisible
 * formatting characters, no combining mark without a base. The 400 names the field and the kind.
 * The constraint is the same rule as a pattern, which the API reference's schema states.
 */
export function IsVisibleText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({
    name: 'isVisibleText',
    constraints: [VISIBLE_TEXT_PATTERN],
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || hiddenCharacterIn(value) === null,
      defaultMessage: (args) => {
        const kind = typeof args?.value === 'string' ? hiddenCharacterIn(args.value) : null;
        return `${args?.property ?? 'value'} must not contain ${kind ?? 'hidden characters'}`;
      },
    },
  }, options);
}

/**
 * A name a person gives and others read (a tenant's name, an e-mail address, an API key's name, a
 * module's title): the one visible-text rule of the domain, at the boundary. The text is
 * NFC-normalised as it is read, so the field's other checks (its length above all) apply to the
 * form that is stored, and then refused if it holds hidden characters (IsVisibleText).
 */
export function VisibleText(options?: ValidationOptions): PropertyDecorator {
  const normalize = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalizeVisibleText(value) : value));
  const check = IsVisibleText(options);
  return (target, property) => {
    normalize(target, property);
    check(target, property);
  };
}
