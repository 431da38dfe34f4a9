import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSim } from "@/lib/simulator/test-harness.test-util";
import { fakeClock } from "./fake-clock.test-util";
import { JobTimeout, Network, PlatformNotFound, RateLimited, Timeout, Upstream } from "./errors";
import { pollJob } from "./poll";
import type { CallInfo } from "./request";

let h: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  h = await startSim();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sim.reset();
  h.sim.setConfig({
    rateLimitRate: 0,
    serverErrorRate: 0,
    serverErrorAfterWriteRate: 0,
    slowResponseRate: 0,
    jobDurationMs: [20, 60],
  });
});

type Sent = { at: number; path: string; status: number | null; retryAfter: string | null; answeredAt: number };

/** A fetch that records when each request left, the status it got and any Retry-After. */
function recordingFetch() {
  const log: Sent[] = [];
  const f: typeof fetch = async (input, init) => {
    const entry: Sent = {
      at: Date.now(),
      path: new URL(String(input)).pathname,
      status: null,
      retryAfter: null,
      answeredAt: 0,
    };
    log.push(entry);
    const res = await fetch(input, init);
    entry.answeredAt = Date.now();
    entry.status = res.status;
    entry.retryAfter = res.headers.get("retry-after");
    return res;
  };
  return { fetch: f, log };
}

