import { setImmediate as nextLoopTurn } from 'node:timers/promises';

/**
 * `items.map(fn)` for long CPU-bound passes (an import's employer identification: fuzzy name
 * matching and email spell-checking of 4,000 rows took about 2 s), giving the event loop back
 * every `sliceMs` so the process's other requests are answered meanwhile instead of waiting for
 * the whole pass (issue #26's fairness: one organization's import held the loop for up to 1.5 s).
 */
export async function yieldingMap<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => R,
  sliceMs = 10,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i] as T, i);
    if (performance.now() - sliceStart >= sliceMs) {
      await nextLoopTurn();
      sliceStart = performance.now();
    }
  }
  return out;
}
