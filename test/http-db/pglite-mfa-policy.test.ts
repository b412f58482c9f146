import { TestClock } from '../../src/testing/test-clock';
import { databaseApp } from '../support/database-app';
import { describeMfaPolicyFlow } from './mfa-policy-flow';

describeMfaPolicyFlow('PGlite', async () => {
  const clock = new TestClock();
  return { ...(await databaseApp('pglite', { clock })), clock };
});
