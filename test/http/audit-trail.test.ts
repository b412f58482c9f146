import { describeAuditTrail } from '../http-db/audit-flow';
import { buildTestApp } from '../support/http-app';

describeAuditTrail('memory', async () => ({ app: (await buildTestApp()).app, close: async () => undefined }));
