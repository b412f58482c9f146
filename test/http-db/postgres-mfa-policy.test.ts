import { TestClock } from '../../src/testing/test-clock';
import { databaseApp } from '../support/database-app';
import { describeIfPostgres } from '../support/postgres';
import { describeMfaPolicyFlow } from './mfa-policy-flow';

describeIfPostgres('passkeys as the second step and the tenant policy over HTTP', (url) => {
  // Two instances over one database, on one clock: a policy switched on one is in force on the other.
  describeMfaPolicyFlow('Postgres', async () => {
    const clock = new TestClock();
    const one = await databaseApp({ postgres: url }, { clock });
    const two = await databaseApp({ postgres: url }, { clock });
    return { app: one.app, other: two.app, clock, close: async () => { await one.close(); await two.close(); } };
  });
});
