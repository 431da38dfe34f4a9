// The one table of `npm run bench`: each part's JSON result (parsed, never trusted) as rows of
// area | what was measured | figure | notes, with the load average each part started under.
import { z } from "zod";

export type Results = {
  loads: Record<string, number>;
  receiver?: unknown;
  reconcile?: unknown[];
  dashboard?: unknown;
  polling?: unknown;
  economy?: unknown;
  sinks?: unknown;
  collections?: unknown[];
  checks?: unknown[];
  runs?: unknown;
  queue?: unknown;
  pipeline?: unknown;
  storage?: unknown[];
  judging?: unknown;
  diff?: unknown;
};

const diffSchema = z.object({
  kb: z.number(),
  rows: z.array(
    z.object({
      label: z.string(),
      diffP50Ms: z.number(),
      renderP50Ms: z.number(),
      totalMaxMs: z.number(),
      htmlBytes: z.number(),
    }),
  ),
});

const pipelineSchema = z.object({
  rows: z.array(
    z.object({
      store: z.string(),
      tally: z.object({
        jobs: z.number(),
        jobsPerSecond: z.number(),
        steadyJobsPerSecond: z.number(),
        settledToStoredMs: z.object({ p50: z.number(), p95: z.number(), p99: z.number() }),
      }),
      bare: z.object({ jobsPerSecond: z.number() }),
      ratio: z.number(),
    }),
  ),
});

const judgingLoad = z.object({ rps: z.number(), p99Ms: z.number(), stallMaxMs: z.number(), n: z.number() });
const judgingSchema = z.object({
  store: z.string(),
  receiver: z.string(),
  threads: z.number(),
  budgetMs: z.number(),
  idle: judgingLoad,
  pool: judgingLoad.extend({
    pages: z.number(),
    judgingSeconds: z.number(),
    verdicts: z.record(z.string(), z.number()),
    overruns: z.number(),
  }),
  inline: judgingLoad.extend({ pages: z.number() }),
  ratios: z.object({ poolRps: z.number(), poolP99: z.number(), inlineRps: z.number(), inlineP99: z.number() }),
  good: z.object({
    pages: z.number(),
    pool: z.object({ pagesPerSecond: z.number(), msPerPage: z.number() }),
    inline: z.object({ pagesPerSecond: z.number(), msPerPage: z.number() }),
  }),
});

const storageMode = z.object({
  mode: z.string(),
  rows: z.number(),
  dbBytesPerResult: z.number(),
  bodyStore: z
    .object({
      objects: z.number(),
      bytes: z.number(),
      allocated: z.number(),
      du: z.number().nullable().optional(),
      compressedDistinct: z.number(),
    })
    .nullable(),
  apiP95Ms: z.number(),
  exportRowsPerSecond: z.number(),
});
const storageSchema = z.object({
  store: z.string(),
  urls: z.number(),
  inlineUrls: z.number().optional(),
  runs: z.number(),
  change: z.number(),
  modes: z.tuple([storageMode, storageMode]),
});

const sinksSchema = z.object({
  rows: z.array(
    z.object({
      type: z.string(),
      events: z.number(),
      tallyPerSecond: z.number(),
      barePerSecond: z.number(),
      ratio: z.number(),
      bareBatchedPerSecond: z.number().optional(),
      rounds: z.number().optional(),
    }),
  ),
  skipped: z.array(z.string()),
});

const receiverSchema = z.object({
  n: z.number(),
  concurrency: z.number(),
  rows: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      rps: z.number(),
      p50_ms: z.number(),
      p99_ms: z.number(),
      lost_or_doubled: z.number(),
      errors: z.number(),
    }),
  ),
});
const reconcileSchema = z.object({
  jobs: z.number(),
  seconds: z.number(),
  jobsPerSecond: z.number(),
  pages: z.number(),
  missing: z.number(),
  enqueued: z.number(),
  exact: z.boolean(),
  listOnlySeconds: z.number(),
  state: z.string(),
});
const dashboardSchema = z.object({
  counts: z.object({ jobs: z.number(), inbound: z.number() }),
  rows: z.array(
    z.object({ page: z.string(), name: z.string(), medianMs: z.number(), p95Ms: z.number(), over: z.boolean() }),
  ),
});
const pollingSchema = z.object({
  rows: z.array(
    z.object({
      duration: z.string(),
      fixedCalls: z.number(),
      pollerCallsMean: z.number(),
      pollerCallsP95: z.number(),
      callsSaved: z.string(),
      pollerNoticeMeanS: z.number(),
    }),
  ),
});

