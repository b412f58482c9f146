import { isConnectionFailure, isUniqueViolation } from '../../src/adapters/persistence/kysely/driver/pg-errors';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionFailure: the database is away, not the statement wrong', () => {
  it.each([
    ['connection exception (class 08)', withCode('08006')],
    ['connection does not exist', withCode('08003')],
    ['admin shutdown', withCode('57P01')],
    ['cannot connect now (starting up)', withCode('57P03')],
    ['too many connections', withCode('53300')],
    ['statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['host not found', withCode('ENOTFOUND')],
    ['every address refused (AggregateError)', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')])],
    ['pg: connection lost', new Error('Connection terminated unexpectedly')],
    ['pg: connect timeout', new Error('Connection terminated due to connection timeout')],
    ['pg-pool: checkout timeout', new Error('timeout exceeded when trying to connect')],
    ['pg: query read timeout', new Error('Query read timeout')],
    ['wrapped as a cause', new Error('query failed', { cause: withCode('ECONNRESET') })],
  ])('%s: yes', (_name, error) => {
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each([
    ['unique violation', withCode('23505')],
    ['syntax error', withCode('42601')],
    ['invalid text representation', withCode('22P02')],
    ['undefined table', withCode('42P01')],
    ['a message that merely mentions a timeout', new Error('value "Connection terminated" is not valid')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s: no', (_name, error) => {
    expect(isConnectionFailure(error)).toBe(false);
  });

  it('leaves unique violations to isUniqueViolation', () => {
    expect(isUniqueViolation(Object.assign(withCode('23505'), { constraint: 'users_email_unique' }), 'users_email_unique')).toBe(true);
  });
});
