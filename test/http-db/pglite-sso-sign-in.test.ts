import { TestClock } from '../../src/testing/test-clock';
import { databaseApp } from '../support/database-app';
import { describeSsoSignInFlow } from './sso-sign-in-flow';

describeSsoSignInFlow('PGlite', async () => {
  const clock = new TestClock();
  return { ...(await databaseApp('pglite', { clock })), clock };
});
