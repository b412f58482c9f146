import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** One credential the software authenticator made: its id, key pair, counter and user handle. */
export interface SoftwareCredential {
  /** base64url. */
  readonly id: string;
  readonly privateKey: KeyObject;
  /** The user handle the creation options named, base64url. */
  readonly userHandle: string;
  readonly rpId: string;
  /** The counter the next assertion signs (then moves on by one); set it to replay an older one. */
  signCount: number;
}

/** How an answer is made: a tester's overrides of what a faithful authenticator and browser would send. */
export interface AnswerOptions {
  /** The origin the client data reports; the authenticator's own unless given. */
  readonly origin?: string;
  /** The relying party id hashed into the authenticator data; the options' (or the credential's) unless given. */
  readonly rpId?: string;
  /** Whether the user was verified (the UV flag). Default: true. */
  readonly userVerified?: boolean;
  /** An assertion by this credential rather than the first the options allow. */
  readonly credential?: SoftwareCredential;
  /** Signs with this key instead of the credential's (a forged signature). */
  readonly signWith?: KeyObject;
}

interface CreationOptions { challenge: string; rp: { id?: string }; user: { id: string } }
interface RequestOptions { challenge: string; rpId?: string; allowCredentials?: { id: string }[] }

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: string | Uint8Array): Buffer => createHash('sha256').update(data).digest();

function counterBytes(count: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(count);
  return bytes;
}

/**
 * A WebAuthn authenticator in software, with the browser's part: makes P-256 (ES256) credentials
 * with node:crypto, answers creation options with a `none` attestation and request options with
 * signed assertions, as JSON in the shape @simplewebauthn/browser gives a server. For tests only:
 * its keys live in memory and it verifies nobody.
 */
export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];

  /** `origin` is what the browser reports (the service's PUBLIC_URL origin). */
  constructor(readonly origin: string) {}

  /** The registration response to creation options (the JSON the options call answered). */
  register(options: unknown, answer: AnswerOptions = {}): Record<string, unknown> {
    const { challenge, rp, user } = options as CreationOptions;
    const rpId = answer.rpId ?? rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], [3, -7], [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))], [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    const rawId = randomBytes(16);
    const credential: SoftwareCredential = { id: b64url(rawId), privateKey, userHandle: user.id, rpId, signCount: 0 };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const flags = UP | AT | ((answer.userVerified ?? true) ? UV : 0);
    const authData = Buffer.concat([
      sha256(rpId), Buffer.from([flags]), counterBytes(credential.signCount), Buffer.alloc(16), idLength, rawId, Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attestationObject = isoCBOR.encode(new Map<string, string | Map<string, string> | Uint8Array>([
      ['fmt', 'none'], ['attStmt', new Map<string, string>()], ['authData', new Uint8Array(authData)],
    ]));
    const clientData = JSON.stringify({ type: 'webauthn.create', challenge, origin: answer.origin ?? this.origin, crossOrigin: false });
    this.credentials.push(credential);
    return {
      id: credential.id, rawId: credential.id, type: 'public-key', clientExtensionResults: {}, authenticatorAttachment: 'platform',
      response: { clientDataJSON: b64url(Buffer.from(clientData)), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /** An assertion answering request options: by the first of this authenticator's credentials they allow (any, when they name none). */
  assert(options: unknown, answer: AnswerOptions = {}): Record<string, unknown> {
    const { challenge, rpId: optionsRpId, allowCredentials = [] } = options as RequestOptions;
    const allowed = new Set(allowCredentials.map((c) => c.id));
    const credential = answer.credential ?? this.credentials.find((c) => allowed.size === 0 || allowed.has(c.id));
    if (!credential) throw new Error('the software authenticator holds no credential these options allow');
    const rpId = answer.rpId ?? optionsRpId ?? credential.rpId;
    const flags = UP | ((answer.userVerified ?? true) ? UV : 0);
    credential.signCount += 1;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes(credential.signCount)]);
    const clientData = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: answer.origin ?? this.origin, crossOrigin: false }));
    const signature = createSign('SHA256').update(Buffer.concat([authData, sha256(clientData)])).sign(answer.signWith ?? credential.privateKey);
    return {
      id: credential.id, rawId: credential.id, type: 'public-key', clientExtensionResults: {}, authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64url(clientData), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle,
      },
    };
  }
}
