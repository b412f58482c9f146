import type { Options } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import { RecoveringRedisStore } from '../../src/adapters/rate-limit/redis-rate-limit-store';

/** Just enough of Redis for rate-limit-redis: SCRIPT LOAD and EVALSHA, or refusal while "down". */
function fakeRedis() {
  const state = { down: true, hits: 0 };
  const sendCommand = async (...command: string[]): Promise<RedisReply> => {
    if (state.down) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
    if (command[0] === 'SCRIPT') return 'f00dfeed';
    if (command[0] === 'EVALSHA') return [++state.hits, 60_000];
    throw new Error(`unexpected command ${command.join(' ')}`);
  };
  return { state, sendCommand };
}

const OPTIONS = { windowMs: 60_000 } as Options;

describe('RecoveringRedisStore', () => {
  it('counts again once Redis is back, even if Redis was down when the store started', async () => {
    const redis = fakeRedis();
    const store = new RecoveringRedisStore({ sendCommand: redis.sendCommand, prefix: 'p:' });
    await expect(store.init(OPTIONS)).rejects.toThrow('ECONNREFUSED');
    await expect(store.increment('1.2.3.4')).rejects.toThrow('ECONNREFUSED');

    redis.state.down = false;
    await expect(store.increment('1.2.3.4')).resolves.toMatchObject({ totalHits: 1 });
    await expect(store.increment('1.2.3.4')).resolves.toMatchObject({ totalHits: 2 });
  });

  it('is needed: the library\'s own store stays broken after such a start', async () => {
    const redis = fakeRedis();
    const store = new RedisStore({ sendCommand: redis.sendCommand, prefix: 'p:' });
    await expect(store.init(OPTIONS)).rejects.toThrow('ECONNREFUSED');
    redis.state.down = false;
    await expect(store.increment('1.2.3.4')).rejects.toThrow('ECONNREFUSED');
  });
});
