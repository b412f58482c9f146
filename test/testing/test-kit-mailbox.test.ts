import { request } from '../support/contract-request';
import { createTestPortcullis, type TestPortcullis } from '../../src/testing';

const AUTH = '/api/v1/auth';

describe('the test kit\'s mailbox: what the service sent, read right after the request', () => {
  let pc: TestPortcullis;
  beforeEach(async () => {
    pc = await createTestPortcullis();
  });
  afterEach(async () => {
    expect(pc.unexpectedErrors).toEqual([]);
    await pc.close();
  });

  it('follows a reset message to its token, which resets the password through the API', async () => {
    const acme = await pc.tenant({ name: 'Acme' });
    expect((await request(pc.app).post(`${AUTH}/password/forgot`).send({ email: acme.owner.email })).status).toBe(202);

    const message = await pc.mailbox.latestTo(acme.owner.email);
    expect(message).toMatchObject({ to: acme.owner.email, subject: 'Reset your password for Acme', link: expect.stringContaining('/console/reset-password?token=') });
    const token = await pc.mailbox.tokenFor(acme.owner.email, 'reset-password');
    const reset = await request(pc.app).post(`${AUTH}/password/reset`).send({ token, password: 'a new passphrase here' });
    expect(reset.status).toBe(200);
    expect((await request(pc.app).post(`${AUTH}/login`).send({ email: acme.owner.email, password: 'a new passphrase here' })).status).toBe(200);
  });

  it('expiry follows the kit\'s clock', async () => {
    const acme = await pc.tenant();
    await request(pc.app).post(`${AUTH}/password/forgot`).send({ email: acme.owner.email });
    const token = await pc.mailbox.tokenFor(acme.owner.email, 'reset-password');
    pc.clock.advance({ minutes: 31 });
    expect((await request(pc.app).post(`${AUTH}/password/reset`).send({ token, password: 'a new passphrase here' })).body)
      .toEqual({ error: 'Invalid or expired reset token' });
  });

  it('says plainly when there is no such message or link', async () => {
    const acme = await pc.tenant();
    await expect(pc.mailbox.latestTo('nobody@example.com')).rejects.toThrow(/no message to nobody@example.com/);
    await request(pc.app).post(`${AUTH}/password/forgot`).send({ email: acme.owner.email });
    await expect(pc.mailbox.tokenFor(acme.owner.email, 'join')).rejects.toThrow(/has no \/console\/join link/);
    expect((await pc.mailbox.to(acme.owner.email)).length).toBeGreaterThan(0);
  });
});
