/** A log that keeps the newest `capacity` entries (every entry when it is unbounded). */
export interface Journal<T> {
  push(entry: T): void;
  /** Entries, newest first, at most `limit`. */
  list(limit?: number): T[];
  /** Entries pushed out to make room since the journal was made. */
  readonly dropped: number;
}

/** Creates a ring-buffer journal of at most `capacity` entries; `Infinity` keeps them all. */
export function createJournal<T>(capacity: number): Journal<T> {
  const entries: T[] = [];
  let next = 0;
  let dropped = 0;
  return {
    push(entry) {
      if (entries.length < capacity) entries.push(entry);
      else {
        entries[next] = entry;
        dropped++;
      }
      next = (next + 1) % capacity;
    },
    list(limit = entries.length) {
      const out: T[] = [];
      const count = Math.min(limit, entries.length);
      const newest = (next - 1 + entries.length) % entries.length;
      for (let index = 0; index < count; index++)
        out.push(entries[(newest - index + entries.length) % entries.length] as T);
      return out;
    },
    get dropped() {
      return dropped;
    },
  };
}
