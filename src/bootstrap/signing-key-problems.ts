import { KEY_ID_PATTERN, derivedKeyId } from '../adapters/crypto/jwt-signing-keys';

type SigningKeyVariables = Record<'JWT_SECRET' | 'JWT_SECRET_NEXT' | 'JWT_SECRET_PREVIOUS' | `${'JWT_SECRET' | 'JWT_SECRET_NEXT' | 'JWT_SECRET_PREVIOUS'}_KEY_ID`, string | undefined>;

/**
 * The signing secrets together: each id well formed and given only with its secret, and no two
 * secrets or ids alike, or a token's kid would not name one key (a secret unset or empty is absent).
 */
export function signingKeyProblems(env: SigningKeyVariables): string[] {
  const problems: string[] = [];
  const keys: { name: string; secret: string; id: string }[] = [];
  for (const name of ['JWT_SECRET', 'JWT_SECRET_NEXT', 'JWT_SECRET_PREVIOUS'] as const) {
    const secret = env[name] || undefined;
    const id = env[`${name}_KEY_ID`] || undefined;
    if (id !== undefined && !KEY_ID_PATTERN.test(id)) {
      problems.push(`${name}_KEY_ID: must be 1 to 64 letters, digits, dots, hyphens or underscores`);
    } else if (id !== undefined && secret === undefined) {
      problems.push(`${name}_KEY_ID: needs ${name} (it names that secret)`);
    }
    if (secret !== undefined) keys.push({ name, secret, id: id ?? derivedKeyId(secret) });
  }
  for (const [index, key] of keys.entries()) {
    for (const other of keys.slice(0, index)) {
      if (key.secret === other.secret) problems.push(`${key.name}: must differ from ${other.name}`);
      else if (key.id === other.id) problems.push(`${key.name}_KEY_ID: must differ from ${other.name}_KEY_ID (both are "${key.id}")`);
    }
  }
  return problems;
}
