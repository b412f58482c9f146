import type { MailContext } from '../../src/application/mail/mail-input';
import { MailInputInvalid } from '../../src/application/mail/mail-input';
import {
  MAIL_KINDS, renderMail, renderStoredMail, type MailInputs, type MailKind, type MailTemplate,
} from '../../src/application/mail/render-mail';
import type { MailMessage } from '../../src/application/ports/mailer';
import { SIGN_IN_USER_AGENT_SHOWN } from '../../src/application/mail/templates/new-sign-in';

const CONTEXT: MailContext = { publicUrl: 'http://localhost:3000' };
const TOKEN = 'a1'.repeat(32);
const HOSTILE = '<script>alert(1)</script> & "x"';
const HOSTILE_HTML = '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;';

/** One input per kind; the type makes a new kind fail to compile until it has one. */
function samples(tenantName = 'Acme Corp'): { readonly [K in MailKind]: MailInputs[K] } {
  const to = 'jane@example.com';
  return {
    'password-reset': { to, tenantName, token: TOKEN, validMinutes: 30 },
    'verify-email': { to, tenantName, token: TOKEN, validHours: 24 },
    'invitation': { to, tenantName, inviterEmail: 'boss@example.com', role: 'admin', registeredElsewhere: false, token: TOKEN, expiresAt: '2030-01-31T14:05:00.000Z' },
    'email-change-confirm': { to: 'jane.new@example.org', tenantName, token: TOKEN, validHours: 24 },
    'email-changed-notice': { to, tenantName, newEmail: 'jane.new@example.org', changedAt: '2030-01-02T03:04:05.000Z' },
    'password-changed': { to, tenantName, changedAt: '2030-01-02T03:04:05.000Z' },
    'password-reset-done': { to, tenantName, resetAt: '2030-01-02T03:04:05.000Z' },
    'api-key-created': { to, tenantName, keyName: 'CI deploy', keyPrefix: 'pcls_0123abcd', createdAt: '2030-01-02T03:04:05.000Z' },
    'role-changed': { to, tenantName, oldRole: 'member', newRole: 'admin', changedAt: '2030-01-02T03:04:05.000Z' },
    'member-removed': { to, tenantName, removedAt: '2030-01-02T03:04:05.000Z' },
    'new-sign-in': { to, tenantName, signedInAt: '2030-01-02T03:04:05.000Z', clientAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
    'passkey-added': { to, tenantName, passkeyName: 'Work laptop', addedAt: '2030-01-02T03:04:05.000Z' },
    'passkey-removed': { to, tenantName, passkeyName: 'Work laptop', removedAt: '2030-01-02T03:04:05.000Z' },
    'second-factor-added': { to, tenantName, factor: 'totp', at: '2030-01-02T03:04:05.000Z' },
    'second-factor-removed': { to, tenantName, factor: 'all', at: '2030-01-02T03:04:05.000Z', byAdmin: true },
  };
}

function templates(tenantName?: string): MailTemplate[] {
  const inputs = samples(tenantName);
  return MAIL_KINDS.map((kind) => ({ kind, input: inputs[kind] }) as MailTemplate);
}

const render = (template: MailTemplate, context = CONTEXT): MailMessage => renderStoredMail(template.kind, template.input, context);
const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);

