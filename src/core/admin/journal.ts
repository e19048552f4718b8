/** A bounded log that keeps the newest `capacity` entries. */
export interface Journal<T> {
  push(entry: T): void;
  /** Entries, newest first, at most `limit`. */
  list(limit?: number): T[];
  clear(): void;
  resize(capacity: number): void;
  readonly size: number;
}

/** Creates a ring-buffer journal of at most `capacity` entries. */
export function createJournal<T>(capacity: number): Journal<T> {
  let entries: T[] = [];
  let next = 0;
  let cap = capacity;
  return {
    push(entry) {
      if (entries.length < cap) entries.push(entry);
      else entries[next] = entry;
      next = (next + 1) % cap;
    },
    list(limit = cap) {
      const out: T[] = [];
      const count = Math.min(limit, entries.length);
      for (let index = 0; index < count; index++) {
        const position = (next - 1 - index + entries.length * 2) % entries.length;
        out.push(entries[position] as T);
      }
      return out;
    },
    clear() {
      entries = [];
      next = 0;
    },
    resize(capacity) {
      const kept = this.list(capacity).reverse();
      cap = capacity;
      entries = kept;
      next = kept.length % cap;
    },
    get size() {
      return entries.length;
    },
  };
}
