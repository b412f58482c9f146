/**
 * Keys that make class-transformer (or any naive copy) replace an object's prototype. Ours, not
 * secure-json-parse's: it refuses `constructor` only with a `prototype` inside, and `prototype` never.
 */
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Our bodies are flat; the bound only has to stop class-transformer, which copies nested values
 * recursively, from overflowing the stack on `[[[[...]]]]` (a 100 kB body can nest 50,000 deep).
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Text that no layer below can hold or read: Postgres `text` cannot store U+0000 (the insert fails),
 * and an unpaired UTF-16 surrogate (legal as a JSON escape) makes encodeURI, which the e-mail
 * validator uses, throw. Refused once here, for every string of every body, keys included.
 */
function unrepresentableTextReason(text: string): string | null {
  if (text.includes('\u0000')) return 'Request body must not contain NUL characters';
  if (!text.isWellFormed()) return 'Request body must not contain unpaired UTF-16 surrogates';
  return null;
}

/**
 * Why a parsed JSON value must not reach class-transformer, or null when it may. JSON.parse creates
 * `__proto__` as a plain own property, so the danger only starts when the value is copied; we look
 * before that. Iterative, so that the check itself cannot overflow the stack.
 */
export function unsafeJsonReason(value: unknown): string | null {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (typeof current === 'string') {
      const reason = unrepresentableTextReason(current);
      if (reason !== null) return reason;
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_JSON_DEPTH) return 'Request body is nested too deeply';
    for (const key of Object.keys(current)) {
      if (UNSAFE_KEYS.has(key)) return `Request body must not contain the key ${key}`;
      const reason = unrepresentableTextReason(key);
      if (reason !== null) return reason;
      pending.push({ value: (current as Record<string, unknown>)[key], depth: depth + 1 });
    }
  }
  return null;
}
