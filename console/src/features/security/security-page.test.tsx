import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../../test/render-console';
import type { FakeAnswer, FakeRequest } from '../../../test/fake-api';

const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', async (original) => ({ ...(await original<object>()), ...webauthn }));

const CODES = Array.from({ length: 10 }, (_, i) => `code-${i}aaa-bbbb-cccc-dddd-eeee`);
const noFactor = { status: 200, body: { totp: null, recovery_codes: { remaining: 0 } } };
const withApp = { status: 200, body: { totp: { enrolled_at: '2026-11-20T10:00:00.000Z' }, recovery_codes: { remaining: 7 } } };
const noPasskeys = { status: 200, body: { passkeys: [] } };
const recentAuthRequired = { status: 403, body: { error: 'Recent authentication required' } };

type Route = FakeAnswer | ((request: FakeRequest) => FakeAnswer);

async function openSecurity(routes: Record<string, Route>) {
  const rendered = await renderSignedIn('member', '/account', {
    'GET /api/v1/auth/mfa': noFactor,
    'GET /api/v1/auth/mfa/passkeys': noPasskeys,
    ...routes,
  });
  await rendered.user.click(screen.getByRole('link', { name: 'Security' }));
  expect(await screen.findByRole('heading', { level: 1, name: 'Security' })).toHaveFocus();
  return rendered;
}

/** Answers `first` once, then `then` (a route that needs recent authentication, before and after the password). */
function once(first: FakeAnswer, then: FakeAnswer): (request: FakeRequest) => FakeAnswer {
  let calls = 0;
  return () => (calls++ === 0 ? first : then);
}

