/**
 * Starts `run` on every item, at most `concurrency` at a time, and returns each item's promise at
 * once: a test awaits its own (its timeout counts from then, not from the start of the pool).
 * Examples wait on servers and Retry-After more than they compute, so a few run side by side.
 */
export function startPool<T, R>(
  items: readonly T[],
  concurrency: number,
  run: (item: T) => Promise<R>,
): Map<T, Promise<R>> {
  const results = new Map<T, Promise<R>>();
  const settle: Array<(result: Promise<R>) => void> = [];
  for (const item of items) results.set(item, new Promise((resolve) => settle.push(resolve)));
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const result = run(items[index]!);
      settle[index]!(result);
      await result.catch(() => {});
    }
  };
  for (let slot = 0; slot < concurrency; slot++) void worker();
  return results;
}
