import { TestClock } from '../../src/testing/test-clock';
import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeSecondFactorsFlow } from './second-factors-flow';

describeIfPostgres('second factors over HTTP', (url) => {
  describeSecondFactorsFlow('Postgres', async () => {
    const clock = new TestClock();
    return { ...(await databaseApp({ postgres: url }, { clock })), clock };
  });
});
