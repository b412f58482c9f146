import { describeLifecycle } from '../http-db/lifecycle-flow';
import { buildTestApp } from '../support/http-app';

describeLifecycle('memory', async () => ({ app: (await buildTestApp()).app, close: async () => undefined }));
