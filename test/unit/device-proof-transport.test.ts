import { cookieValue, deviceProofHeaders, deviceProofOf } from '../../src/adapters/http/routes/device-proof-transport';

const PROOF = 'v1.AAAAAAAAAAAAAAAAAAAAAA.1790000000.BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

describe('the device proof on the wire', () => {
  it('reads the one cookie by its exact name, among others, quoted or not', () => {
    expect(cookieValue(`theme=dark; pc_device=${PROOF}; lang=en`, 'pc_device')).toBe(PROOF);
    expect(cookieValue(`pc_device="${PROOF}"`, 'pc_device')).toBe(PROOF);
    expect(cookieValue(`xpc_device=nope; pc_device_old=nope;pc_device=${PROOF}`, 'pc_device')).toBe(PROOF);
    // A browser sends the most specific path's cookie first: the first of the name wins.
    expect(cookieValue(`pc_device=${PROOF}; pc_device=older`, 'pc_device')).toBe(PROOF);
    for (const none of [undefined, '', 'pc_device', 'theme=dark', ';;=;']) expect(cookieValue(none, 'pc_device')).toBeUndefined();
  });

  it('prefers the header to the cookie, and takes the cookie when the header is absent or blank', () => {
    expect(deviceProofOf({ 'x-device-proof': ` ${PROOF} `, cookie: 'pc_device=from-cookie' })).toBe(PROOF);
    expect(deviceProofOf({ 'x-device-proof': '  ', cookie: `pc_device=${PROOF}` })).toBe(PROOF);
    expect(deviceProofOf({ cookie: `pc_device=${PROOF}` })).toBe(PROOF);
    expect(deviceProofOf({})).toBeUndefined();
  });

  it('writes the header and an HttpOnly, SameSite=Strict cookie on the sign-in paths, Secure over https', () => {
    const proof = { value: PROOF, deviceId: 'AAAAAAAAAAAAAAAAAAAAAA', expiresAt: new Date('2026-09-21T12:00:00Z') };
    expect(deviceProofHeaders(proof, false, '/api/v1/auth')).toEqual({
      'X-Device-Proof': PROOF,
      'Set-Cookie': `pc_device=${PROOF}; Path=/api/v1/auth; Expires=Mon, 21 Sep 2026 12:00:00 GMT; HttpOnly; SameSite=Strict`,
    });
    expect(deviceProofHeaders(proof, true, '/api/v1/auth')['Set-Cookie']).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });
});
