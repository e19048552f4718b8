/**
 * Loops of the check that yield every {@link ITEMS_PER_PAUSE} items, for a check that gives way
 * to other requests meanwhile (`GET /__uas/check` on a large journal): a rule composes them with
 * `yield*`, and {@link drain} runs them at once where nothing needs to pause.
 */

/** Items a paced loop handles between two yields. */
export const ITEMS_PER_PAUSE = 5_000;

/** Steps that yield now and then and end on a value. */
export type Steps<T> = Generator<void, T>;

/** Runs steps to their end without pausing. */
export function drain<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Calls `visit` on every item, yielding every {@link ITEMS_PER_PAUSE}. */
export function* eachPaced<T>(items: Iterable<T>, visit: (item: T) => void): Steps<void> {
  let count = 0;
  for (const item of items) {
    visit(item);
    if (++count % ITEMS_PER_PAUSE === 0) yield;
  }
}

/** The items `keep` keeps, in order. */
export function* filterPaced<T>(items: Iterable<T>, keep: (item: T) => boolean): Steps<T[]> {
  const kept: T[] = [];
  yield* eachPaced(items, (item) => {
    if (keep(item)) kept.push(item);
  });
  return kept;
}

/** Groups items by a key, keeping the order of first appearance and the items' order. */
export function* groupByPaced<T, K>(items: Iterable<T>, key: (item: T) => K): Steps<Map<K, T[]>> {
  const groups = new Map<K, T[]>();
  yield* eachPaced(items, (item) => {
    const name = key(item);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [item]);
    else group.push(item);
  });
  return groups;
}

/** `map` over every item, in order. */
export function* mapPaced<T, U>(items: Iterable<T>, map: (item: T) => U): Steps<U[]> {
  const mapped: U[] = [];
  yield* eachPaced(items, (item) => mapped.push(map(item)));
  return mapped;
}

/** How many distinct keys each group's items have, yielding every {@link ITEMS_PER_PAUSE} items. */
export function* distinctPerGroupPaced<T, K>(
  groups: Iterable<readonly T[]>,
  key: (item: T) => K,
): Steps<number[]> {
  const counts: number[] = [];
  let sinceYield = 0;
  for (const group of groups) {
    const seen = new Set<K>();
    for (const item of group) {
      seen.add(key(item));
      if (++sinceYield % ITEMS_PER_PAUSE === 0) yield;
    }
    counts.push(seen.size);
  }
  return counts;
}
