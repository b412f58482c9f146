import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { BrowserRefusal } from '../../shared/feedback';

type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];
type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

/** The browser's refusal of a passkey ceremony, in words for the person (the API is not involved yet). */
function refusal(error: unknown): BrowserRefusal {
  if (error instanceof WebAuthnError && error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return new BrowserRefusal('This device already holds one of your passkeys.');
  }
  if (error instanceof Error && (error.name === 'NotAllowedError' || (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED'))) {
    return new BrowserRefusal('The passkey was not used: the request was cancelled or timed out.');
  }
  if (typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'undefined') {
    return new BrowserRefusal('This browser cannot use passkeys.');
  }
  return new BrowserRefusal(`The browser could not use a passkey (${error instanceof Error ? error.message : String(error)}).`);
}

/**
 * navigator.credentials.create() with the API's creation options (as JSON); resolves to the
 * credential as JSON for the API. The options come from the service, which checks the answer.
 */
export async function createPasskey(options: object): Promise<Record<string, unknown>> {
  try {
    return await startRegistration({ optionsJSON: options as CreationOptions }) as unknown as Record<string, unknown>;
  } catch (error) {
    throw refusal(error);
  }
}

/** navigator.credentials.get() with the API's request options; resolves to the assertion as JSON. */
export async function assertPasskey(options: object): Promise<Record<string, unknown>> {
  try {
    return await startAuthentication({ optionsJSON: options as RequestOptions }) as unknown as Record<string, unknown>;
  } catch (error) {
    throw refusal(error);
  }
}
