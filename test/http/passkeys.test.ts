import { buildTestApp } from '../support/http-app';
import { describePasskeysFlow } from '../http-db/passkeys-flow';

describePasskeysFlow('memory', async () => {
  const t = await buildTestApp();
  return { app: t.app, close: () => t.assembly.close() };
});
