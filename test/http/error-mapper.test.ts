import { describeError } from '../../src/adapters/http/error-mapper';
import { HttpError } from '../../src/adapters/http/http-error';
import {
  DomainError, EmailAlreadyRegistered, InsufficientRole, InvalidApiKey, InvalidApiKeyFormat, InvalidCredentials,
  InvalidInput, InvalidInviteToken, InvalidToken, InviteAlreadyAccepted, InviteExpired, InviteNotFound,
  MissingAuthentication, TenantNameRequired,
} from '../../src/domain/errors';

describe('describeError', () => {
  it.each([
    [new EmailAlreadyRegistered(), 409, 'Email already registered'],
    [new InvalidInviteToken(), 400, 'Invalid invite token'],
    [new InviteAlreadyAccepted(), 400, 'Invite already accepted'],
    [new InviteExpired(), 400, 'Invite expired'],
    [new TenantNameRequired(), 400, 'tenant_name is required for new signups'],
    [new InvalidInput('email', 'email must be an email'), 400, 'email must be an email'],
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
