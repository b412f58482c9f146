import type { DevelopmentMailbox, MailboxMessage } from '../../src/adapters/mail/development-mailbox';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { AUTH, PASSWORD } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

/**
 * ASVS 5.0 V6.3.5: a member is told of a sign-in from a device that had not signed in to their
 * account before, once per device: the device proof it is handed makes its next sign-in a known one.
 */
describe('new sign-in notices', () => {
  let t: TestApp;
  let mailbox: DevelopmentMailbox;

  beforeAll(async () => {
    t = await buildTestApp({ trustProxy: 1 });
    mailbox = t.assembly.mailer as DevelopmentMailbox;
  });
  afterAll(() => t.assembly.close());

  /** The new sign-in notices delivered to that address (signup's own verification message apart). */
  async function noticesTo(email: string): Promise<MailboxMessage[]> {
    await t.assembly.mailWorker!.deliverNow();
    return mailbox.messages().filter((message) => message.to === email && message.subject.startsWith('New sign-in'));
  }

  /** A member signed up from one device, with the proof that signup handed it. */
  async function member(tenantName = 'Notices & Co'): Promise<{ email: string; proof: string }> {
    const email = uniqueEmail('notice');
    const res = await request(t.app).post(`${AUTH}/signup`).set('X-Forwarded-For', '192.0.2.10').send({ email, password: PASSWORD, tenant_name: tenantName });
    expect(res.status).toBe(201);
    return { email, proof: res.headers['x-device-proof'] as string };
  }

  function login(email: string, from: { address: string; agent: string; proof?: string }) {
    const sent = request(t.app).post(`${AUTH}/login`).set('X-Forwarded-For', from.address).set('User-Agent', from.agent);
    if (from.proof !== undefined) sent.set('X-Device-Proof', from.proof);
    return sent.send({ email, password: PASSWORD });
  }

  it('a sign-in from a new device sends one notice with its time, address and user agent, and nothing secret', async () => {
    const { email } = await member();
    const agent = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15';
    const res = await login(email, { address: '203.0.113.50', agent });
    expect(res.status).toBe(200);
    const notices = await noticesTo(email);
    expect(notices.map((m) => m.subject)).toEqual(['New sign-in to your account in Notices & Co']);
    expect(notices[0]!.text).toContain(`It came from 203.0.113.50, using "${agent}".`);
    expect(notices[0]!.text).toMatch(/On \d{1,2} \w+ \d{4}, \d{2}:\d{2} UTC, your account in Notices & Co/);
    for (const secret of [res.body.token as string, res.headers['x-device-proof'] as string, PASSWORD]) {
      expect(notices[0]!.text).not.toContain(secret);
      expect(notices[0]!.html).not.toContain(secret);
    }
  });

  it('a sign-in with the device proof of that account sends none, and the new device is known from its second sign-in', async () => {
    const { email, proof } = await member();
    expect((await login(email, { address: '192.0.2.10', agent: 'curl/8.5.0', proof })).status).toBe(200);
    expect(await noticesTo(email)).toEqual([]); // the signup's device: known from the start

    const first = await login(email, { address: '198.51.100.4', agent: 'curl/8.5.0' });
    expect(first.status).toBe(200);
    expect((await login(email, { address: '198.51.100.4', agent: 'curl/8.5.0', proof: first.headers['x-device-proof'] as string })).status).toBe(200);
    expect((await noticesTo(email)).map((m) => m.subject)).toEqual(['New sign-in to your account in Notices & Co']);
  });

  it("another account's proof does not make a device known", async () => {
    const other = await member();
    const { email } = await member();
    expect((await login(email, { address: '198.51.100.5', agent: 'curl/8.5.0', proof: other.proof })).status).toBe(200);
    expect(await noticesTo(email)).toHaveLength(1);
  });

  it('a failed sign-in from a new device sends nothing', async () => {
    const { email } = await member();
    const res = await request(t.app).post(`${AUTH}/login`).set('X-Forwarded-For', '198.51.100.6').send({ email, password: 'not the password' });
    expect(res.status).toBe(401);
    expect(await noticesTo(email)).toEqual([]);
  });

  // ASVS V1.2.1: the user agent is the client's own text; the notice escapes it.
  it('escapes the user agent a client sent', async () => {
    const { email } = await member();
    const agent = '<img src=x onerror=alert(1)> "Totally Safe" & Co';
    expect((await login(email, { address: '198.51.100.7', agent })).status).toBe(200);
    const [notice] = await noticesTo(email);
    expect(notice!.html).not.toContain('<img');
    expect(notice!.html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;Totally Safe&quot; &amp; Co');
    expect(notice!.text).toContain(`using "${agent}".`);
  });
});
