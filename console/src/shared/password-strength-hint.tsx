import { estimateStrength, type StrengthContext } from './password-strength';

/**
 * The estimate under a new-password field. The region is always there and polite, so a screen
 * reader hears the new estimate when typing pauses, without being interrupted; empty until
 * something is typed. The bar repeats the words for the eye and is hidden from assistive technology.
 */
export function PasswordStrengthHint({ password, context }: { password: string; context?: StrengthContext }) {
  const estimate = password === '' ? null : estimateStrength(password, context);
  return (
    <div className="password-strength" data-level={estimate?.level}>
      {estimate && <span className="password-strength-bar" aria-hidden="true"><span /></span>}
      <p aria-live="polite">{estimate ? `Password strength: ${estimate.text}` : ''}</p>
    </div>
  );
}
