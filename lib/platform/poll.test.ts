import { describe, expect, it } from "vitest";
import type { JobKind, NormalizedJob } from "./http-client";
import { JobTimeout, PlatformNotFound, RateLimited, Upstream } from "./errors";
import { fakeClock } from "./fake-clock.test-util";
import { pollJob, type PollableClient } from "./poll";
import type { CallOptions } from "./request";
import type { JobStatus } from "./schemas";

function job(status: JobStatus): NormalizedJob {
  const raw = { job_id: "j1", status, created_at: "2026-01-01T00:00:00Z" };
  return { jobId: "j1", kind: "extract", status, error: null, createdAt: raw.created_at, completedAt: null, raw };
}

/** A client whose getJob plays a script: a status, or an error to throw. */
function scripted(steps: (JobStatus | Error)[]) {
  const calls: CallOptions[] = [];
  const client: PollableClient = {
    getJob: async (_kind: JobKind, _id: string, call?: CallOptions) => {
      calls.push(call ?? {});
      const step = steps[Math.min(calls.length - 1, steps.length - 1)];
      if (step instanceof Error) throw step;
      return job(step);
    },
  };
  return { client, calls };
}

const rateLimited = (ms: number) =>
  new RateLimited({ status: 429, code: "RATE_LIMITED", message: "slow down", retryAfterMs: ms });

describe("pollJob", () => {
  it("polls at once, then sleeps uniformly in [0, delay] while the delay doubles to the cap", async () => {
    const clock = fakeClock();
    const { client, calls } = scripted([...Array<JobStatus>(8).fill("processing"), "completed"]);
    const result = await pollJob(client, "extract", "j1", {
      initialDelayMs: 1000,
      maxDelayMs: 8000,
      deadlineMs: 600_000,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
    });
    expect(result.status).toBe("completed");
    expect(calls).toHaveLength(9);
    // delays 1000, 2000, 4000, 8000 (cap), 8000…; half of each with random() = 0.5
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000, 4000, 4000, 4000, 4000]);
  });

  it("uses the full jitter range (random 0 → no sleep, random→1 → the whole delay)", async () => {
    const clock = fakeClock();
    const randoms = [0, 0.999, 0.25];
    const { client } = scripted(["queued", "processing", "processing", "failed"]);
    const result = await pollJob(client, "batch", "j1", {
      now: clock.now,
      sleep: clock.sleep,
      random: () => randoms.shift() ?? 0,
    });
    expect(result.status).toBe("failed");
    expect(clock.sleeps).toEqual([0, 1998, 1000]);
  });

  it("passes the absolute deadline and the signal down to the client", async () => {
    const clock = fakeClock(5000);
    const controller = new AbortController();
    const { client, calls } = scripted(["cancelled"]);
    await pollJob(client, "crawl", "j1", {
      deadlineMs: 10_000,
      now: clock.now,
      sleep: clock.sleep,
      signal: controller.signal,
    });
    expect(calls[0]).toEqual({ deadline: 15_000, signal: controller.signal });
  });

  it("times out under a 429 storm without ever sleeping past the deadline", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const { client, calls } = scripted([rateLimited(3000)]);
    const err = await pollJob(client, "extract", "j1", {
      deadlineMs: 10_000,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 1,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobTimeout);
    // three waits of 3 s fit before 10 s; the fourth would end at 12 s, so it throws at 9 s instead
    expect(clock.sleeps).toEqual([3000, 3000, 3000]);
    expect(calls).toHaveLength(4);
    expect(clock.now() - start).toBeLessThanOrEqual(10_000);
  });

  it("times out on a job that never settles, with the last status", async () => {
    const clock = fakeClock();
    const { client } = scripted(["processing"]);
    const err = await pollJob(client, "extract", "j1", {
      initialDelayMs: 1000,
      maxDelayMs: 4000,
      deadlineMs: 9000,
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.999,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobTimeout);
    expect((err as JobTimeout).lastStatus).toBe("processing");
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThan(9000);
    expect(clock.sleeps).toEqual([999, 1998, 3996]);
  });

  it("treats transient errors as not yet and rethrows permanent ones", async () => {
    const clock = fakeClock();
    const upstream = new Upstream({ status: 503, code: "SERVICE_UNAVAILABLE", message: "x", retryable: true });
    const ok = await pollJob(scripted([upstream, "completed"]).client, "extract", "j1", {
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
    });
    expect(ok.status).toBe("completed");
    const notFound = new PlatformNotFound({ status: 404, code: "NOT_FOUND", message: "gone", retryable: false });
    await expect(
      pollJob(scripted([notFound]).client, "extract", "j1", { now: clock.now, sleep: clock.sleep }),
    ).rejects.toBe(notFound);
  });

  it("stops when the signal aborts, mid-sleep or before the first poll", async () => {
    const controller = new AbortController();
    const { client } = scripted(["processing"]);
    const sleep = async (_ms: number, signal?: AbortSignal) => {
      controller.abort(new Error("operator cancelled"));
      signal?.throwIfAborted();
    };
    await expect(pollJob(client, "extract", "j1", { signal: controller.signal, sleep })).rejects.toThrow(
      "operator cancelled",
    );
    await expect(pollJob(client, "extract", "j1", { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});
