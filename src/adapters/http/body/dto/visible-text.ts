import { ValidateBy, type ValidationOptions } from 'class-validator';
import { hiddenCharacterIn } from '../../../../domain/visible-text';

/**
 * The field's text must show what it holds (domain/visible-text.ts): no control or invisible
 * formatting characters, no combining mark without a base. The 400 names the field and the kind.
 */
export function IsVisibleText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({
    name: 'isVisibleText',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || hiddenCharacterIn(value) === null,
      defaultMessage: (args) => {
        const kind = typeof args?.value === 'string' ? hiddenCharacterIn(args.value) : null;
        return `${args?.property ?? 'value'} must not contain ${kind ?? 'hidden characters'}`;
      },
    },
  }, options);
}
