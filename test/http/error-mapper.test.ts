import { describeError as describeWith } from '../../src/adapters/http/errors/error-mapper';
import { IDENTITY_ERRORS } from '../../src/adapters/http/errors/identity-errors';

const describeError = (err: unknown) => describeWith(err, IDENTITY_ERRORS);
import { LoginThrottleUnavailable } from '../../src/application/ports/login-throttle';
import { HttpError, ServiceUnavailable, TooManyRequests } from '../../src/adapters/http/errors/http-error';
import {
  DomainError, EmailAlreadyRegistered, InsufficientRole, InvalidApiKey, InvalidApiKeyFormat, InvalidCredentials,
  InvalidInviteToken, InvalidToken, InviteAlreadyAccepted, InviteExpired, InviteNotFound,
  MissingAuthentication, TenantNameRequired, TooManyFailedLogins,
} from '../../src/domain/errors';

describe('describeError', () => {
  it.each([
    [new EmailAlreadyRegistered(), 409, 'Email already registered'],
    [new InvalidInviteToken(), 400, 'Invalid invite token'],
    [new InviteAlreadyAccepted(), 400, 'Invite already accepted'],
    [new InviteExpired(), 400, 'Invite expired'],
    [new TenantNameRequired(), 400, 'tenant_name is required for new signups'],
    [new InvalidCredentials(), 401, 'Invalid credentials'],
    [new InvalidApiKeyFormat(), 401, 'Invalid API key format'],
    [new InvalidApiKey(), 401, 'Invalid API key'],
    [new InvalidToken(), 401, 'Invalid or expired token'],
    [new MissingAuthentication(), 401, 'Missing authentication'],
    [new InsufficientRole('admin'), 403, 'Requires admin role or higher'],
    [new InviteNotFound(), 404, 'Invite not found'],
  ])('maps %p to %i with its own message', (error, status, message) => {
    expect(describeError(error)).toEqual({ status, body: { error: message } });
  });

  it('passes an HttpError through with its details', () => {
    const details = [{ field: 'email', message: 'email must be an email' }];
    expect(describeError(new HttpError(400, 'email must be an email', details))).toEqual({
      status: 400, body: { error: 'email must be an email', details },
    });
  });

  it('explains nothing it does not know: a new domain code, a plain error, a 5xx, a non-error', () => {
    class Unmapped extends DomainError { readonly code = 'SOMETHING_NEW'; }
    const serverSide = Object.assign(new Error('upstream down'), { status: 502 });
    for (const error of [new Unmapped('x'), new Error('boom'), serverSide, 'a string', null]) {
      expect(describeError(error)).toBeNull();
    }
  });
});

describe('describeError: refusals that tell the client when to come back', () => {
  it.each([
    [new TooManyRequests(42), 429, 'Too many requests, retry after 42 seconds', '42'],
    [new TooManyFailedLogins(900), 429, 'Too many requests, retry after 900 seconds', '900'],
    [new ServiceUnavailable(new Error('ECONNREFUSED')), 503, 'Service unavailable', '5'],
    [new LoginThrottleUnavailable(new Error('ECONNREFUSED')), 503, 'Service unavailable', '5'],
  ])('maps %p to %i with Retry-After', (error, status, message, retryAfter) => {
    expect(describeError(error)).toEqual({ status, body: { error: message }, headers: { 'Retry-After': retryAfter } });
  });

  it('keeps the cause of a 503 for the log, out of the body', () => {
    const cause = new Error('connect ECONNREFUSED 10.1.2.3:6379');
    expect(new ServiceUnavailable(cause).cause).toBe(cause);
    expect(JSON.stringify(describeError(new ServiceUnavailable(cause)))).not.toContain('10.1.2.3');
  });
});
