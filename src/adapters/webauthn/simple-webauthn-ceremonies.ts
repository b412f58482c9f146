import { randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON, generateAuthenticationOptions, generateRegistrationOptions, type RegistrationResponseJSON,
  verifyAuthenticationResponse, verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type {
  AssertionKey, CredentialRef, NewCredential, ResponseClaims, VerifiedAssertion, WebAuthnCeremonies,
} from '../../application/ports/webauthn';

/** The relying party: who the credentials are for. */
export interface RelyingParty {
  /** The host name credentials are scoped to (PUBLIC_URL's). */
  readonly id: string;
  /** The exact origin the browser reports (PUBLIC_URL's scheme, host and port). */
  readonly origin: string;
  readonly name: string;
}

/** The relying party that PUBLIC_URL names. */
export function relyingPartyOf(publicUrl: string, name = 'Portcullis'): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name };
}

const CHALLENGE_BYTES = 32;
const TIMEOUT_MS = 300_000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

type Transport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** The library takes a string challenge as text to encode; ours is base64url already, so it gets the bytes. */
const bytesOf = (base64url: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(base64url, 'base64url'));

const refs = (credentials: readonly CredentialRef[]) =>
  credentials.map((c) => ({ id: c.credentialId, transports: [...c.transports] as Transport[] }));

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ceremonies through @simplewebauthn/server. Registration asks for no attestation (a passkey's
 * maker is not checked), a resident key and user verification where the authenticator can; a
 * sign-in accepts an assertion without user verification, and says whether there was one.
 */
export class SimpleWebAuthnCeremonies implements WebAuthnCeremonies {
  constructor(private readonly rp: RelyingParty) {}

  newChallenge(): string {
    return randomBytes(CHALLENGE_BYTES).toString('base64url');
  }

  async registrationOptions(input: { challenge: string; userHandle: string; userName: string; exclude: readonly CredentialRef[] }): Promise<unknown> {
    return generateRegistrationOptions({
      rpName: this.rp.name, rpID: this.rp.id, userName: input.userName, userDisplayName: input.userName,
      userID: new Uint8Array(Buffer.from(input.userHandle, 'base64url')), challenge: bytesOf(input.challenge), timeout: TIMEOUT_MS,
      attestationType: 'none', excludeCredentials: refs(input.exclude),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
  }

  async authenticationOptions(input: { challenge: string; allow: readonly CredentialRef[] }): Promise<unknown> {
    return generateAuthenticationOptions({
      rpID: this.rp.id, challenge: bytesOf(input.challenge), timeout: TIMEOUT_MS, userVerification: 'preferred', allowCredentials: refs(input.allow),
    });
  }

  claims(response: unknown): ResponseClaims | null {
    if (!isRecord(response) || typeof response['id'] !== 'string' || !BASE64URL.test(response['id']) || !isRecord(response['response'])) return null;
    const inner = response['response'];
    if (typeof inner['clientDataJSON'] !== 'string') return null;
    let client: unknown;
    try {
      client = JSON.parse(Buffer.from(inner['clientDataJSON'], 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    if (!isRecord(client) || typeof client['challenge'] !== 'string' || !BASE64URL.test(client['challenge'])) return null;
    const handle = inner['userHandle'];
    return { challenge: client['challenge'], credentialId: response['id'], userHandle: typeof handle === 'string' && handle !== '' ? handle : null };
  }

  async verifyRegistration(response: unknown, expectedChallenge: string): Promise<NewCredential | null> {
    try {
      const result = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON, expectedChallenge, expectedOrigin: this.rp.origin, expectedRPID: this.rp.id,
        requireUserVerification: false,
      });
      if (!result.verified) return null;
      const { credential, credentialBackedUp } = result.registrationInfo;
      return {
        credentialId: credential.id, publicKey: credential.publicKey, signCount: credential.counter,
        transports: credential.transports ?? [], backedUp: credentialBackedUp,
      };
    } catch {
      return null;
    }
  }

  /** The library refuses a counter that did not move forward (unless both are 0: an authenticator that keeps none). */
  async verifyAssertion(response: unknown, expectedChallenge: string, key: AssertionKey): Promise<VerifiedAssertion | null> {
    try {
      const result = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON, expectedChallenge, expectedOrigin: this.rp.origin, expectedRPID: this.rp.id,
        credential: { id: key.credentialId, publicKey: new Uint8Array(key.publicKey), counter: key.signCount, transports: [...key.transports] },
        requireUserVerification: false,
      });
      if (!result.verified) return null;
      const info = result.authenticationInfo;
      return { newSignCount: info.newCounter, userVerified: info.userVerified, backedUp: info.credentialBackedUp };
    } catch {
      return null;
    }
  }
}
