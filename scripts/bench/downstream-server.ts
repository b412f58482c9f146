/**
 * The example downstream service (examples/downstream) as its own process, for the verifier bench:
 * the client library's middleware in front of GET /whoami, pointed at the bench's Portcullis.
 * Env: PORTCULLIS_URL, PORTCULLIS_SERVICE_KEY. Prints `READY <port>` once its change feed is open,
 * so every measured request may be answered from its cache.
 */
import { portcullis } from '../../packages/client/src';
import { downstreamApp } from '../../examples/downstream/app';
import { announceReady, describeLaunch, memoryBreakdown, serveBenchChannel } from './child-channel';

const auth = portcullis({
  url: process.env['PORTCULLIS_URL'] ?? '',
  serviceKey: process.env['PORTCULLIS_SERVICE_KEY'] ?? '',
  onError: (error) => console.error(`downstream: ${error.message}`),
});
let serverErrors = 0;
const app = downstreamApp(auth);
app.use((_error: unknown, _req: unknown, res: { status(code: number): { end(): void } }, _next: unknown) => {
  serverErrors += 1;
  res.status(500).end();
});

void auth.feedReady().then(() => {
  const server = app.listen(0, '127.0.0.1', () => announceReady(server));
  serveBenchChannel(
    server,
    () => ({ location: 'none', hashScheme: 'none', threadPoolSize: Number(process.env['UV_THREADPOOL_SIZE'] ?? 4), launch: describeLaunch(), serverErrors, memory: memoryBreakdown() }),
    async () => auth.close(),
  );
});
