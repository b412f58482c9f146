import { freePort, ServiceProcess } from '../support/service-process';

// The real process in production: /metrics answers on the management port only, never on the
// public one (where anyone could read login, throttle and failure counts). Serving them on the
// public port is METRICS_ON_MAIN_PORT's explicit choice (test/unit/config.test.ts).
describe('metrics in production', () => {
  let service: ServiceProcess | undefined;
  afterEach(() => service?.kill());

  it('are served on their own management port, and the public port answers them 404', async () => {
    const metricsPort = await freePort();
    service = await ServiceProcess.start({ METRICS_PORT: String(metricsPort) });
    await service.waitForLog((line) => typeof line.msg === 'string' && line.msg.startsWith('metrics on'), 5_000);

    const onPublic = await fetch(`${service.url}/metrics`);
    expect(onPublic.status).toBe(404);
    const onManagement = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(onManagement.status).toBe(200);
    expect(await onManagement.text()).toMatch(/^# HELP /m);
  }, 120_000);
});
