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

/**
 * `Promise.all(items.map(fn))` for many small async CPU passes (rendering an import's donor
 * emails: React renders step by step on setImmediate, and thousands of renders started at once
 * all ran in one turn of the event loop: 1,500 emails held it for 2.9 s). The items run `group`
 * at a time, the event loop given back between groups once `sliceMs` has passed.
 */
export async function yieldingMapAsync<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  options: { sliceMs?: number; group?: number } = {},
): Promise<R[]> {
  const sliceMs = options.sliceMs ?? 10;
  const group = Math.max(1, options.group ?? 8);
  const out: R[] = new Array(items.length);
  let sliceStart = performance.now();
  for (let from = 0; from < items.length; from += group) {
    const part = items.slice(from, from + group);
    const done = await Promise.all(part.map((item, k) => fn(item as T, from + k)));
    for (const [k, value] of done.entries()) out[from + k] = value;
    if (performance.now() - sliceStart >= sliceMs) {
      await nextLoopTurn();
      sliceStart = performance.now();
    }
  }
  return out;
}
