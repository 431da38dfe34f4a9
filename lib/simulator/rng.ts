import "server-only";

/** mulberry32: tiny, fast and good enough for fault injection; the point is replayability. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the seed and a label: derives independent, stable sub-seeds. */
export function hashSeed(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A stable number in [0, 1) for (seed, text): per-URL decisions that do not depend on call order. */
export const hashUnit = (seed: number, text: string): number => mulberry32(hashSeed(seed, text))();

export type Rng = {
  next(): number;
  /** Integer in [min, max], inclusive. */
  int(min: number, max: number): number;
  /** Integer drawn uniformly from a `[min, max]` pair. */
  range(r: readonly [number, number]): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** UUID v4-shaped, from the stream (so ids replay with the seed). */
  uuid(): string;
};

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const hex = (n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += Math.floor(next() * 16).toString(16);
    return s;
  };
  return {
    next,
    int,
    range: ([min, max]) => int(min, max),
    // A rate of 0 never draws, so switching a fault off does not shift the rest of the stream.
    chance: (p) => p > 0 && (p >= 1 || next() < p),
    pick: (items) => items[Math.floor(next() * items.length)],
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`,
  };
}

/**
 * Separate streams per concern, so adding one API call (a retry, a health check) does not change
 * which jobs fail or which deliveries drop.
 */
export function createStreams(seed: number) {
  return {
    ids: createRng(hashSeed(seed, "ids")),
    jobs: createRng(hashSeed(seed, "jobs")),
    api: createRng(hashSeed(seed, "api")),
    // Attempt counts depend on the receiver; their ids must not shift the job ids above.
    deliveryIds: createRng(hashSeed(seed, "delivery-ids")),
  };
}
export type Streams = ReturnType<typeof createStreams>;
