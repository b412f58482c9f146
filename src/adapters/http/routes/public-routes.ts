import type { RequestHandler } from 'express';
import type { UseCases } from '../../../application/use-cases';
import { LoginBody } from '../body/dto/login-body';
import { SignupBody } from '../body/dto/signup-body';
import { jsonBody } from '../body/json-body';
import { originOf } from '../middleware/request-origin';
import type { RouteDefinition } from './route-group';
import { validateBody } from '../body/validate-body';

export interface PublicRouteLimiters {
  readonly login: RequestHandler;
  readonly signup: RequestHandler;
}

/**
 * Login and signup: no authentication. Each route's own limiter comes first, so a flood is refused
 * before any body is read, let alone a password hashed.
 */
export function publicRoutes(useCases: UseCases, limiters: PublicRouteLimiters): RouteDefinition[] {
  return [
    {
      method: 'post',
      path: '/login',
      handlers: [limiters.login, jsonBody(), validateBody(LoginBody), async (req, res) => {
        const body = req.body as LoginBody;
        const result = await useCases.login.execute({ email: body.email, password: body.password }, originOf(req));
        res.status(200).json({ token: result.token, expires_in: result.expiresIn });
      }],
    },
    {
      method: 'post',
      path: '/signup',
      handlers: [limiters.signup, jsonBody(), validateBody(SignupBody), async (req, res) => {
        const body = req.body as SignupBody;
        const result = await useCases.signup.execute({
          email: body.email,
          password: body.password,
          tenantName: body.tenant_name,
          inviteToken: body.invite_token,
        }, originOf(req));
        res.status(201).json({ token: result.token, tenant_id: result.tenantId, expires_in: result.expiresIn });
      }],
    },
  ];
}
