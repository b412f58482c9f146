import { Closeables } from '../../src/bootstrap/closeables';
import { captureLog } from '../support/log-capture';

describe('Closeables', () => {
  it('closes in reverse order of opening, each once, and goes on past a failure', async () => {
    const { logger, lines } = captureLog();
    const closeables = new Closeables(logger);
    const order: string[] = [];
    closeables.add('database', async () => { order.push('database'); });
    closeables.add('redis', () => { order.push('redis'); throw new Error('QUIT refused'); });
    closeables.add('listener', async () => { order.push('listener'); });

    expect(await closeables.closeAll()).toBe(false);
    expect(order).toEqual(['listener', 'redis', 'database']);
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      ['info', 'closed listener'],
      ['error', 'could not close redis'],
      ['info', 'closed database'],
    ]);
    expect(await closeables.closeAll()).toBe(true);
    expect(order).toHaveLength(3);
  });
});
