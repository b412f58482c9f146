// The team's own module (src/shouts-module.ts, compiled by tsc into dist/), served by the
// installed test kit over HTTP, behind the platform's authentication and role checks.
const assert = require('node:assert/strict');
const { test } = require('node:test');
const { startTestPortcullis } = require('portcullis/testing');
const { shoutsModule } = require('../dist/shouts-module');

test('a module built outside the Portcullis repository is served behind its guard, its bodies validated by its own DTO', async () => {
  const pc = await startTestPortcullis({ modules: [shoutsModule] });
  try {
    const team = await pc.team(await pc.tenant());
    const shout = (text, headers) => fetch(`${pc.url}/api/v1/shouts/${text}`, { headers });
    const answer = async (res) => ({ status: res.status, body: await res.json() });

    assert.deepEqual(await answer(await shout('hello', team.member.headers)), { status: 200, body: { shout: 'HELLO', by: 'member' } });
    assert.deepEqual(await answer(await shout('hello', team.viewer.headers)), { status: 403, body: { error: 'Requires member role or higher' } });
    assert.deepEqual(await answer(await shout('hello')), { status: 401, body: { error: 'Missing authentication' } });
    assert.deepEqual(await answer(await shout('much-too-long-to-shout', team.owner.headers)), { status: 422, body: { error: 'A shout is at most 12 characters' } });

    const post = (body) => fetch(`${pc.url}/api/v1/shouts`, {
      method: 'POST', headers: { ...team.member.headers, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    assert.deepEqual(await answer(await post({ text: 'hey' })), { status: 201, body: { shout: 'HEY' } });
    const tooLong = await answer(await post({ text: 'much-too-long-to-shout' }));
    assert.equal(tooLong.status, 400);
    assert.deepEqual(tooLong.body.details.map((detail) => detail.field), ['text']);
    const unknown = await answer(await post({ text: 'hey', loud: true }));
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body.details.map((detail) => detail.field), ['loud']);
  } finally {
    await pc.close();
  }
});
