// The judging pool on real worker threads (issue 47): a page that takes its thread past the budget is
// stopped and answered as `budget_exceeded` while this thread goes on serving timers; the pool replaces
// the stopped thread and judges the next page; a task that needs more heap than allowed is
// `memory_exceeded`; answers come back as plain data.
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig, setConfigForTests } from "../config";
import { withDefaults, type Checks } from "../content-checks";
import { metrics } from "@/lib/metrics/registry";
import { closeJudgePool, judgeChecks, judgeDiff, judgeFingerprint, judgePool } from ".";
import { JudgePool } from "./pool";

function configure(env: Record<string, string>) {
  setConfigForTests(parseConfig({ ...process.env, ...env }));
}

afterEach(async () => {
  await closeJudgePool();
  setConfigForTests(undefined);
});

/** `h2~p` on `n` paragraph siblings and no heading: css-select tries every pair (34 s at 40,000, issue 47). */
function siblings(n: number, heading = false): string {
  return `<html><body>${heading ? "<h2>t</h2>" : ""}${"<p>x</p>".repeat(n)}</body></html>`;
}
const SIBLING_SELECTOR: Checks = withDefaults({ mustNotContain: [{ selector: "h2~p" }] });

/** Counts this thread's timer ticks while `work` runs: a blocked event loop ticks once or not at all. */
async function ticksDuring<T>(work: Promise<T>): Promise<{ value: T; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  try {
    return { value: await work, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe("the judging pool", () => {
  it("judges a good page off this thread and answers its verdict", async () => {
    configure({ TALLY_JUDGE_THREADS: "1" });
    const j = await judgeChecks(withDefaults(undefined), {
      html: "<html><body><article><h1>Hello</h1><p>A real page with some words.</p></article></body></html>",
      markdown: "# Hello\n\nA real page with some words.",
      status: 200,
    });
    expect(j).toMatchObject({ ok: true, value: { ok: true } });
    expect(judgePool().stats()).toMatchObject({ threads: 1, busy: 0, queued: 0, overruns: 0 });
  });

  it("stops a selector that runs past the budget, answers budget_exceeded, and keeps this thread free", async () => {
    configure({ TALLY_JUDGE_THREADS: "1", TALLY_JUDGE_BUDGET_MS: "1000" });
    const page = { html: siblings(40_000), markdown: "x", status: 200 };
    const { value: j, ticks } = await ticksDuring(judgeChecks(SIBLING_SELECTOR, page));
    expect(j.ok).toBe(false);
    if (j.ok) return;
    expect(j.failure).toBe("budget_exceeded");
    expect(j.message).toMatch(/^stopped after [\d,]+ ms \(budget 1,000 ms\)$/);
    expect(j.ms).toBeGreaterThanOrEqual(1000);
    // About 50 ticks of 20 ms in the budget's second: this thread was never blocked for long.
    expect(ticks).toBeGreaterThan(20);
    expect(judgePool().stats().overruns).toBe(1);
    const overruns = await metrics().judgeOverruns.get();
    expect(overruns.values.find((v) => v.labels.reason === "budget_exceeded")?.value).toBeGreaterThanOrEqual(1);
    // The stopped thread was replaced: the next page is judged.
    const next = await judgeChecks(SIBLING_SELECTOR, { html: siblings(3, true), markdown: "x", status: 200 });
    expect(next).toMatchObject({ ok: true, value: { ok: false, check: "mustNotContain[0]" } });
  });

  it("queues past its threads and runs the budget from each task's start, not from its queueing", async () => {
    configure({ TALLY_JUDGE_THREADS: "2", TALLY_JUDGE_BUDGET_MS: "800" });
    const hostile = { html: siblings(40_000), markdown: "x", status: 200 };
    const good = { html: "<p>fine words here</p>", markdown: "fine words here", status: 200 };
    const answers = await Promise.all([
      judgeChecks(SIBLING_SELECTOR, hostile),
      judgeChecks(SIBLING_SELECTOR, hostile),
      judgeChecks(SIBLING_SELECTOR, good),
      judgeChecks(SIBLING_SELECTOR, good),
    ]);
    expect(answers.map((a) => (a.ok ? "ok" : a.failure))).toEqual(["budget_exceeded", "budget_exceeded", "ok", "ok"]);
  });

  it("answers memory_exceeded for a task that needs more heap than its thread has", async () => {
    // A pool of its own with a 32 MB heap (the configuration's floor is 128 MB, which a page within
    // the parse caps needs about all of): 100,000 elements, the most parsed, need several times 32 MB.
    const pool = new JudgePool(1, 60_000, 32);
    try {
      const j = await pool.run({
        kind: "checks",
        checks: withDefaults(undefined),
        html: "<b>x</b>".repeat(100_000),
        markdown: "x",
        status: 200,
      });
      expect(j.ok ? "ok" : j.failure).toBe("memory_exceeded");
      expect(pool.stats().overruns).toBe(1);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it("fingerprints and diffs as the main thread would", async () => {
    configure({ TALLY_JUDGE_THREADS: "1" });
    const a = await judgeFingerprint("Price 10 at 12:00", null, ["\\d\\d:\\d\\d"]);
    const b = await judgeFingerprint("Price  10 at 13:45", null, ["\\d\\d:\\d\\d"]);
    expect(a.ok && b.ok && a.value === b.value).toBe(true);
    const d = await judgeDiff("a\nb\nc", "a\nB\nc");
    expect(
      d.ok && d.value.blocks.flatMap((b) => (b.kind === "change" ? b.lines : [])).map((l) => `${l.kind}:${l.text}`),
    ).toEqual(["same:a", "removed:b", "added:B", "same:c"]);
  });

  it("follows a configuration loaded after it was made: the next page is judged by the new budget", async () => {
    configure({ TALLY_JUDGE_THREADS: "1", TALLY_JUDGE_BUDGET_MS: "5000" });
    const good = { html: "<html><body><p>fine</p></body></html>", markdown: "fine", status: 200 };
    expect(await judgeChecks(withDefaults(undefined), good)).toMatchObject({ ok: true });
    const first = judgePool();
    // A new configuration (as a test's or a reload's) without closing the pool first.
    configure({ TALLY_JUDGE_THREADS: "1", TALLY_JUDGE_BUDGET_MS: "700" });
    const j = await judgeChecks(SIBLING_SELECTOR, { html: siblings(40_000), markdown: "x", status: 200 });
    expect(j).toMatchObject({ ok: false, failure: "budget_exceeded" });
    if (!j.ok) expect(j.message).toMatch(/\(budget 700 ms\)$/);
    expect(judgePool()).not.toBe(first);
    expect(judgePool().budgetMs).toBe(700);
  });
});
