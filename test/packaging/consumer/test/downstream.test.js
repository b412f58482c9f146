// A downstream service that verifies its callers with the installed @portcullis/client, tested
// against the installed test kit's Portcullis.
const assert = require('node:assert/strict');
const { test } = require('node:test');
const express = require('express');
const { portcullis, principalOf, requireRole } = require('@portcullis/client');
const { startTestPortcullis } = require('portcullis/testing');

function listen(app) {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

test('a service behind @portcullis/client admits, refuses and closes quietly', async () => {
  const pc = await startTestPortcullis();
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args.join(' '));
  const auth = portcullis({ url: pc.url, serviceKey: await pc.serviceKey('downstream'), now: pc.now });
  const app = express();
  app.use(auth);
  app.get('/whoami', (req, res) => res.json(principalOf(req)));
  app.post('/admin-only', requireRole('admin'), (_req, res) => res.json({ ok: true }));
  const server = await listen(app);
  const url = `http://127.0.0.1:${server.address().port}`;
  try {
    await auth.feedReady();
    const team = await pc.team(await pc.tenant());
    const whoami = await fetch(`${url}/whoami`, { headers: team.member.headers });
    assert.equal(whoami.status, 200);
    assert.deepEqual(await whoami.json(), {
      tenantId: team.member.tenantId, userId: team.member.userId, role: 'member', method: 'jwt', sessionId: team.member.sessionId,
      amr: ['pwd'],
    });

    const key = await pc.apiKey(team.owner);
    assert.equal((await fetch(`${url}/admin-only`, { method: 'POST', headers: key.headers })).status, 200);
    const viewer = await fetch(`${url}/admin-only`, { method: 'POST', headers: team.viewer.headers });
    assert.deepEqual({ status: viewer.status, body: await viewer.json() }, { status: 403, body: { error: 'Requires admin role or higher' } });
    const anonymous = await fetch(`${url}/whoami`);
    assert.deepEqual({ status: anonymous.status, body: await anonymous.json() }, { status: 401, body: { error: 'Missing authentication' } });

    auth.close();
    assert.deepEqual(warnings, []);
  } finally {
    console.warn = warn;
    auth.close();
    server.close();
    await pc.close();
  }
});
