import type { ContainerType } from '@aiedu/contracts';
import { describe, expect, it, vi } from 'vitest';
import { WarmPool } from './warm-pool.js';

interface FakeServer {
  id: number;
  runtimeType: ContainerType;
  exited: Promise<void>;
  alive: boolean;
  end(): void;
}

function setup(sizes: Record<ContainerType, number>, options: { failFirst?: number } = {}) {
  let next = 0;
  let failures = options.failFirst ?? 0;
  const launched: FakeServer[] = [];
  const killed: number[] = [];
  const launch = vi.fn(async (runtimeType: ContainerType) => {
    if (failures > 0) {
      failures--;
      throw new Error('no python');
    }
    let end!: () => void;
    const server: FakeServer = {
      id: ++next,
      runtimeType,
      alive: true,
      exited: new Promise<void>((resolve) => (end = resolve)),
      end: () => {
        server.alive = false;
        end();
      },
    };
    launched.push(server);
    return server;
  });
  const pool = new WarmPool<FakeServer>({
    sizes,
    launch,
    alive: (s) => s.alive,
    kill: async (s) => {
      killed.push(s.id);
      s.end();
    },
    log: { warn: () => undefined },
    retryMs: 10,
  });
  return { pool, launch, launched, killed };
}

describe('WarmPool', () => {
  it('starts what each runtime type is configured for, one launch at a time', async () => {
    const { pool, launch } = setup({ BASIC: 2, ADVANCED: 1, GPU: 0 });
    await pool.fill();
    expect(pool.counts()).toEqual({ BASIC: 2, ADVANCED: 1, GPU: 0 });
    expect(launch.mock.calls.map(([type]) => type)).toEqual(['BASIC', 'BASIC', 'ADVANCED']);
    await pool.close();
  });

  it('hands out a waiting item and starts its replacement', async () => {
    const { pool } = setup({ BASIC: 1, ADVANCED: 0, GPU: 0 });
    await pool.fill();
    const taken = pool.take('BASIC');
    expect(taken?.id).toBe(1);
    expect(pool.take('BASIC')).toBeNull();
    await vi.waitFor(() => expect(pool.counts().BASIC).toBe(1));
    expect(pool.take('GPU')).toBeNull();
    await pool.close();
  });

  it('replaces an item that ended while waiting, and never hands out a dead one', async () => {
    const { pool, launched } = setup({ BASIC: 1, ADVANCED: 0, GPU: 0 });
    await pool.fill();
    launched[0]!.end();
    await vi.waitFor(() => expect(launched).toHaveLength(2));
    await vi.waitFor(() => expect(pool.counts().BASIC).toBe(1));
    launched[1]!.alive = false; // dead, its exit not yet seen
    expect(pool.take('BASIC')).toBeNull();
    await pool.close();
  });

  it('tries again after failed launches, with a growing pause', async () => {
    const { pool, launch } = setup({ BASIC: 1, ADVANCED: 0, GPU: 0 }, { failFirst: 2 });
    await pool.fill();
    expect(pool.counts().BASIC).toBe(0);
    await vi.waitFor(() => expect(pool.counts().BASIC).toBe(1));
    expect(launch).toHaveBeenCalledTimes(3);
    await pool.close();
  });

  it('stops every waiting item on close and starts no more', async () => {
    const { pool, killed, launch } = setup({ BASIC: 1, ADVANCED: 1, GPU: 0 });
    await pool.fill();
    await pool.close();
    expect(killed.sort()).toEqual([1, 2]);
    await pool.fill();
    expect(pool.take('BASIC')).toBeNull();
    expect(launch).toHaveBeenCalledTimes(2);
  });

  it('does nothing with every size at 0', async () => {
    const { pool, launch } = setup({ BASIC: 0, ADVANCED: 0, GPU: 0 });
    await pool.fill();
    expect(pool.take('BASIC')).toBeNull();
    expect(launch).not.toHaveBeenCalled();
  });
});
