/**
 * Small seeded pseudo-random tools. Every draw of the simulator comes from here, keyed by
 * (seed, entity index, stream), so any one entity can be generated alone and identically on
 * every run.
 */

/** A 32-bit integer finaliser (lowbias32): spreads neighbouring inputs over the whole range. */
export function mix32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A seed for one entity's stream; `stream` separates independent draws about the same entity. */
export function streamSeed(seed: number, index: number, stream: number): number {
  return mix32(mix32(seed ^ mix32(index + 0x9e3779b9)) ^ Math.imul(stream + 1, 0x85ebca6b));
}

/** mulberry32: fast, 32 bits of state, good enough for test data. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = Math.imul(this.state ^ (this.state >>> 15), 1 | this.state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) {
      throw new RangeError('pick from an empty list');
    }
    return item;
  }

  /** A string of `length` decimal digits (leading zeros kept). */
  digits(length: number): string {
    let out = '';
    for (let left = length; left > 0; left -= 9) {
      const chunk = Math.min(left, 9);
      out += String(Math.floor(this.next() * 10 ** chunk)).padStart(chunk, '0');
    }
    return out;
  }
}
