// tsx --conditions=react-server bench/polling.ts [--trials 10000] [--result FILE]
// Status calls per job in polling mode, against a fixed one-second poll, for jobs that take 5 s to
// 30 min. Simulated on an injected clock with the real code: the poller's schedule (first poll at
// submit + TALLY_POLL_INITIAL_MS as lib/jobs/submit.ts sets it, then spreadJitter(pollCount,
// initial, cap) after each "not yet", as lib/safety-nets/poller.ts does for a job polled on its own) and lib/platform's pollJob
// itself, with the configured defaults. Many jittered trials per duration; mean and p95.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseConfig } from "@/lib/config";
import { extractJobSchema, pollJob, spreadJitter, type NormalizedJob, type PollableClient } from "@/lib/platform";
import { machine } from "./common";
import { mulberry32 } from "../lib/simulator/rng";

const { values } = parseArgs({
  options: { trials: { type: "string", default: "10000" }, result: { type: "string" } },
  strict: true,
});
const TRIALS = Number(values.trials);
const say = (s: string) => process.stdout.write(`${s}\n`);
const DURATIONS = [5_000, 30_000, 120_000, 600_000, 1_800_000];

const config = parseConfig({ TALLY_DELIVERY_MODE: "polling" });
const INITIAL = config.TALLY_POLL_INITIAL_MS;
const CAP = config.TALLY_POLL_MAX_MS;
const DEADLINE = config.TALLY_POLL_DEADLINE_MINUTES * 60_000;

type Trial = { calls: number; noticeMs: number };

/** One job on the poller's schedule: calls until a call at or after `durationMs` sees it settled. */
function pollerTrial(durationMs: number, random: () => number): Trial {
  let t = INITIAL;
  for (let pollCount = 0; ; pollCount++) {
    if (t >= DEADLINE) return { calls: pollCount, noticeMs: NaN };
    if (t >= durationMs) return { calls: pollCount + 1, noticeMs: t - durationMs };
    t += spreadJitter(pollCount, INITIAL, CAP, random);
  }
}

function fixedTrial(durationMs: number): Trial {
  const calls = Math.max(1, Math.ceil(durationMs / 1000));
  return { calls, noticeMs: calls * 1000 - durationMs };
}

const RAW = extractJobSchema.parse({ job_id: "bench", status: "processing", created_at: new Date(0).toISOString() });

/** The real pollJob against a fake platform whose job settles at `durationMs` on the fake clock. */
async function pollJobTrial(durationMs: number, random: () => number): Promise<Trial> {
  let now = 0;
  let calls = 0;
  const client: PollableClient = {
    getJob: async (kind, jobId): Promise<NormalizedJob> => {
      calls++;
      const status = now >= durationMs ? "completed" : "processing";
      return {
        jobId,
        kind,
        status,
        error: null,
        createdAt: RAW.created_at,
        completedAt: null,
        raw: { ...RAW, status },
      };
    },
  };
  await pollJob(client, "extract", "bench", {
    initialDelayMs: INITIAL,
    maxDelayMs: CAP,
    deadlineMs: DEADLINE,
    now: () => now,
    random,
    sleep: async (ms) => void (now += ms),
  });
  return { calls, noticeMs: now - durationMs };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, p95: s[Math.ceil(0.95 * s.length) - 1] ?? NaN };
};
const label = (ms: number) => (ms < 60_000 ? `${ms / 1000} s` : `${ms / 60_000} min`);

async function main(): Promise<void> {
  say(
    `${machine()}\nStatus calls per job until it is seen settled: poller schedule (first poll ${INITIAL / 1000} s, ±20% jitter doubling, cap ${CAP / 1000} s) vs a fixed 1 s poll; ${TRIALS.toLocaleString("en-US")} trials each\n`,
  );
  const rows = [];
  for (const d of DURATIONS) {
    const random = mulberry32(d);
    const poller = Array.from({ length: TRIALS }, () => pollerTrial(d, random));
    const helper: Trial[] = [];
    for (let i = 0; i < TRIALS; i++) helper.push(await pollJobTrial(d, random));
    const fixed = fixedTrial(d);
    const calls = stats(poller.map((t) => t.calls));
    const notice = stats(poller.map((t) => t.noticeMs));
    rows.push({
      duration: label(d),
      durationMs: d,
      fixedCalls: fixed.calls,
      fixedNoticeMs: fixed.noticeMs,
      pollerCallsMean: +calls.mean.toFixed(1),
      pollerCallsP95: calls.p95,
      pollerNoticeMeanS: +(notice.mean / 1000).toFixed(1),
      pollerNoticeP95S: +(notice.p95 / 1000).toFixed(1),
      pollJobCallsMean: +stats(helper.map((t) => t.calls)).mean.toFixed(1),
      callsSaved: `${(100 * (1 - calls.mean / fixed.calls)).toFixed(0)}%`,
    });
  }
  const lines = [
    "| job takes | fixed 1 s poll: calls | Tally poller: calls, mean (p95) | calls saved | poller: noticed after settling, mean (p95) | pollJob helper: calls, mean |",
    "|---|---|---|---|---|---|",
  ];
  for (const r of rows)
    lines.push(
      `| ${r.duration} | ${r.fixedCalls} | ${r.pollerCallsMean} (${r.pollerCallsP95}) | ${r.callsSaved} | ${r.pollerNoticeMeanS} s (${r.pollerNoticeP95S} s) | ${r.pollJobCallsMean} |`,
    );
  say(lines.join("\n"));
  if (values.result)
    writeFileSync(
      values.result,
      `${JSON.stringify({ part: "polling", trials: TRIALS, initialMs: INITIAL, capMs: CAP, rows })}\n`,
    );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
