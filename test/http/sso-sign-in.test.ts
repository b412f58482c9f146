import { TestClock } from '../../src/testing/test-clock';
import { describeSsoSignInFlow } from '../http-db/sso-sign-in-flow';
import { buildTestApp } from '../support/http-app';

describeSsoSignInFlow('memory', async () => {
  const clock = new TestClock();
  const built = await buildTestApp({}, { clock });
  return { app: built.app, repos: built.storage.repos, clock, close: () => built.assembly.close() };
});