const checksSchema = z.object({
  store: z.string(),
  urls: z.number(),
  seconds: z.number(),
  bad: z.number(),
  byKind: z.record(z.string(), z.number()),
  detectedShare: z.number(),
  good: z.number(),
  falsePositives: z.number(),
  recoverable: z.number(),
  recoveredShare: z.number(),
  unrecoverable: z.number(),
  rightReasonShare: z.number(),
  tokens: z.number(),
  addsUp: z.boolean(),
  rungs: z.array(
    z.object({ rung: z.number(), name: z.string(), chunks: z.number(), urls: z.number(), tokens: z.number() }),
  ),
});

const collectionsSchema = z.object({
  store: z.string(),
  urls: z.number(),
  classifySeconds: z.number(),
  fingerprintSeconds20k: z.number(),
  classifySeconds20k: z.number(),
  overheadSeconds20k: z.number(),
});
const economySchema = z.object({
  results: z.array(
    z.union([
      z.object({
        part: z.string(),
        mode: z.string(),
        jobs: z.number(),
        callsPerJob: z.number(),
        settledToStoredMs: z.object({ p50: z.number(), p95: z.number() }),
        peakCallsPerMinute: z.number(),
      }),
      z.object({
        part: z.literal("backlog"),
        historyJobs: z.number(),
        runs: z.array(z.object({ label: z.string(), pages: z.record(z.string(), z.number()) })),
        fresh: z.object({
          jobs: z.number(),
          stored: z.number(),
          submitMs: z.object({ p95: z.number(), max: z.number() }),
          submittedToStoredMs: z.object({ p50: z.number(), p95: z.number() }),
        }),
      }),
      z.object({
        part: z.literal("reconcile"),
        historyJobs: z.number(),
        runs: z.array(
          z.object({
            label: z.string(),
            scope: z.string(),
            byKind: z.record(z.string(), z.object({ pages: z.number() })),
          }),
        ),
      }),
    ]),
  ),
});

const queueSchema = z.object({
  ratio: z.number(),
  rounds: z.number().optional(),
  results: z.array(
    z.object({
      engine: z.string(),
      store: z.string(),
      itemsPerSecond: z.number(),
      latencyMs: z.object({ p50: z.number(), p99: z.number() }),
    }),
  ),
});

const runsSchema = z.object({
  results: z.array(
    z.union([
      z.object({
        part: z.enum(["webhook", "polling"]),
        urls: z.number(),
        callsPerUrl: z.number(),
        goalCallsPerUrl: z.number(),
        wallSeconds: z.number(),
        platformSeconds: z.number(),
        overheadSeconds: z.number(),
        stored: z.number(),
        failed: z.number(),
        readsNotAddingUp: z.number(),
      }),
      z.object({
        part: z.string(),
        store: z.string(),
        urls: z.number(),
        createMs: z.number(),
        apiMs: z.object({ p95: z.number() }),
        pageMs: z.object({ p95: z.number() }),
        rssMb: z.object({ min: z.number(), max: z.number() }),
      }),
    ]),
  ),
});

const n = (v: number) => Math.round(v).toLocaleString("en-US");
const ms = (v: number) => (v < 10 ? v.toFixed(1) : n(v));
const load = (r: Results, key: string) => (r.loads[key] === undefined ? "" : `load ${r.loads[key].toFixed(1)}`);

