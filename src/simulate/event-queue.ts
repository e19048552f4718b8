/**
 * A min-heap of timed events; events at the same time come out in the order they went in, which
 * keeps simulations deterministic.
 */
export class EventQueue<T> {
  private readonly times: number[] = [];
  private readonly order: number[] = [];
  private readonly items: T[] = [];
  private sequence = 0;

  get size(): number {
    return this.items.length;
  }

  /** The time of the earliest event, or Infinity when empty. */
  peekTime(): number {
    return this.items.length === 0 ? Infinity : (this.times[0] as number);
  }

  push(time: number, item: T): void {
    this.times.push(time);
    this.order.push(this.sequence++);
    this.items.push(item);
    this.up(this.items.length - 1);
  }

  /** Removes and returns the earliest event. */
  pop(): { time: number; item: T } | undefined {
    if (this.items.length === 0) return undefined;
    const time = this.times[0] as number;
    const item = this.items[0] as T;
    const last = this.items.length - 1;
    this.move(last, 0);
    this.times.pop();
    this.order.pop();
    this.items.pop();
    if (this.items.length > 0) this.down(0);
    return { time, item };
  }

  private before(a: number, b: number): boolean {
    const ta = this.times[a] as number;
    const tb = this.times[b] as number;
    return ta < tb || (ta === tb && (this.order[a] as number) < (this.order[b] as number));
  }

  private move(from: number, to: number): void {
    this.times[to] = this.times[from] as number;
    this.order[to] = this.order[from] as number;
    this.items[to] = this.items[from] as T;
  }

  private swap(a: number, b: number): void {
    const time = this.times[a] as number;
    const order = this.order[a] as number;
    const item = this.items[a] as T;
    this.move(b, a);
    this.times[b] = time;
    this.order[b] = order;
    this.items[b] = item;
  }

  private up(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!this.before(child, parent)) return;
      this.swap(child, parent);
      child = parent;
    }
  }

  private down(index: number): void {
    let parent = index;
    for (;;) {
      const left = parent * 2 + 1;
      const right = left + 1;
      let smallest = parent;
      if (left < this.items.length && this.before(left, smallest)) smallest = left;
      if (right < this.items.length && this.before(right, smallest)) smallest = right;
      if (smallest === parent) return;
      this.swap(parent, smallest);
      parent = smallest;
    }
  }
}
