import { freePort, ServiceProcess } from '../support/service-process';

// The real process in production: /metrics answers on the management port only, never on the
// public one (where anyone could read login, throttle and failure counts). Serving them on the
// public port is METRICS_ON_MAIN_PORT's explicit choice (test/unit/config.test.ts).
describe('metrics in production', () => {
  let service: ServiceProcess | undefined;
  let second: ServiceProcess | undefined;
  afterEach(() => {
    service?.kill();
    second?.kill();
  });

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

  it('a second process on the same host and metrics port stops in one line naming METRICS_PORT, and the first keeps serving', async () => {
    const metricsPort = await freePort();
    service = await ServiceProcess.start({ METRICS_PORT: String(metricsPort) });
    second = await ServiceProcess.launch({ METRICS_PORT: String(metricsPort) });

    expect(await second.exited).toMatchObject({ code: 1, signal: null });
    const fatal = second.logs.filter((line) => line.level === 'fatal');
    expect(fatal).toEqual([expect.objectContaining({
      msg: `could not start: metrics: port ${metricsPort} on 127.0.0.1 is already in use (another Portcullis on this host?); `
        + 'set METRICS_PORT to a free port for each process on the host (docs/operations.md, "Several processes on one host")',
    })]);
    expect(fatal[0]).not.toHaveProperty('err');
    expect(second.stderr.join('')).toBe('');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(200);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