describe('Security: authenticator app and recovery codes', () => {
  // ASVS 5.0 V6.5.1: the recovery codes (each used once) are shown this once and not again.
  it('sets up an app: a QR code and the key as text, confirmed with a code, then the ten recovery codes once, to copy or download', async () => {
    let enrolled = false;
    const { user, requests } = await openSecurity({
      'GET /api/v1/auth/mfa': () => (enrolled ? withApp : noFactor),
      'POST /api/v1/auth/mfa/totp': { status: 200, body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/Analytical%20Engines:member%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Analytical%20Engines' } },
      'POST /api/v1/auth/mfa/totp/confirm': (request) => {
        if ((request.body as { code: string }).code !== '654321') return { status: 400, body: { error: 'Invalid code' } };
        enrolled = true;
        return { status: 200, body: { recovery_codes: CODES } };
      },
    });
    expect(screen.getByText('You get ten when you set up an authenticator app.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(qr.querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/);
    expect(screen.getByLabelText('Key for your authenticator app')).toHaveTextContent('JBSWY3DPEHPK3PXP');

    await user.type(screen.getByLabelText('Code from the app'), '111111');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Invalid code$/);
    await user.clear(screen.getByLabelText('Code from the app'));
    await user.type(screen.getByLabelText('Code from the app'), '654 321');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    const panel = await screen.findByRole('region', { name: 'Your recovery codes' });
    expect(within(panel).getByRole('heading', { name: 'Your recovery codes' })).toHaveFocus();
    expect(within(panel).getAllByRole('listitem').map((item) => item.textContent)).toEqual(CODES);
    const download = within(panel).getByRole('link', { name: 'Download as a text file' });
    expect(download).toHaveAttribute('download', 'portcullis-recovery-codes.txt');
    const file = decodeURIComponent(download.getAttribute('href')!.replace(/^data:text\/plain;charset=utf-8,/, ''));
    expect(file.split('\n')).toEqual(expect.arrayContaining([...CODES, 'Portcullis recovery codes for member@example.com']));
    expect(screen.getByText('Your authenticator app is set up: from now on, signing in asks for a code from it.')).toBeInTheDocument();
    expect(await screen.findByText(/Set up on/)).toBeInTheDocument();
    expect(screen.getByText(/7 recovery codes left\./)).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(CODES[0]!)).toBeNull();
    expect(requests.filter((r) => r.url === '/api/v1/auth/mfa/totp/confirm').map((r) => r.body)).toEqual([{ code: '111111' }, { code: '654321' }]);
  });

  // ASVS 5.0 V7.5.1: changing a factor needs the password proved again.
  it('asks for the password when the API wants recent authentication, then sets up the app', async () => {
    const { user, requests } = await openSecurity({
      'POST /api/v1/auth/mfa/totp': once(recentAuthRequired, { status: 200, body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' } }),
      'POST /api/v1/auth/reauthenticate': { status: 200, body: { reauthenticated: true } },
    });
    await user.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.type(within(dialog).getByLabelText('Password'), 'correct horse battery');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    expect(requests.filter((r) => r.method === 'POST' && r.url !== '/api/v1/auth/login').map((r) => r.url))
      .toEqual(['/api/v1/auth/mfa/totp', '/api/v1/auth/reauthenticate', '/api/v1/auth/mfa/totp']);
  });

  it('makes new recovery codes (shown once) and removes the app after a confirmation', async () => {
    let removed = false;
    const { user, requests } = await openSecurity({
      'GET /api/v1/auth/mfa': () => (removed ? noFactor : withApp),
      'POST /api/v1/auth/mfa/recovery-codes': { status: 200, body: { recovery_codes: CODES } },
      'DELETE /api/v1/auth/mfa/totp': () => {
        removed = true;
        return { status: 200, body: { removed: true } };
      },
    });
    await screen.findByText(/7 recovery codes left\./);
    await user.click(screen.getByRole('button', { name: 'Make new recovery codes' }));
    const panel = await screen.findByRole('region', { name: 'Your recovery codes' });
    expect(within(panel).getAllByRole('listitem')).toHaveLength(10);
    await user.click(within(panel).getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: 'Remove the authenticator app' }));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Confirm removal of the authenticator app' }));
    expect(await screen.findByText('Your authenticator app is removed.')).toBeInTheDocument();
    await screen.findByRole('button', { name: 'Set up an authenticator app' });
  });

  it('shows the API\'s refusal when the password prompt is cancelled', async () => {
    const { user } = await openSecurity({
      'GET /api/v1/auth/mfa': withApp,
      'POST /api/v1/auth/mfa/recovery-codes': recentAuthRequired,
    });
    await user.click(await screen.findByRole('button', { name: 'Make new recovery codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Recent authentication required$/);
  });
});

describe('Security: passkeys', () => {
  beforeEach(() => {
    webauthn.startRegistration.mockReset();
  });

  const passkey = { id: 'pk-1', name: 'Work laptop', created_at: '2026-11-20T10:00:00.000Z', last_used_at: null };

  it('adds a passkey with a name: the API\'s options to the browser, its credential back to the API', async () => {
    const credential = { id: 'cred', rawId: 'cred', type: 'public-key', response: { attestationObject: 'a', clientDataJSON: 'c' } };
    webauthn.startRegistration.mockResolvedValue(credential);
    let added = false;
    const { user, requests } = await openSecurity({
      'GET /api/v1/auth/mfa/passkeys': () => ({ status: 200, body: { passkeys: added ? [passkey] : [] } }),
      'POST /api/v1/auth/mfa/passkeys/options': { status: 200, body: { challenge: 'ch-1', rp: { id: 'console.test', name: 'Portcullis' } } },
      'POST /api/v1/auth/mfa/passkeys': () => {
        added = true;
        return { status: 201, body: { id: 'pk-1', name: 'Work laptop', created_at: passkey.created_at } };
      },
    });
    expect(screen.getByText('You have no passkey yet.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Passkey name'), ' Work laptop ');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Added the passkey Work laptop.')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Your passkeys (1)' });
    expect(within(table).getByRole('row', { name: /Work laptop/ })).toHaveTextContent('Never');
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'ch-1', rp: { id: 'console.test', name: 'Portcullis' } } });
    expect(requests.find((r) => r.url === '/api/v1/auth/mfa/passkeys' && r.method === 'POST')?.body).toEqual({ name: 'Work laptop', response: credential });
  });

  it('says so when the browser\'s prompt is cancelled, and registers nothing', async () => {
    webauthn.startRegistration.mockRejectedValue(Object.assign(new Error('not allowed'), { name: 'NotAllowedError' }));
    const { user, requests } = await openSecurity({
      'POST /api/v1/auth/mfa/passkeys/options': { status: 200, body: { challenge: 'ch-1' } },
    });
    await user.type(screen.getByLabelText('Passkey name'), 'Phone');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The passkey was not used: the request was cancelled or timed out\.$/);
    expect(requests.some((r) => r.url === '/api/v1/auth/mfa/passkeys' && r.method === 'POST')).toBe(false);
  });

  it('renames a passkey and removes one after a confirmation', async () => {
    let name = 'Work laptop';
    let removed = false;
    const { user, requests } = await openSecurity({
      'GET /api/v1/auth/mfa/passkeys': () => ({ status: 200, body: { passkeys: removed ? [] : [{ ...passkey, name }] } }),
      'PATCH /api/v1/auth/mfa/passkeys/pk-1': (request) => {
        name = (request.body as { name: string }).name;
        return { status: 200, body: { id: 'pk-1', name } };
      },
      'DELETE /api/v1/auth/mfa/passkeys/pk-1': () => {
        removed = true;
        return { status: 204, body: null };
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Rename passkey Work laptop' }));
    const field = screen.getByLabelText('New name');
    await user.clear(field);
    await user.type(field, 'Old laptop');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Renamed the passkey to Old laptop.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Old laptop' }));
    await user.click(screen.getByRole('button', { name: 'Confirm removal of passkey Old laptop' }));
    expect(await screen.findByText('Removed the passkey Old laptop.')).toBeInTheDocument();
    await screen.findByText('You have no passkey yet.');
    expect(requests.filter((r) => r.url.startsWith('/api/v1/auth/mfa/passkeys/')).map((r) => `${r.method} ${JSON.stringify(r.body ?? null)}`))
      .toEqual(['PATCH {"name":"Old laptop"}', 'DELETE null']);
  });
});
