/** A source of uniformly distributed numbers in [0, 1). The core never calls Math.random itself. */
export interface RandomSource {
  next(): number;
}

/**
 * Creates a deterministic random source (mulberry32) from a 32-bit seed: the same seed always
 * gives the same sequence, which keeps simulations and tests reproducible.
 */
export function createSeededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return {
    next() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}
