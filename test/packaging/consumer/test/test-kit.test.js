// A product team's test of Portcullis itself, through the installed test kit, over HTTP.
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { startTestPortcullis } = require('portcullis/testing');

test('the test kit serves Portcullis on a port: members, roles and refusals as the contract says', async () => {
  const pc = await startTestPortcullis();
  try {
    const acme = await pc.tenant();
    const viewer = await pc.member(acme, 'viewer');
    const me = await fetch(`${pc.url}/api/v1/auth/me`, { headers: viewer.headers });
    assert.equal(me.status, 200);
    assert.deepEqual(await me.json(), { tenant_id: acme.tenantId, user_id: viewer.userId, role: 'viewer' });

    const anonymous = await fetch(`${pc.url}/api/v1/auth/me`);
    assert.equal(anonymous.status, 401);
    assert.deepEqual(await anonymous.json(), { error: 'Missing authentication' });
  } finally {
    await pc.close();
  }
});
