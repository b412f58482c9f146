import type { IncomingHttpHeaders } from 'node:http';
import type { DeviceProof } from '../../../application/ports/device-proofs';

/** The header an API client is given its device proof in, and sends it back in. */
export const DEVICE_PROOF_HEADER = 'X-Device-Proof';
/** The cookie a browser keeps it in: sent back only to the sign-in paths, never readable by scripts. */
export const DEVICE_PROOF_COOKIE = 'pc_device';

/**
 * The device proof a request carries: the header when it has one (an API client's explicit
 * choice), else the cookie. Only its presence is decided here; whether it proves anything is the
 * use-case's question (DeviceProofs.verify), so anything malformed is simply no proof.
 */
export function deviceProofOf(headers: IncomingHttpHeaders): string | undefined {
  const header = headers[DEVICE_PROOF_HEADER.toLowerCase()];
  const fromHeader = (Array.isArray(header) ? header[0] : header)?.trim();
  return fromHeader || cookieValue(headers.cookie, DEVICE_PROOF_COOKIE);
}

/**
 * The one cookie's value, by hand (no cookie parser is installed, and one cookie needs none): the
 * first `name=value` pair of that exact name, as a browser sends its most specific cookie first;
 * surrounding quotes, which RFC 6265 allows, are taken off.
 */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    const value = pair.slice(equals + 1).trim();
    return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
}

/**
 * The proof handed back after a sign-in: in the header for API clients, and in a cookie for the
 * console (same origin). HttpOnly so a script injected in a page cannot read it; SameSite=Strict
 * and scoped to `cookiePath` (the sign-in paths' base) so it travels nowhere else; Secure whenever
 * the client came over https, so it is never sent back in the clear. The proof's value is base64url
 * and dots: nothing to escape.
 */
export function deviceProofHeaders(proof: DeviceProof, secure: boolean, cookiePath: string): Record<string, string> {
  const attributes = [`Path=${cookiePath}`, `Expires=${proof.expiresAt.toUTCString()}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) attributes.push('Secure');
  return {
    [DEVICE_PROOF_HEADER]: proof.value,
    'Set-Cookie': [`${DEVICE_PROOF_COOKIE}=${proof.value}`, ...attributes].join('; '),
  };
}
