/**
 * The token signing keys as configuration holds them, by id only (a secret never leaves the
 * configuration): which key signs, which verifies as the next one, which as the previous one; and
 * as the platform has recorded them, where a key no longer held is `retired`.
 */
export type HeldSigningKeyState = 'signing' | 'next' | 'previous';
export type SigningKeyState = HeldSigningKeyState | 'retired';

export const SIGNING_KEY_STATES: readonly SigningKeyState[] = ['signing', 'next', 'previous', 'retired'];

export interface SigningKeyRecord {
  readonly keyId: string;
  readonly state: SigningKeyState;
}

export const SIGNING_KEY_ACTIONS = ['signing_key.added', 'signing_key.signing', 'signing_key.verifying', 'signing_key.retired'] as const;
export type SigningKeyAction = (typeof SIGNING_KEY_ACTIONS)[number];

/** One key whose state changed: from what was recorded (null: never recorded) to what is configured. */
export interface SigningKeyChange {
  readonly keyId: string;
  readonly from: SigningKeyState | null;
  readonly to: SigningKeyState;
  /**
   * `signing_key.signing`: the key now signs, whatever it was. `signing_key.added`: a key not held
   * before (never recorded, or retired) now verifies, as next or previous. `signing_key.verifying`: a
   * key held before now verifies only, in another place (the signing key stepping down to previous).
   * `signing_key.retired`: a key held before is no longer configured.
   */
  readonly action: SigningKeyAction;
}

function actionOf(from: SigningKeyState | null, to: SigningKeyState): SigningKeyAction {
  if (to === 'retired') return 'signing_key.retired';
  if (to === 'signing') return 'signing_key.signing';
  return from === null || from === 'retired' ? 'signing_key.added' : 'signing_key.verifying';
}

/**
 * What changed between the recorded keys and the configured ones, in a stable order (configured
 * keys as given, then the retired ones by id). The same configuration twice gives no change.
 */
export function signingKeyChanges(recorded: readonly SigningKeyRecord[], configured: readonly SigningKeyRecord[]): SigningKeyChange[] {
  const before = new Map(recorded.map((record) => [record.keyId, record.state]));
  const now = new Set(configured.map((record) => record.keyId));
  const changes: SigningKeyChange[] = [];
  for (const { keyId, state } of configured) {
    const from = before.get(keyId) ?? null;
    if (from !== state) changes.push({ keyId, from, to: state, action: actionOf(from, state) });
  }
  const gone = recorded.filter((record) => !now.has(record.keyId) && record.state !== 'retired').sort((a, b) => (a.keyId < b.keyId ? -1 : 1));
  for (const { keyId, state } of gone) changes.push({ keyId, from: state, to: 'retired', action: 'signing_key.retired' });
  return changes;
}