describe("429: one pause for the whole client", () => {
  for (const form of ["seconds", "http-date"] as const) {
    it(`honours Retry-After as ${form}, and a concurrent caller waits too`, async () => {
      const rec = recordingFetch();
      let second: Promise<unknown> | null = null;
      let pausedAt = 0;
      const client = h.client({
        fetch: rec.fetch,
        onCall: (info: CallInfo) => {
          // Start a second, unrelated call right after the 429 arrives: it must not go out early.
          if (info.status === 429 && second === null) {
            pausedAt = Date.now();
            second = client.health();
          }
        },
      });
      h.sim.injectFaults({ kind: "rate_limit", count: 1, retryAfter: form });
      const result = await client.submitExtract({ url: "https://example.com/r" });
      expect(result.status).toBe("queued");
      expect(await second).toEqual({ status: "ok" });
      expect(rec.log[0].status).toBe(429);
      expect(
        rec.log
          .slice(1)
          .map((e) => e.status)
          .sort(),
      ).toEqual([200, 202]);
      // Seconds count from the answer's arrival (the client pauses when it reads the answer, before
      // onCall); an HTTP-date names the instant itself, so an answer that reached a loaded machine late
      // leaves less than the configured second to wait.
      const header = rec.log[0].retryAfter ?? "";
      const earliest = form === "seconds" ? rec.log[0].answeredAt + Number(header) * 1000 : Date.parse(header);
      expect(pausedAt).toBeGreaterThanOrEqual(rec.log[0].answeredAt);
      expect(Number.isFinite(earliest)).toBe(true);
      // A timer may fire a millisecond early by Date.now().
      for (const e of rec.log.slice(1)) expect(e.at).toBeGreaterThanOrEqual(earliest - 5);
    });
  }

  it("backs off exponentially when no Retry-After is sent", async () => {
    const clock = fakeClock();
    const client = h.client({ now: clock.now, sleep: clock.sleep });
    h.sim.injectFaults({ kind: "rate_limit", count: 2, retryAfter: "none" });
    expect(await client.listWebhooks()).toEqual([]);
    expect(clock.sleeps).toEqual([1000, 2000]);
  });

  it("gives up with RateLimited after maxRateLimitRetries, or at once when the wait passes the deadline", async () => {
    h.sim.setConfig({ rateLimitRate: 1, retryAfterSeconds: 30 });
    const noRetry = h.client({ maxRateLimitRetries: 0 });
    const err = await noRetry.getWebhook("00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimited);
    expect((err as RateLimited).retryAfterMs).toBeGreaterThan(28_000);
    expect(noRetry.rateLimitPauseMs()).toBeGreaterThan(28_000);
    const withDeadline = h.client();
    const started = Date.now();
    await expect(withDeadline.listWebhooks({ deadline: Date.now() + 2000 })).rejects.toBeInstanceOf(RateLimited);
    // the paused client refuses at once rather than sleeping 30 s
    await expect(withDeadline.listWebhooks({ deadline: Date.now() + 2000 })).rejects.toBeInstanceOf(RateLimited);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe("5xx, timeouts and network errors", () => {
  it("GETs retry on 5xx and then succeed", async () => {
    const calls: (number | null)[] = [];
    h.sim.injectFaults({ kind: "server_error", count: 2, status: 503 });
    expect(await h.client({ onCall: (i) => calls.push(i.status) }).listWebhooks()).toEqual([]);
    expect(calls).toEqual([503, 503, 200]);
  });

  it("GETs stop after maxGetRetries with Upstream", async () => {
    h.sim.setConfig({ serverErrorRate: 1 });
    const calls: (number | null)[] = [];
    const err = await h
      .client({ maxGetRetries: 2, onCall: (i) => calls.push(i.status) })
      .listWebhooks()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Upstream);
    expect(err).toMatchObject({ retryable: true });
    expect(calls).toHaveLength(3);
  });

  it("POSTs never retry on 5xx, even when the platform did the work", async () => {
    h.sim.setConfig({ serverErrorAfterWriteRate: 1 });
    const calls: (number | null)[] = [];
    const err = await h
      .client({ onCall: (i) => calls.push(i.status) })
      .submitExtract({ url: "https://example.com/ghost" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Upstream);
    expect(calls).toEqual([502]);
    expect(h.sim.state().jobs.total).toBe(1); // the job exists: only reconciliation can find it
    h.sim.setConfig({ serverErrorAfterWriteRate: 0, serverErrorRate: 1 });
    const calls2: (number | null)[] = [];
    await expect(
      h.client({ onCall: (i) => calls2.push(i.status) }).submitBatch({ urls: ["https://x.example"] }),
    ).rejects.toBeInstanceOf(Upstream);
    expect(calls2).toHaveLength(1);
  });

  it("times out a slow answer; a GET retries, a POST does not", async () => {
    h.sim.setConfig({ slowResponseMs: 400 });
    h.sim.injectFaults({ kind: "slow", count: 1 });
    const calls: (number | null)[] = [];
    const client = h.client({ timeoutMs: 100, onCall: (i) => calls.push(i.status) });
    expect(await client.listWebhooks()).toEqual([]);
    expect(calls).toEqual([null, 200]);
    h.sim.injectFaults({ kind: "slow", count: 1 });
    await expect(client.submitExtract({ url: "https://example.com/slow" })).rejects.toBeInstanceOf(Timeout);
  });

  it("reports a dead host as Network", async () => {
    const client = h.client({ baseUrl: "http://127.0.0.1:9", maxGetRetries: 1 });
    const err = await client.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Network);
    expect(err).toMatchObject({ status: null, retryable: true });
  });

  it("rethrows the caller's abort instead of wrapping it", async () => {
    h.sim.setConfig({ slowResponseMs: 1000 });
    h.sim.injectFaults({ kind: "slow", count: 1 });
    const err = await h
      .client()
      .listWebhooks({ signal: AbortSignal.timeout(50) })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "TimeoutError" });
  });
});

describe("pollJob over HTTP", () => {
  it("times out under a 429 storm instead of waiting forever", async () => {
    const c = h.client();
    const { job_id } = await c.submitExtract({ url: "https://example.com/storm" });
    h.sim.setConfig({ rateLimitRate: 1, retryAfterSeconds: 1, jobDurationMs: [10_000, 10_000] });
    const started = Date.now();
    const err = await pollJob(c, "extract", job_id, { deadlineMs: 1500, initialDelayMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobTimeout);
    expect(Date.now() - started).toBeLessThan(1500 + 500);
  });

  it("stops on abort", async () => {
    h.sim.setConfig({ jobDurationMs: [10_000, 10_000] });
    const c = h.client();
    const { job_id } = await c.submitExtract({ url: "https://example.com/long" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("shutdown")), 100);
    await expect(pollJob(c, "extract", job_id, { signal: controller.signal, initialDelayMs: 20 })).rejects.toThrow(
      "shutdown",
    );
  });
});

describe("an outage of the platform: the client stops sending, then probes", () => {
  it("after 5 calls in a row answered 5xx, fails at once (platformDownMs) without a request, lets one probe through after the backoff, and closes on its success", async () => {
    const rec = recordingFetch();
    const client = h.client({ fetch: rec.fetch, maxGetRetries: 0 });
    h.sim.setConfig({ serverErrorRate: 1 });
    const failures: Array<number | undefined> = [];
    for (let i = 0; i < 5; i++) {
      const err = await client.getExtractJob("outage-probe").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Upstream);
      failures.push((err as Upstream).platformDownMs);
    }
    // The fifth failure in a row opens it: 1 s to wait.
    expect(failures).toEqual([undefined, undefined, undefined, undefined, 1000]);
    const sent = rec.log.length;
    const held = await client.getExtractJob("outage-probe").catch((e: unknown) => e);
    expect(held).toBeInstanceOf(Upstream);
    expect((held as Upstream).code).toBe("PLATFORM_DOWN");
    expect((held as Upstream).platformDownMs).toBeGreaterThan(0);
    expect(rec.log.length).toBe(sent); // nothing went out
    h.sim.setConfig({ serverErrorRate: 0 });
    await new Promise((r) => setTimeout(r, 1100));
    // The probe goes out and gets an answer (a 404 is the platform up again); every call after it goes out.
    expect(await client.getExtractJob("outage-probe").catch((e: unknown) => e)).toBeInstanceOf(PlatformNotFound);
    expect(await client.getExtractJob("outage-probe").catch((e: unknown) => e)).toBeInstanceOf(PlatformNotFound);
    expect(rec.log.length).toBe(sent + 2);
  });
});
