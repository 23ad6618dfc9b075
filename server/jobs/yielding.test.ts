import { describe, expect, it } from 'vitest';
import { yieldingMap } from './yielding.ts';

describe('yieldingMap', () => {
  it('maps in order, and lets a timer run while a long pass is under way', async () => {
    let timerRan = -1;
    let done = 0;
    setTimeout(() => {
      timerRan = done;
    }, 0);
    const spin = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until) {}
    };
    const out = await yieldingMap(
      Array.from({ length: 40 }, (_, i) => i),
      (n, i) => {
        spin(2);
        done = i + 1;
        return n * 2;
      },
      5,
    );
    expect(out).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
    // The timer ran in the middle of the pass, not after its 80 ms.
    expect(timerRan).toBeGreaterThan(0);
    expect(timerRan).toBeLessThan(40);
  });
});
