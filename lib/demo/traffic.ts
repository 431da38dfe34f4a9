import "server-only";
import { log } from "../log";
import { submitJob, type SubmitRequest } from "../jobs";
import { holdLease } from "../scheduling";

// A trickle of jobs of all three kinds, so a first look at the dashboard shows a living pipeline.

const TOPICS = ["pricing", "changelog", "docs", "blog", "careers", "status", "press", "team"];
/**
 * The trickle fetches the same pages again, as a real deployment does: page numbers repeat every
 * PAGES jobs, so with realistic page sizes (20–200 KB) the body store keeps each page once (and again
 * only when the simulator changes it), and a long-running demo's disk use levels off.
 */
const PAGES = 240;

export function demoRequest(n: number): SubmitRequest {
  const topic = TOPICS[n % TOPICS.length];
  const site = `https://demo-${(n % 5) + 1}.example.com`;
  const page = n % PAGES;
  switch (n % 3) {
    case 0:
      return { kind: "extract", url: `${site}/${topic}/${page}`, formats: ["markdown"] };
    case 1:
      return { kind: "batch", urls: [0, 1, 2].map((i) => `${site}/${topic}/${page}-${i}`), formats: ["markdown"] };
    default:
      return { kind: "crawl", url: `${site}/${topic}`, depth: 2, limit: 4, formats: ["markdown"] };
  }
}

/**
 * Submits `perMinute` jobs a minute, evenly spaced; returns a stop function. Several demo servers on
 * one database make one trickle, not several: each tick, only the process holding the "demo-traffic"
 * lease submits (it renews the lease as it goes; if it dies, another takes over within three ticks).
 */
export function startDemoTraffic(perMinute: number): () => void {
  const everyMs = Math.max(100, Math.round(60_000 / perMinute));
  let n = 0;
  let leading = false;
  const tick = () => {
    holdLease("demo-traffic", Math.max(5_000, 3 * everyMs))
      .then((held) => {
        if (held !== leading)
          log.info(
            held
              ? "demo traffic: this process submits the trickle"
              : "demo traffic: another process submits the trickle",
          );
        leading = held;
        if (held) submitOne();
      })
      .catch((err) => log.warn("demo traffic lease failed", { error: String(err) }));
  };
  const submitOne = () => {
    const req = demoRequest(n++);
    submitJob(req)
      .then((job) => log.debug("demo job submitted", { jobId: job.jobId, kind: job.kind }))
      // The demo platform answers an occasional 429 or 5xx on purpose; the next tick tries again.
      .catch((err) =>
        log.info("demo job not submitted", { kind: req.kind, error: err instanceof Error ? err.message : String(err) }),
      );
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return () => clearInterval(timer);
}
