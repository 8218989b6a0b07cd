// The verify replay's concurrency limit (constructs/verify/processes.ts): never more than `n` tasks at once, however
// tasks arrive (some while others wait for a slot), and every task run.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { inPool, limiter } from '../../constructs/verify/processes';

const tick = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('limiter', () => {
  it('property: at most n tasks run at once, late arrivals included, and every task runs once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.record({ arrive: fc.integer({ min: 0, max: 3 }), run: fc.integer({ min: 0, max: 3 }) }), { maxLength: 12 }),
        async (n, tasks) => {
          const run = limiter(n);
          let active = 0;
          let most = 0;
          const started: number[] = [];
          await Promise.all(
            tasks.map(async (t, i) => {
              await tick(t.arrive);
              await run(async () => {
                started.push(i);
                most = Math.max(most, ++active);
                await tick(t.run);
                active--;
              });
            }),
          );
          expect(most).toBeLessThanOrEqual(n);
          expect([...started].sort((a, b) => a - b)).toEqual(tasks.map((_, i) => i));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('inPool runs every item with at most the limit in flight, in the items order', async () => {
    let active = 0;
    let most = 0;
    const started: number[] = [];
    await inPool([5, 1, 4, 2, 3, 0, 2], 3, async (ms) => {
      started.push(ms);
      most = Math.max(most, ++active);
      await tick(ms);
      active--;
    });
    expect(most).toBe(3);
    expect(started.slice(0, 3)).toEqual([5, 1, 4]);
    expect(started.sort()).toEqual([0, 1, 2, 2, 3, 4, 5]);
  });
});
