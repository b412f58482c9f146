import supertest from 'supertest';
import { DomainError, type ErrorCodesOf } from '../../src/domain/errors';
import type { IdentityErrorCode } from '../../src/adapters/http/errors/identity-errors';
import { json, type Route } from '../../src/adapters/http/modules/http-kit';
import { ModuleCompositionError } from '../../src/bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import { notesModule } from '../../examples/notes/notes-module';
import { buildModuleTestApp } from '../support/module-app';
import { bearer, expectError, signupOwner } from '../support/http-fixtures';

/** A module whose handlers never look at the caller: whatever protects its routes is the platform's. */
function careless(name: string, routes: Route[], extra: Partial<PortcullisModule> = {}): PortcullisModule {
  return { name, errors: {}, build: () => routes, ...extra };
}

const answerSecret: Route = { method: 'get', path: '/api/v1/secrets', group: 'protected', handle: () => json(200, { secret: 42 }) };

describe('the module seam: what a module cannot do', () => {
  it('cannot serve a protected route without the platform\'s authentication, on either path', async () => {
    const { app } = await buildModuleTestApp([careless('secrets', [answerSecret])]);
    expectError(await supertest(app).get('/api/v1/secrets'), 401, 'Missing authentication'); // direct path
    expectError(await supertest(app).get('/api/v1/secrets?x=1'), 401, 'Missing authentication'); // through Express
    expectError(await supertest(app).get('/api/v1/SECRETS/'), 401, 'Missing authentication');
    expectError(await supertest(app).get('/api/v1/secrets').set('Authorization', 'Bearer forged'), 401, 'Invalid or expired token');
    const owner = await signupOwner(app);
    expect((await supertest(app).get('/api/v1/secrets').set(bearer(owner))).body).toEqual({ secret: 42 });
    // Authentication runs per matched route: an unknown path next to it is still a 404.
    expectError(await supertest(app).get('/api/v1/secrets/more'), 404, 'Not found');
  });

  it.each<[string, PortcullisModule[], RegExp]>([
    ['a route under identity\'s paths', [careless('sneaky', [{ ...answerSecret, group: 'public', path: '/api/v1/auth/me' }])], /under \/api\/v1\/auth/],
    ['a route on the docs path', [careless('sneaky', [{ ...answerSecret, group: 'public', path: '/api/v1/openapi.json' }])], /openapi\.json/],
    ['a route on the console\'s paths', [careless('sneaky', [{ ...answerSecret, group: 'public', path: '/console/x' }])], /under \/console/],
    ['a route in a group of the platform\'s', [careless('sneaky', [{ ...answerSecret, group: 'probe' }])], /public or the protected group/],
    ['a public route beside a protected one of another module', [careless('a', [answerSecret]), careless('b', [{ ...answerSecret, group: 'public', path: '/API/v1/secrets/' }])], /clashes/],
    ['a route that an earlier one\'s pattern matches', [careless('a', [{ ...answerSecret, path: '/api/v1/things/:id' }]), careless('b', [{ ...answerSecret, path: '/api/v1/things/mine' }])], /clashes/],
    ['a taken module name', [careless('notes', []), notesModule], /name "notes" is taken/],
    ['identity\'s name', [careless('identity', [])], /name "identity" is taken/],
    ['an identity audit action', [careless('x', [], { auditActions: ['login.failed'] })], /audit action "login.failed" is already used/],
    ['a malformed audit action', [careless('x', [], { auditActions: ['Created' as 'a.b'] })], /must be <noun>.<verb>/],
    ['an identity error code', [careless('x', [], { errors: { INVITE_NOT_FOUND: { status: 404 } } })], /error code INVITE_NOT_FOUND is already used/],
    ['an error code without an error status', [careless('x', [], { errors: { X_HAPPENED: { status: 200 } } })], /needs a 4xx or 5xx status/],
  ])('refuses %s when the service starts', async (_name, modules, message) => {
    const built = buildModuleTestApp(modules);
    await expect(built).rejects.toThrow(ModuleCompositionError);
    await expect(buildModuleTestApp(modules)).rejects.toThrow(message);
  });
});

describe('error maps keyed by the code union', () => {
  it('make an error class without a status, or without a refusal kind, a type error', () => {
    class Missing extends DomainError { readonly code = 'THING_MISSING'; }
    class Late extends DomainError { readonly code = 'THING_LATE'; }
    const errors = { Missing, Late, helper: () => undefined };
    type Code = ErrorCodesOf<typeof errors>;
    const complete: Record<Code, number> = { THING_MISSING: 404, THING_LATE: 409 };
    // @ts-expect-error THING_LATE has no status: the map does not compile until it has one.
    const incomplete: Record<Code, number> = { THING_MISSING: 404 };
    expect(Object.keys(complete).sort()).toEqual(['THING_LATE', 'THING_MISSING']);
    expect(incomplete).toBeDefined();
    // The same holds for identity's own record of each code (identity-errors.ts), keyed by IdentityErrorCode.
    const identity: IdentityErrorCode[] = ['INVITE_NOT_FOUND', 'LAST_OWNER'];
    // @ts-expect-error a code no identity error class has
    const unknown: IdentityErrorCode = 'INVALID_INPUT';
    expect([...identity, unknown]).toHaveLength(3);
  });
});
