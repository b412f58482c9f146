import type { Repositories } from '../../src/application/ports/repositories';
import type { Storage } from '../../src/adapters/persistence/storage';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import { decodeAuditCursor, encodeAuditCursor } from '../../src/application/audit/audit-cursor';
import { InvalidAuditCursor, LastOwner } from '../../src/domain/errors';
import { TestClock } from '../../src/testing/test-clock';
import { buildTestUseCases, uniqueEmail } from '../support/test-use-cases';

const PASSWORD = 'correct horse battery';
const ORIGIN = { clientAddress: '198.51.100.4', userAgent: 'unit-test', requestId: 'req-1' };

/** A storage whose transactions fail when they append an event: the change must not survive. */
function storageFailingOnAudit(inner: Storage): Storage {
  return {
    ...inner,
    unitOfWork: {
      run: (work) => inner.unitOfWork.run((tx) => work({
        ...tx,
        auditEvents: { ...tx.auditEvents, append: async () => { throw new Error('audit store down'); } },
      } as Repositories)),
    },
  };
}

async function ownerOfNewTenant(clock?: TestClock) {
  const built = await buildTestUseCases(clock ? { clock } : {});
  const email = uniqueEmail('owner');
  const signup = await built.useCases.signup.execute({ email, password: PASSWORD, tenantName: 'Audited' }, ORIGIN);
  const owner = await built.useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${signup.token}` });
  const list = async (query: { limit?: number; cursor?: string } = {}) =>
    built.useCases.listAuditEvents.execute(owner, { limit: query.limit ?? 100, cursor: query.cursor });
  return { ...built, owner, list };
}

describe('audit trail use-cases', () => {
  test('an event carries the request origin and the actor, and holds no secret', async () => {
    const { useCases, owner, list } = await ownerOfNewTenant();
    const created = await useCases.createApiKey.execute(owner, { name: 'deploy' }, ORIGIN);
    const [event] = (await list()).events;
    expect(event).toMatchObject({
      tenantId: owner.tenantId, actorUserId: owner.userId, actorMethod: 'jwt', action: 'api_key.created', targetId: created.id,
      clientAddress: '198.51.100.4', userAgent: 'unit-test', requestId: 'req-1',
      details: { prefix: created.prefix, name: 'deploy', expires_at: null },
    });
    expect(JSON.stringify(event)).not.toContain(created.apiKey);
  });

  test('a change whose event cannot be written is not made: key, invite, member change, password', async () => {
    const memory = createMemoryStorage();
    const healthy = await buildTestUseCases({ storage: memory });
    const signup = await healthy.useCases.signup.execute({ email: uniqueEmail('owner'), password: PASSWORD, tenantName: 'T' });
    const owner = await healthy.useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${signup.token}` });
    const invite = await healthy.useCases.inviteUser.execute(owner, { email: uniqueEmail('m'), role: 'member' });
    const joined = await healthy.useCases.signup.execute({ email: uniqueEmail('m2'), password: PASSWORD, inviteToken: invite.inviteToken });
    const member = await healthy.useCases.authenticate.execute({ apiKey: undefined, authorization: `Bearer ${joined.token}` });
    const before = (await healthy.useCases.listAuditEvents.execute(owner, { limit: 100 })).events;

    const broken = (await buildTestUseCases({ storage: storageFailingOnAudit(memory) })).useCases;
    await expect(broken.createApiKey.execute(owner, {}, ORIGIN)).rejects.toThrow('audit store down');
    await expect(broken.inviteUser.execute(owner, { email: uniqueEmail('x') }, ORIGIN)).rejects.toThrow('audit store down');
    await expect(broken.changeMemberRole.execute(owner, member.userId, 'viewer', ORIGIN)).rejects.toThrow('audit store down');
    await expect(broken.removeMember.execute(owner, member.userId, ORIGIN)).rejects.toThrow('audit store down');
    await expect(broken.signup.execute({ email: uniqueEmail('y'), password: PASSWORD, tenantName: 'Never' }, ORIGIN)).rejects.toThrow('audit store down');

    expect(await healthy.useCases.listApiKeys.execute(owner)).toEqual([]);
    expect(await healthy.useCases.listInvites.execute(owner)).toHaveLength(0);
    expect((await healthy.useCases.listMembers.execute(owner)).find((m) => m.id === member.userId)?.role).toBe('member');
    expect((await healthy.useCases.listAuditEvents.execute(owner, { limit: 100 })).events).toEqual(before);
  });

  test('a refused change writes no event', async () => {
    const { useCases, owner, list } = await ownerOfNewTenant();
    const before = (await list()).events;
    await expect(useCases.changeMemberRole.execute(owner, owner.userId, 'admin', ORIGIN)).rejects.toBeInstanceOf(LastOwner);
    expect((await list()).events).toEqual(before);
  });

  test('events of one millisecond list in the reverse of the order they happened', async () => {
    const clock = new TestClock(new Date('2026-11-21T10:00:00.000Z'));
    const { useCases, owner, list } = await ownerOfNewTenant(clock);
    const keys = [];
    for (let i = 0; i < 20; i += 1) keys.push((await useCases.createApiKey.execute(owner, { name: `k${i}` }, ORIGIN)).id);
    const listed = (await list()).events.filter((e) => e.action === 'api_key.created').map((e) => e.targetId);
    expect(listed).toEqual([...keys].reverse());
  });

  test('pages follow the cursor; a cursor not made here is refused', async () => {
    const { useCases, owner, list } = await ownerOfNewTenant();
    for (let i = 0; i < 5; i += 1) await useCases.createApiKey.execute(owner, {}, ORIGIN);
    const all = (await list()).events.map((e) => e.id);
    const first = await list({ limit: 4 });
    expect(first.nextCursor).not.toBeNull();
    const second = await list({ limit: 4, cursor: first.nextCursor! });
    expect(second.nextCursor).toBeNull();
    expect([...first.events, ...second.events].map((e) => e.id)).toEqual(all);

    for (const cursor of ['', 'abc', Buffer.from('12.not-a-uuid').toString('base64url'), Buffer.from('x'.repeat(50)).toString('base64url')]) {
      await expect(list({ cursor })).rejects.toBeInstanceOf(InvalidAuditCursor);
    }
  });

  test('a cursor round-trips its position exactly', () => {
    const position = { occurredAt: new Date('2026-11-21T10:00:00.123Z'), id: '01a1fd1c-693f-7039-b886-36983a816021' };
    expect(decodeAuditCursor(encodeAuditCursor(position))).toEqual(position);
  });
});
