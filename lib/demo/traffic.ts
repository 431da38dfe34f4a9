import "server-only";
import { log } from "../log";
import { submitJob } from "../jobs/submit";
import type { SubmitRequest } from "../jobs/requests";

// A trickle of jobs of all three kinds, so a first look at the dashboard shows a living pipeline.

const TOPICS = ["pricing", "changelog", "docs", "blog", "careers", "status", "press", "team"];

export function demoRequest(n: number): SubmitRequest {
  const topic = TOPICS[n % TOPICS.length];
  const site = `https://demo-${(n % 5) + 1}.example.com`;
  switch (n % 3) {
    case 0:
      return { kind: "extract", url: `${site}/${topic}/${n}`, formats: ["markdown"] };
    case 1:
      return { kind: "batch", urls: [0, 1, 2].map((i) => `${site}/${topic}/${n}-${i}`), formats: ["markdown"] };
    default:
      return { kind: "crawl", url: `${site}/${topic}`, depth: 2, limit: 4, formats: ["markdown"] };
  }
}

/** Submits `perMinute` jobs a minute, evenly spaced; returns a stop function. */
export function startDemoTraffic(perMinute: number): () => void {
  let n = 0;
  const tick = () => {
    const req = demoRequest(n++);
    submitJob(req)
      .then((job) => log.debug("demo job submitted", { jobId: job.jobId, kind: job.kind }))
      // The demo platform answers an occasional 429 or 5xx on purpose; the next tick tries again.
      .catch((err) => log.info("demo job not submitted", { kind: req.kind, error: err instanceof Error ? err.message : String(err) }));
  };
  const timer = setInterval(tick, Math.max(100, Math.round(60_000 / perMinute)));
  timer.unref();
  tick();
  return () => clearInterval(timer);
}