describe('mail templates', () => {
  it.each(templates())('$kind renders a subject, a text part and an HTML part, each naming the tenant', (template) => {
    const message = render(template);
    expect(message.to).toBe(template.input.to);
    expect(message.subject).toContain('Acme Corp');
    expect(message.text).toContain('Acme Corp');
    expect(message.text).not.toMatch(/<[a-z]/i);
    expect(message.html).toMatch(/^<!DOCTYPE html>/);
    expect(message.html).toContain('Acme Corp');
    expect(message.html).not.toMatch(/<(link|img|script|style)\b|src=|url\(/i); // inline styles only, nothing fetched
    expect(`${message.text}${message.html}`).not.toMatch(/undefined|null|NaN|\[object/);
  });

  // ASVS V1.2.1: output encoding fit for HTML elements and attributes; V1.1.2: encoded once, at output.
  it.each(templates(HOSTILE))('$kind escapes a hostile tenant name in HTML and leaves it as typed in text', (template) => {
    const message = render(template);
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain(HOSTILE_HTML);
    expect(message.html).not.toContain('&amp;amp;');
    expect(message.text).toContain(HOSTILE);
    expect(message.text).not.toMatch(/&(amp|lt|gt|quot);/);
  });

  it('escapes every other field a person typed: member and inviter addresses, key names', () => {
    const hostileAddress = '"><img src=x onerror=alert(1)>@example.com';
    const messages = [
      renderMail('invitation', { ...samples()['invitation'], to: hostileAddress, inviterEmail: `<b>${HOSTILE}</b>` }, CONTEXT),
      renderMail('api-key-created', { ...samples()['api-key-created'], keyName: HOSTILE }, CONTEXT),
      renderMail('email-changed-notice', { ...samples()['email-changed-notice'], to: hostileAddress }, CONTEXT),
      renderMail('role-changed', { ...samples()['role-changed'], to: hostileAddress }, CONTEXT),
    ];
    for (const message of messages) {
      expect(message.html).not.toMatch(/<(img|b|script)\b/);
    }
    for (const message of [messages[0]!, messages[2]!, messages[3]!]) expect(message.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;@example.com');
    expect(messages[1]!.html).toContain(HOSTILE_HTML);
    expect(messages[1]!.text).toContain(`"${HOSTILE}"`);
  });

  // ASVS V1.3.11: what a person typed cannot add a header through the Subject.
  it('keeps control characters in a tenant name out of the Subject', () => {
    const message = renderMail('member-removed', { ...samples()['member-removed'], tenantName: 'Acme\r\nBcc: everyone@example.com' }, CONTEXT);
    expect(message.subject).not.toMatch(/[\r\n]/);
    expect(message.subject).toBe('You were removed from Acme Bcc: everyone@example.com');
  });

  describe('links', () => {
    it.each([
      ['password-reset', `http://localhost:3000/console/reset-password?token=${TOKEN}`],
      ['verify-email', `http://localhost:3000/console/verify-email?token=${TOKEN}`],
      ['invitation', `http://localhost:3000/console/join?token=${TOKEN}`],
      ['email-change-confirm', `http://localhost:3000/console/confirm-email?token=${TOKEN}`],
    ] as const)('%s links to %s, in the text and as the only link in the HTML', (kind, link) => {
      const message = renderMail(kind, samples()[kind] as never, CONTEXT);
      expect(message.text).toContain(`\n${link}\n`);
      expect(hrefs(message.html)).toEqual([link]);
      expect(message.text.split(TOKEN)).toHaveLength(2); // the token only ever inside the link
    });

    it('builds links under a PUBLIC_URL with a path or a trailing slash', () => {
      const message = renderMail('password-reset', samples()['password-reset'], { publicUrl: 'https://example.com/auth/' });
      expect(hrefs(message.html)).toEqual([`https://example.com/auth/console/reset-password?token=${TOKEN}`]);
    });

    it('says how long a link works, and until when an invitation does', () => {
      expect(renderMail('password-reset', samples()['password-reset'], CONTEXT).text).toContain('for 30 minutes');
      expect(renderMail('password-reset', { ...samples()['password-reset'], validMinutes: 1 }, CONTEXT).text).toContain('for 1 minute.');
      expect(renderMail('verify-email', samples()['verify-email'], CONTEXT).text).toContain('for 24 hours');
      const invitation = renderMail('invitation', samples()['invitation'], CONTEXT);
      expect(invitation.text).toContain('boss@example.com invited you (jane@example.com) to join Acme Corp as an admin.');
      expect(invitation.text).toContain('before 31 January 2030, 14:05 UTC');
    });

    // ASVS V1.2.2: nothing but the service's own token reaches a link's query.
    it('refuses a token that is not one the service issues, and a PUBLIC_URL that is not http(s)', () => {
      for (const token of ['abc', `${TOKEN}&next=https://evil.example`, TOKEN.toUpperCase()]) {
        expect(() => renderMail('password-reset', { ...samples()['password-reset'], token }, CONTEXT)).toThrow(MailInputInvalid);
      }
      expect(() => renderMail('verify-email', samples()['verify-email'], { publicUrl: 'javascript:alert(1)' })).toThrow(/publicUrl/);
    });
  });

  it('tells an address registered in another organization that it cannot accept, with no link and no token', () => {
    const message = renderMail('invitation', {
      to: 'jane@example.com', tenantName: 'Acme Corp', inviterEmail: 'boss@example.com', role: 'member', registeredElsewhere: true,
    }, CONTEXT);
    expect(message.text).toContain('cannot be accepted with it');
    expect(message.text).toContain('ask boss@example.com to invite another of your addresses');
    expect(message.text).not.toContain('/console/join');
    expect(hrefs(message.html)).toEqual([]);
  });

  it('shows the old address only a masked new address', () => {
    const message = renderMail('email-changed-notice', samples()['email-changed-notice'], CONTEXT);
    expect(message.to).toBe('jane@example.com');
    expect(message.text).toContain('changed from jane@example.com to j***@example.org');
    expect(`${message.text}${message.html}`).not.toContain('jane.new');
  });

  it('confirms a new address at that address, without showing the current one', () => {
    const message = renderMail('email-change-confirm', samples()['email-change-confirm'], CONTEXT);
    expect(message.to).toBe('jane.new@example.org');
    expect(message.text).toContain('make jane.new@example.org the address of an account in Acme Corp');
  });

  // ASVS V6.3.6: users are told of changes to how they sign in, and what to do if it was not them.
  it.each(['email-changed-notice', 'password-changed', 'password-reset-done', 'api-key-created', 'role-changed', 'member-removed', 'new-sign-in'] as const)(
    '%s says what to do if it was not them, and carries no token',
    (kind) => {
      const message = renderMail(kind, samples()[kind] as never, CONTEXT);
      expect(message.text).toMatch(/If you did not|If you think this is a mistake/);
      expect(message.text).toContain('owners or admins of Acme Corp');
      expect(message.text).not.toContain('token=');
      for (const href of hrefs(message.html)) expect(href).not.toContain('?');
    },
  );

  // ASVS V6.3.5: the member is told of a sign-in from a device not seen before: when, from where, with what.
  it('says when, from which address and with which user agent a new device signed in', () => {
    const message = renderMail('new-sign-in', samples()['new-sign-in'], CONTEXT);
    expect(message.subject).toBe('New sign-in to your account in Acme Corp');
    expect(message.text).toContain('On 2 January 2030, 03:04 UTC, your account in Acme Corp (jane@example.com) was signed in to');
    expect(message.text).toContain('It came from 203.0.113.7, using "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0".');
    const unknown = renderMail('new-sign-in', { ...samples()['new-sign-in'], clientAddress: null, userAgent: null }, CONTEXT);
    expect(unknown.text).toContain('It came from an address that was not recorded, using an app that did not say what it is.');
  });

  // ASVS V1.2.1, V1.3.11: a user agent is whatever the client sent; it is escaped, cannot forge lines, and is cut.
  it('escapes a hostile user agent, keeps its line breaks out of the text part, and cuts a long one', () => {
    const message = renderMail('new-sign-in', { ...samples()['new-sign-in'], userAgent: `${HOSTILE}\r\nIt came from your own office.\u2028<img src=x>` }, CONTEXT);
    expect(message.html).not.toMatch(/<(img|script)\b/);
    expect(message.html).toContain(HOSTILE_HTML);
    expect(message.text).toContain(`using "${HOSTILE} It came from your own office. <img src=x>".`);
    expect(message.text).not.toMatch(/\nIt came from your own office/);
    const long = renderMail('new-sign-in', { ...samples()['new-sign-in'], userAgent: 'x'.repeat(5000) }, CONTEXT);
    expect(long.text).toContain(`using "${'x'.repeat(SIGN_IN_USER_AGENT_SHOWN)}…".`);
    expect(() => renderStoredMail('new-sign-in', { ...samples()['new-sign-in'], userAgent: 42 }, CONTEXT)).toThrow(/userAgent/);
  });

  it('names the old and new role, and the key by its name and prefix', () => {
    expect(renderMail('role-changed', samples()['role-changed'], CONTEXT).text).toContain('changed from member to admin');
    const key = renderMail('api-key-created', samples()['api-key-created'], CONTEXT);
    expect(key.text).toContain('An API key named "CI deploy" (starting pcls_0123abcd) was created');
    expect(renderMail('api-key-created', { ...samples()['api-key-created'], keyName: null }, CONTEXT).text).toContain('An API key starting pcls_0123abcd was created');
  });

  it.each(templates())('$kind carries no secret handed to it by mistake: inputs have no field that could hold one', (template) => {
    const secrets = { password: 'correct horse battery staple', apiKey: 'pcls_0123abcd4567ef890123abcd4567ef89', key: 'pcls_ffffffffffffffffffffffffffffffff', secret: 'hunter2' };
    const message = render({ ...template, input: { ...template.input, ...secrets } } as MailTemplate);
    const all = `${message.subject}\n${message.text}\n${message.html}`;
    for (const value of Object.values(secrets)) expect(all).not.toContain(value);
  });

  it('refuses a whole API key given as its prefix', () => {
    expect(() => renderMail('api-key-created', { ...samples()['api-key-created'], keyPrefix: 'pcls_0123abcd4567ef890123abcd4567ef89' }, CONTEXT))
      .toThrow(/keyPrefix/);
  });

  describe('stored as JSON, rendered at delivery', () => {
    it.each(templates())('$kind renders the same message from its JSON, every time', (template) => {
      const stored = JSON.parse(JSON.stringify(template)) as { kind: string; input: unknown };
      expect(renderStoredMail(stored.kind, stored.input, CONTEXT)).toEqual(render(template));
      expect(render(template)).toEqual(render(template));
    });

    it('refuses an unknown kind, and input with a missing or mistyped field, naming it', () => {
      expect(() => renderStoredMail('password-rest', samples()['password-reset'], CONTEXT)).toThrow(/kind/);
      expect(() => renderStoredMail('password-reset', null, CONTEXT)).toThrow(MailInputInvalid);
      const { tenantName: _omitted, ...noTenant } = samples()['password-changed'];
      expect(() => renderStoredMail('password-changed', noTenant, CONTEXT)).toThrow(/tenantName/);
      expect(() => renderStoredMail('password-reset', { ...samples()['password-reset'], validMinutes: '30' }, CONTEXT)).toThrow(/validMinutes/);
      expect(() => renderStoredMail('invitation', { ...samples()['invitation'], expiresAt: 'next week' }, CONTEXT)).toThrow(/expiresAt/);
      expect(() => renderStoredMail('invitation', { ...samples()['invitation'], registeredElsewhere: 'no' }, CONTEXT)).toThrow(/registeredElsewhere/);
      expect(() => renderStoredMail('role-changed', { ...samples()['role-changed'], newRole: 'superuser' }, CONTEXT)).toThrow(/newRole/);
    });
  });
});
