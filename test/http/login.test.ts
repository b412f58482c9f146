import jwt from 'jsonwebtoken';
import { request } from '../support/contract-request';
import { buildTestApp } from '../support/http-app';
import { AUTH, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

describe('POST /api/v1/auth/login', () => {
  it('answers 200 with a token carrying the same identity as signup gave', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const res = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), expires_in: '24h' });
    expect(jwt.decode(res.body.token)).toMatchObject({
      tenantId: owner.tenantId, userId: owner.userId, email: owner.email.toLowerCase(), role: 'owner',
    });
  });

  it('finds the user whatever the letter case of the e-mail', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const res = await request(app).post(`${AUTH}/login`).send({ email: owner.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
  });

  it('answers 401 with one message for an unknown e-mail and for a wrong password', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const unknown = await request(app).post(`${AUTH}/login`).send({ email: uniqueEmail('nobody'), password: PASSWORD });
    const wrong = await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: `${PASSWORD}!` });
    expectError(unknown, 401, 'Invalid credentials');
    expectError(wrong, 401, 'Invalid credentials');
    expect(unknown.body).toEqual(wrong.body);
  });
});
