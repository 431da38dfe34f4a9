import { describe, expect, it } from "vitest";
import { RateLimited } from "./errors";
import { fakeClock } from "./fake-clock.test-util";
import { fullJitter, parseRetryAfter, RateLimiter } from "./rate-limit";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-29T10:00:00Z");
  it("reads delay-seconds and HTTP-dates", () => {
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter(" 0.5 ", now)).toBe(500);
    expect(parseRetryAfter("Sun, 29 Nov 2026 10:00:03 GMT", now)).toBe(3000);
    expect(parseRetryAfter("Sun, 29 Nov 2026 09:59:00 GMT", now)).toBe(0);
  });
  it("returns null when absent or unreadable", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("", now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-3", now)).toBeNull();
  });
});

describe("RateLimiter", () => {
  it("allows a burst, then spaces calls at requestsPerSecond", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 4, burst: 2, now: clock.now, sleep: clock.sleep });
    const start = clock.now();
    for (let i = 0; i < 6; i++) await limiter.acquire();
    // 2 free, then 4 more at 250 ms each
    expect(clock.now() - start).toBe(1000);
  });

  it("holds every caller during a pause, and a short pause never shortens a long one", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 100, burst: 100, now: clock.now, sleep: clock.sleep });
    limiter.pause(2000);
    limiter.pause(500);
    expect(limiter.pausedForMs()).toBe(2000);
    await Promise.all([limiter.acquire(), limiter.acquire()]);
    expect(clock.sleeps.filter((ms) => ms === 2000)).toHaveLength(2);
  });

  it("refuses to wait past the caller's deadline", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requestsPerSecond: 10, burst: 10, now: clock.now, sleep: clock.sleep });
    limiter.pause(5000);
    const err = await limiter.acquire({ deadline: clock.now() + 1000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimited);
    expect((err as RateLimited).retryAfterMs).toBe(5000);
    expect(clock.sleeps).toEqual([]);
  });

  it("full jitter stays within [0, min(cap, base·2^n)]", () => {
    expect(fullJitter(0, 100, 1000, () => 0.999)).toBe(99);
    expect(fullJitter(3, 100, 1000, () => 0.5)).toBe(400);
    expect(fullJitter(10, 100, 1000, () => 0.5)).toBe(500);
    expect(fullJitter(5, 100, 1000, () => 0)).toBe(0);
  });
});
