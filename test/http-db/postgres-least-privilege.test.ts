import { databaseApp } from '../support/database-app';
import { sharedServingLogin } from '../support/least-privileged-login';
import { describeIfPostgres } from '../support/postgres';
import { describeAuditTrail } from './audit-flow';
import { describeFullFlow } from './full-flow';
import { describeLifecycle } from './lifecycle-flow';

// The HTTP suites once more, with the service serving as a login that is only a member of the app
// role (the production set-up of docs/operations.md) and migrating as the owner.
describeIfPostgres('Postgres over HTTP, served with a least-privileged login', (url) => {
  const login = sharedServingLogin(() => url);
  afterAll(async () => {
    await login.drop();
  });
  const open = async () => databaseApp({ postgres: url, servingLogin: (await login.get()).url });

  describeFullFlow('least-privileged login', open);
  describeLifecycle('least-privileged login', open);
  describeAuditTrail('least-privileged login', open);
});
