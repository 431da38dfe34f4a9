// A virtual clock for schedule tests: sleep records what was asked and jumps time to the wake-up
// moment (computed at the call, so concurrent sleepers that started together wake together).
export function fakeClock(start = 1_000_000) {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    sleeps,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      const wakeAt = t + ms;
      await Promise.resolve();
      t = Math.max(t, wakeAt);
      signal?.throwIfAborted();
    },
  };
}
