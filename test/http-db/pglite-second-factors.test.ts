import { TestClock } from '../../src/testing/test-clock';
import { databaseApp } from '../support/database-app';
import { describeSecondFactorsFlow } from './second-factors-flow';

describeSecondFactorsFlow('PGlite', async () => {
  const clock = new TestClock();
  return { ...(await databaseApp('pglite', { clock })), clock };
});
