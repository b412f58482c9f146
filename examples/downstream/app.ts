import express, { type Express } from 'express';
import { type PortcullisMiddleware, principalOf, requireMfa, requireRole } from '@portcullis/client';

/**
 * A downstream service: every route behind Portcullis, one of them for admins only, one for callers
 * who signed in with a second factor. The principal comes from the middleware; the handlers never
 * see a credential.
 */
export function downstreamApp(auth: PortcullisMiddleware): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(auth);
  app.get('/whoami', (req, res) => {
    const { tenantId, userId, role, method } = principalOf(req);
    res.json({ tenant_id: tenantId, user_id: userId, role, method });
  });
  app.post('/admin-only', requireRole('admin'), (req, res) => {
    res.json({ ok: true, acted_as: principalOf(req).userId });
  });
  app.post('/payouts', requireMfa(), (req, res) => {
    const { userId, amr } = principalOf(req);
    res.json({ ok: true, acted_as: userId, amr });
  });
  return app;
}
