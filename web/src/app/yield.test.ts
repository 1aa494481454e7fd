import { afterEach, describe, expect, it, vi } from 'vitest';
import { yieldToBrowser } from './yield';

describe('yieldToBrowser', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('goes on in a new task: every pending microtask has run first', async () => {
    const order: string[] = [];
    void Promise.resolve()
      .then(() => order.push('one'))
      .then(() => order.push('two'))
      .then(() => order.push('three'));
    await yieldToBrowser();
    order.push('after the yield');
    expect(order).toEqual(['one', 'two', 'three', 'after the yield']);
  });

  it("uses the browser's scheduler.yield where there is one", async () => {
    const yieldFn = vi.fn(() => Promise.resolve());
    vi.stubGlobal('scheduler', { yield: yieldFn });
    await yieldToBrowser();
    expect(yieldFn).toHaveBeenCalledTimes(1);
  });
});
