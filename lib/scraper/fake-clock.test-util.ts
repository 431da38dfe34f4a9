// A virtual clock for schedule tests: sleep advances time instantly and records what was asked.
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
      t += ms;
      await Promise.resolve();
      signal?.throwIfAborted();
    },
  };
}
