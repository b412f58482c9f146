import { randomUUID } from 'node:crypto';
import { InMemoryDnsTxtRecords } from '../../src/adapters/dns/in-memory-dns-txt-records';
import { TestClock } from '../../src/testing/test-clock';
import { request } from '../support/contract-request';
import { buildTestApp, type TestApp } from '../support/http-app';
import { type Account, AUTH, bearer, expectError, joinWithRole, signupOwner } from '../support/http-fixtures';

const DOMAINS = `${AUTH}/sso/domains`;
const domainName = (): string => `d-${randomUUID()}.example.com`;

describe("a tenant's single sign-on domains", () => {
  let t: TestApp;
  const clock = new TestClock();
  const dns = new InMemoryDnsTxtRecords();
  beforeAll(async () => {
    t = await buildTestApp({}, { clock, dns });
  });
  afterAll(() => t.assembly.close());
  afterEach(() => dns.failLookups(false));

  const add = (owner: Account, domain: string) => request(t.app).post(DOMAINS).set(bearer(owner)).send({ domain });
  const verify = (owner: Account, domain: string) => request(t.app).post(`${DOMAINS}/${encodeURIComponent(domain)}/verify`).set(bearer(owner));
  const publish = (claim: { txt_name: string; txt_value: string }) => dns.publish(claim.txt_name, claim.txt_value);

  it('a claim answers the TXT record to publish, unverified; verifying reads it and says when', async () => {
    const owner = await signupOwner(t.app, 'Domains Co');
    const domain = domainName();
    const added = await add(owner, domain.toUpperCase());
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      domain, txt_name: `_portcullis-verification.${domain}`, txt_value: expect.stringMatching(/^portcullis-verification=[A-Za-z0-9_-]{43}$/),
      verified: false, verified_at: null,
    });

    expectError(await verify(owner, domain), 400, 'Verification record not found');
    dns.publish(added.body.txt_name, 'v=spf1 -all');
    dns.publish(added.body.txt_name, 'portcullis-verification=someone-elses-value');
    expectError(await verify(owner, domain), 400, 'Verification record not found');

    publish(added.body);
    clock.advance({ minutes: 3 });
    const verified = await verify(owner, domain);
    expect({ status: verified.status, body: verified.body })
      .toEqual({ status: 200, body: { ...added.body, verified: true, verified_at: clock.now().toISOString() } });
    // Verified once: the record may go, the claim stays verified from that time.
    dns.withdraw(added.body.txt_name);
    clock.advance({ minutes: 1 });
    expect((await verify(owner, domain)).body).toEqual(verified.body);

    const listed = await request(t.app).get(DOMAINS).set(bearer(owner));
    expect({ status: listed.status, body: listed.body }).toEqual({ status: 200, body: { domains: [verified.body] } });
  });

  it('a record sent in several strings is joined before it is compared', async () => {
    const owner = await signupOwner(t.app, 'Long Records Co');
    const { body: claim } = await add(owner, domainName());
    const value = claim.txt_value as string;
    dns.publish(claim.txt_name, value.slice(0, 20), value.slice(20));
    expect((await verify(owner, claim.domain)).body.verified).toBe(true);
  });

  it('claiming a domain again answers the same claim, unchanged', async () => {
    const owner = await signupOwner(t.app, 'Twice Co');
    const domain = domainName();
    const first = await add(owner, domain);
    const again = await add(owner, `${domain}.`);
    expect({ status: again.status, body: again.body }).toEqual({ status: 200, body: first.body });
  });

  it('a domain belongs to the first tenant that verifies it: the others can neither verify it nor claim it', async () => {
    const first = await signupOwner(t.app, 'First Co');
    const second = await signupOwner(t.app, 'Second Co');
    const third = await signupOwner(t.app, 'Third Co');
    const domain = domainName();
    const ours = await add(first, domain);
    const theirs = await add(second, domain);
    expect(theirs.status).toBe(201);
    expect(theirs.body.txt_value).not.toBe(ours.body.txt_value);

    publish(ours.body);
    publish(theirs.body);
    expect((await verify(first, domain)).status).toBe(200);
    expectError(await verify(second, domain), 409, 'Domain is verified by another tenant');
    expectError(await add(third, domain), 409, 'Domain is verified by another tenant');
    expect((await request(t.app).get(DOMAINS).set(bearer(second))).body.domains).toEqual([theirs.body]);

    // Once the owner lets it go, the other claim can be verified.
    expect((await request(t.app).delete(`${DOMAINS}/${domain}`).set(bearer(first))).status).toBe(204);
    expect((await verify(second, domain)).body.verified).toBe(true);
  });

  it("a tenant reaches only its own claims: another's domain is not found", async () => {
    const owner = await signupOwner(t.app, 'Private Co');
    const stranger = await signupOwner(t.app, 'Nosy Co');
    const { body: claim } = await add(owner, domainName());
    publish(claim);
    expectError(await verify(stranger, claim.domain), 404, 'Domain not found');
    expectError(await request(t.app).delete(`${DOMAINS}/${claim.domain}`).set(bearer(stranger)), 404, 'Domain not found');
    expect((await request(t.app).get(DOMAINS).set(bearer(stranger))).body).toEqual({ domains: [] });
    expect((await request(t.app).get(DOMAINS).set(bearer(owner))).body.domains).toEqual([claim]);
  });

  it('the owner claims, verifies and drops domains (claims and drops with recent authentication); an admin lists them; a member cannot', async () => {
    const owner = await signupOwner(t.app, 'Roles Co');
    const admin = await joinWithRole(t.app, owner, 'admin');
    const member = await joinWithRole(t.app, owner, 'member');
    const { body: claim } = await add(owner, domainName());
    expectError(await add(admin, domainName()), 403, 'Requires owner role or higher');
    expectError(await verify(admin, claim.domain), 403, 'Requires owner role or higher');
    expectError(await request(t.app).delete(`${DOMAINS}/${claim.domain}`).set(bearer(admin)), 403, 'Requires owner role or higher');
    expectError(await request(t.app).get(DOMAINS).set(bearer(member)), 403, 'Requires admin role or higher');
    expect((await request(t.app).get(DOMAINS).set(bearer(admin))).body).toEqual({ domains: [claim] });

    clock.advance({ minutes: 11 });
    expectError(await add(owner, domainName()), 403, 'Recent authentication required');
    expectError(await request(t.app).delete(`${DOMAINS}/${claim.domain}`).set(bearer(owner)), 403, 'Recent authentication required');
    publish(claim);
    expect((await verify(owner, claim.domain)).status).toBe(200);
  });

  it('bad input is a 400; an unknown domain is a 404; dropping answers 204 once', async () => {
    const owner = await signupOwner(t.app, 'Picky Co');
    const message = 'domain must be a domain name, such as example.com';
    for (const domain of ['localhost', '10.0.0.1', 'exa mple.com', '-bad.example.com', 'a..example.com', `${'a'.repeat(64)}.com`, 'ünïcode.example']) {
      const res = await add(owner, domain);
      expect({ domain, status: res.status, error: res.body.error }).toEqual({ domain, status: 400, error: message });
    }
    for (const domain of ['', 42, null]) expect((await request(t.app).post(DOMAINS).set(bearer(owner)).send({ domain })).status).toBe(400);
    expect((await request(t.app).post(DOMAINS).set(bearer(owner)).send({})).status).toBe(400);

    expectError(await verify(owner, domainName()), 404, 'Domain not found');
    expectError(await verify(owner, 'not a domain'), 404, 'Domain not found');
    const { body: claim } = await add(owner, domainName());
    expect((await request(t.app).delete(`${DOMAINS}/${claim.domain.toUpperCase()}`).set(bearer(owner))).status).toBe(204);
    expectError(await request(t.app).delete(`${DOMAINS}/${claim.domain}`).set(bearer(owner)), 404, 'Domain not found');
  });

  it('DNS that cannot be asked is a 503 and verifies nothing', async () => {
    const owner = await signupOwner(t.app, 'Offline Co');
    const { body: claim } = await add(owner, domainName());
    publish(claim);
    dns.failLookups();
    expectError(await verify(owner, claim.domain), 503, 'DNS could not be reached, try again later');
    expect((await request(t.app).get(DOMAINS).set(bearer(owner))).body.domains).toEqual([claim]);
  });

  it('V16.2.5: adding, verifying and dropping a domain are in the audit trail', async () => {
    const owner = await signupOwner(t.app, 'Audited Domains Co');
    const { body: claim } = await add(owner, domainName());
    publish(claim);
    await verify(owner, claim.domain);
    await request(t.app).delete(`${DOMAINS}/${claim.domain}`).set(bearer(owner));
    const trail = await request(t.app).get(`${AUTH}/audit-events`).set(bearer(owner));
    const events = (trail.body.events as { action: string; details: object; target_id: string }[]).filter((event) => event.action.startsWith('sso.'));
    expect(events.map((event) => [event.action, event.details, event.target_id])).toEqual([
      ['sso.domain_removed', { domain: claim.domain, was_verified: true }, owner.tenantId],
      ['sso.domain_verified', { domain: claim.domain }, owner.tenantId],
      ['sso.domain_added', { domain: claim.domain }, owner.tenantId],
    ]);
  });
});
