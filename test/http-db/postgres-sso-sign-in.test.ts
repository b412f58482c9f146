import { TestClock } from '../../src/testing/test-clock';
import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeSsoSignInFlow } from './sso-sign-in-flow';

describeIfPostgres('single sign-on over HTTP on Postgres', (url) => {
  describeSsoSignInFlow('Postgres', async () => {
    const clock = new TestClock();
    return { ...(await databaseApp({ postgres: url }, { clock })), clock };
  });
});
