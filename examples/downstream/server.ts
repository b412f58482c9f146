import { portcullis } from '@portcullis/client';
import { downstreamApp } from './app';

/**
 * `npm run example:downstream`, with PORTCULLIS_URL (e.g. http://127.0.0.1:3000) and
 * PORTCULLIS_SERVICE_KEY (from `npm run service-key -- create downstream-example --all-tenants`). PORT: 4000.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required`);
    process.exit(2);
  }
  return value;
}

const auth = portcullis({ url: required('PORTCULLIS_URL'), serviceKey: required('PORTCULLIS_SERVICE_KEY') });
const port = Number(process.env['PORT'] ?? 4000);
const server = downstreamApp(auth).listen(port, () => {
  console.log(`downstream example on http://localhost:${port} (GET /whoami, POST /admin-only, POST /payouts)`);
});
auth.feedReady().then(() => console.log('change feed open: answers are now remembered'), () => undefined);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    auth.close();
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