export function summaryTable(r: Results): string {
  const rows: string[][] = [];
  const missing = (area: string) => rows.push([area, "(no result)", "—", "see the part's output above"]);

  if (r.receiver !== undefined) {
    const p = receiverSchema.safeParse(r.receiver);
    if (!p.success) missing("Receiver");
    else {
      for (const x of p.data.rows) {
        rows.push([
          "Receiver",
          `${x.name}: ${n(p.data.n)} signed deliveries, ${p.data.concurrency} connections, 10% duplicates`,
          `${n(x.rps)} deliveries/s · p50 ${ms(x.p50_ms)} ms · p99 ${ms(x.p99_ms)} ms`,
          `lost or doubled: ${x.lost_or_doubled}; ${load(r, "receiver")}`,
        ]);
      }
      const row = (key: string) => p.data.rows.find((x) => x.key === key);
      const [tally, next, bare, article] = [row("tally"), row("next-route"), row("bare"), row("article")];
      if (next && bare)
        rows.push([
          "Receiver",
          "framework's share (next start ÷ bare node:http)",
          `${((100 * next.rps) / bare.rps).toFixed(0)}% of bare throughput`,
          `bare is ${(bare.rps / next.rps).toFixed(1)}× faster`,
        ]);
      if (tally && article)
        rows.push([
          "Receiver",
          "Tally ÷ the source article's receiver, same run",
          `${(tally.rps / article.rps).toFixed(2)}× the deliveries/s`,
          `p99 ${ms(tally.p99_ms)} ms vs ${ms(article.p99_ms)} ms`,
        ]);
    }
  }
  for (const [i, raw] of (r.reconcile ?? []).entries()) {
    const p = reconcileSchema.safeParse(raw);
    if (!p.success) missing("Reconciliation");
    else {
      const x = p.data;
      rows.push([
        "Reconciliation",
        `${n(x.jobs)} platform jobs, 1% without an outcome locally`,
        `${x.seconds.toFixed(1)} s · ${n(x.jobsPerSecond)} jobs/s · ${x.pages} pages`,
        `enqueued ${x.enqueued} of ${x.missing} missing (${x.exact ? "exactly those" : "MISMATCH"}); listing alone ${x.listOnlySeconds.toFixed(1)} s; ${load(r, `reconcile ${[10_000, 100_000][i] ?? ""}`)}`,
      ]);
    }
  }
  if (r.dashboard !== undefined) {
    const p = dashboardSchema.safeParse(r.dashboard);
    if (!p.success) missing("Dashboard");
    else {
      const pages = [...new Set(p.data.rows.map((x) => x.page))];
      for (const page of pages) {
        const mine = p.data.rows.filter((x) => x.page === page);
        const worst = mine.reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
        const over = mine.filter((x) => x.over).length;
        rows.push([
          "Dashboard",
          `${page}: ${mine.length} quer${mine.length === 1 ? "y" : "ies"} at ${n(p.data.counts.jobs)} jobs / ${n(p.data.counts.inbound)} inbound rows`,
          `median ${ms(Math.max(...mine.map((x) => x.medianMs)))} ms at most · worst p95 ${ms(worst.p95Ms)} ms`,
          `${over === 0 ? "all under 300 ms" : `${over} over 300 ms`}; worst: ${worst.name}; ${load(r, "dashboard")}`,
        ]);
      }
    }
  }
  if (r.polling !== undefined) {
    const p = pollingSchema.safeParse(r.polling);
    if (!p.success) missing("Polling");
    else {
      for (const x of p.data.rows) {
        rows.push([
          "Polling",
          `status calls for a job that takes ${x.duration}`,
          `poller ${x.pollerCallsMean} (p95 ${x.pollerCallsP95}) vs fixed 1 s poll ${x.fixedCalls}`,
          `${x.callsSaved} fewer calls; seen ${x.pollerNoticeMeanS} s after settling on average (fixed: within 1 s)`,
        ]);
      }
    }
  }
  if (r.economy !== undefined) {
    const p = economySchema.safeParse(r.economy);
    if (!p.success) missing("API economy");
    else {
      for (const x of p.data.results) {
        if ("fresh" in x) {
          const pages = x.runs
            .map((run) => `${run.label}: ${["extract", "batch", "crawl"].map((k) => run.pages[k] ?? 0).join("/")}`)
            .join("; ");
          rows.push([
            "API economy",
            `backlog of ${n(x.historyJobs)} unknown settled jobs draining at 50 calls/s`,
            `list pages per run (extract/batch/crawl) ${pages}`,
            `fresh submits at 1/s: ${x.fresh.stored} of ${x.fresh.jobs} stored, POST p95 ${n(x.fresh.submitMs.p95)} ms, submitted → stored p50 ${n(x.fresh.submittedToStoredMs.p50)} ms, p95 ${n(x.fresh.submittedToStoredMs.p95)} ms`,
          ]);
        } else if ("runs" in x) {
          for (const run of x.runs) {
            const pages = ["extract", "batch", "crawl"].map((k) => run.byKind[k]?.pages ?? 0).join(" / ");
            rows.push([
              "API economy",
              `reconciliation, ${run.label}, ${n(x.historyJobs)} settled jobs in the history`,
              `${run.scope}: ${pages} list pages (extract / batch / crawl)`,
              `${load(r, "economy")}`,
            ]);
          }
        } else {
          rows.push([
            "API economy",
            `${x.part}: ${n(x.jobs)} extract jobs, ${x.mode}`,
            `${x.callsPerJob} calls per finished job · settled → stored p50 ${n(x.settledToStoredMs.p50)} ms, p95 ${n(x.settledToStoredMs.p95)} ms`,
            `submits excluded; peak ${n(x.peakCallsPerMinute)} calls/min of 600`,
          ]);
        }
      }
    }
  }
  if (r.sinks !== undefined) {
    const p = sinksSchema.safeParse(r.sinks);
    if (!p.success) missing("sinks");
    else {
      for (const x of p.data.rows)
        rows.push([
          "sinks",
          `${x.type}: ${n(x.events)} job.stored events through Tally's outbox and worker, and a bare loop of the client` +
            (x.rounds === undefined ? "" : ` (best of ${x.rounds} rounds)`),
          `Tally ${n(x.tallyPerSecond)} events/s · bare loop ${n(x.barePerSecond)} events/s · ${x.ratio}×` +
            (x.bareBatchedPerSecond === undefined ? "" : ` · bare batched ${n(x.bareBatchedPerSecond)} events/s`),
          `goal ≥ 0.5×; ${load(r, "sinks")}`,
        ]);
      if (p.data.skipped.length) rows.push(["sinks", "left out", p.data.skipped.join(", "), "service not answering"]);
    }
  }
  for (const [i, raw] of (r.collections ?? []).entries()) {
    const p = collectionsSchema.safeParse(raw);
    if (!p.success) missing("Collections");
    else {
      const x = p.data;
      rows.push([
        "Collections",
        `classify ${n(x.urls)} URLs against the previous run (${x.store})`,
        `${x.classifySeconds.toFixed(2)} s`,
        `goal < 10 s; ${load(r, `collections ${i === 0 ? "sqlite" : "postgres"}`)}`,
      ]);
      rows.push([
        "Collections",
        `change tracking on a 20,000-URL run (${x.store})`,
        `${x.overheadSeconds20k.toFixed(2)} s (fingerprints ${x.fingerprintSeconds20k.toFixed(2)} s + classify ${x.classifySeconds20k.toFixed(2)} s)`,
        `under 5% of any run longer than ${(x.overheadSeconds20k * 20).toFixed(0)} s`,
      ]);
    }
  }
  for (const [i, raw] of (r.checks ?? []).entries()) {
    const p = checksSchema.safeParse(raw);
    if (!p.success) missing("Content checks");
    else {
      const x = p.data;
      const kinds = Object.entries(x.byKind)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(", ");
      rows.push([
        "Content checks",
        `${n(x.urls)} URLs, ${n(x.bad)} bad pages (${kinds}) (${x.store})`,
        `detected ${x.detectedShare}% · false positives ${n(x.falsePositives)} of ${n(x.good)} good · recovered ${x.recoveredShare}% of ${n(x.recoverable)} · right reason ${x.rightReasonShare}% of ${n(x.unrecoverable)} · ${x.seconds.toFixed(1)} s`,
        `goal ≥ 99%, 0, ≥ 99%; counts added up: ${x.addsUp}; ${load(r, `checks ${i === 0 ? "sqlite" : "postgres"}`)}`,
      ]);
      rows.push([
        "Content checks",
        `calls and tokens per rung (${x.store})`,
        x.rungs.map((g) => `${g.name}: ${n(g.chunks)} batches, ${n(g.urls)} URLs, ${n(g.tokens)} tokens`).join(" · "),
        `${n(x.tokens)} tokens in all`,
      ]);
    }
  }
  if (r.queue !== undefined) {
    const p = queueSchema.safeParse(r.queue);
    if (!p.success) missing("Queue");
    else {
      for (const x of p.data.results)
        rows.push([
          "Queue",
          `${x.engine} on ${x.store}, no-op items`,
          `${n(x.itemsPerSecond)} items/s · add → start p50 ${ms(x.latencyMs.p50)} ms, p99 ${ms(x.latencyMs.p99)} ms`,
          `${load(r, "queue")}`,
        ]);
      const of = p.data.rounds === undefined ? "" : ` (medians of ${p.data.rounds} rounds)`;
      rows.push(["Queue", "Tally ÷ graphile-worker on PostgreSQL", `${p.data.ratio}× the items/s${of}`, "goal ≥ 0.5"]);
    }
  }
  if (r.runs !== undefined) {
    const p = runsSchema.safeParse(r.runs);
    if (!p.success) missing("Runs");
    else {
      for (const x of p.data.results) {
        if ("callsPerUrl" in x)
          rows.push([
            "Runs",
            `${n(x.urls)} URLs, ${x.part}`,
            `${x.callsPerUrl} calls per URL (goal ≤ ${x.goalCallsPerUrl}) · wall ${n(x.wallSeconds)} s vs platform ${n(x.platformSeconds)} s`,
            `${n(x.stored)} stored, ${n(x.failed)} failed; ${x.readsNotAddingUp} reads not adding up; ${load(r, "runs")}`,
          ]);
        else
          rows.push([
            "Runs",
            `${n(x.urls)} URLs in one run, ${x.store}`,
            `created in ${ms(x.createMs)} ms · GET /api/runs/{id} p95 ${ms(x.apiMs.p95)} ms · run page p95 ${ms(x.pageMs.p95)} ms`,
            `server RSS ${x.rssMb.min}–${x.rssMb.max} MB while it ran`,
          ]);
      }
    }
  }
  if (r.pipeline !== undefined) {
    const p = pipelineSchema.safeParse(r.pipeline);
    if (!p.success) missing("Pipeline");
    else
      for (const x of p.data.rows)
        rows.push([
          "Pipeline",
          `${n(x.tally.jobs)} extract jobs by webhook, platform not the limit (${x.store})`,
          `${n(x.tally.jobsPerSecond)} jobs/s end to end · settled → stored p50 ${ms(x.tally.settledToStoredMs.p50)} p95 ${ms(x.tally.settledToStoredMs.p95)} p99 ${ms(x.tally.settledToStoredMs.p99)} ms`,
          `the store's bare loop ${n(x.bare.jobsPerSecond)} jobs/s: ${x.ratio}× (goal ≥ 0.5); ${load(r, "pipeline")}`,
        ]);
  }
  for (const raw of r.storage ?? []) {
    const p = storageSchema.safeParse(raw);
    if (!p.success) missing("Storage");
    else {
      const x = p.data;
      const [kept, inline] = x.modes;
      const what = `${n(x.urls)} URLs × ${x.runs} runs, ${(x.change * 100).toFixed(0)}% changed per run (${x.store})`;
      rows.push([
        "Storage",
        `database bytes per stored result, URL excluded: ${what}`,
        `${n(kept.dbBytesPerResult)} with the body store · ${n(inline.dbBytesPerResult)} inline${x.inlineUrls !== undefined && x.inlineUrls !== x.urls ? ` (inline at ${n(x.inlineUrls)} URLs)` : ""}`,
        `goal ≤ 600; ${load(r, `storage ${x.store}`)}`,
      ]);
      if (kept.bodyStore)
        rows.push([
          "Storage",
          `body store ÷ compressed distinct bodies: objects' bytes, and on disk (${x.store})`,
          `${(kept.bodyStore.bytes / kept.bodyStore.compressedDistinct).toFixed(2)}× · ${(kept.bodyStore.allocated / kept.bodyStore.compressedDistinct).toFixed(2)}× on disk (${n(kept.bodyStore.objects)} objects)`,
          "goal ≤ 1.2×",
        ]);
      rows.push([
        "Storage",
        `results API p95 and export rows/s, body store vs inline (${x.store})`,
        `${ms(kept.apiP95Ms)} vs ${ms(inline.apiP95Ms)} ms · ${n(kept.exportRowsPerSecond)} vs ${n(inline.exportRowsPerSecond)} rows/s`,
        "goal ≥ 0.8× the inline figures",
      ]);
    }
  }
  if (r.judging !== undefined) {
    const p = judgingSchema.safeParse(r.judging);
    if (!p.success) missing("Judging");
    else {
      const x = p.data;
      const verdicts = Object.entries(x.pool.verdicts)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(", ");
      rows.push([
        "Judging",
        `receiver (${x.receiver}, ${x.store}) while the pool (${x.threads} thread${x.threads === 1 ? "" : "s"}, budget ${n(x.budgetMs)} ms) judges ${n(x.pool.pages)} hostile pages with h2~p`,
        `${n(x.pool.rps)} deliveries/s (${x.ratios.poolRps}× idle ${n(x.idle.rps)}) · p99 ${ms(x.pool.p99Ms)} ms (${x.ratios.poolP99}× idle ${ms(x.idle.p99Ms)})`,
        `goal ≥ 0.8×, ≤ 2×; ${load(r, "judging")}`,
      ]);
      rows.push([
        "Judging",
        `main thread's longest event-loop stall: idle · pool · ${n(x.inline.pages)} pages inline`,
        `${ms(x.idle.stallMaxMs)} · ${ms(x.pool.stallMaxMs)} · ${ms(x.inline.stallMaxMs)} ms`,
        `inline: receiver ${n(x.inline.rps)} deliveries/s, p99 ${ms(x.inline.p99Ms)} ms`,
      ]);
      rows.push([
        "Judging",
        `hostile pages judged in ${x.pool.judgingSeconds.toFixed(1)} s`,
        `${verdicts}; ${n(x.pool.overruns)} overruns counted`,
        "verdict/check as the store path (judgeRow) sets them",
      ]);
      rows.push([
        "Judging",
        `${n(x.good.pages)} good simulator pages, pool vs inline`,
        `${n(x.good.pool.pagesPerSecond)} vs ${n(x.good.inline.pagesPerSecond)} pages/s · ${x.good.pool.msPerPage} vs ${x.good.inline.msPerPage} ms/page`,
        "no load",
      ]);
    }
  }
  if (r.diff !== undefined) {
    const p = diffSchema.safeParse(r.diff);
    if (!p.success) missing("Diff");
    else
      for (const row of p.data.rows)
        rows.push([
          "Diff",
          `${row.label} (${n(p.data.kb)} KB page): diff on the pool + render`,
          `${ms(row.diffP50Ms)} + ${ms(row.renderP50Ms)} ms (p50) · longest ${ms(row.totalMaxMs)} ms · ${n(row.htmlBytes)} bytes of HTML`,
          `goal < 1 s for a change; ${load(r, "diff")}`,
        ]);
  }
  return [
    "| area | measured | figure | notes |",
    "|---|---|---|---|",
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
  ].join("\n");
}
