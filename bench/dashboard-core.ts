// The dashboard benchmark's core: each list page and the overview, called through the same lib
// functions and query schemas the routes and pages use, timed after a warm-up. Shared by
// `npm run bench:dashboard` and `npm run bench`. DATABASE_URL must be set before it runs.
import Database from "better-sqlite3";
import { z } from "zod";
import { deliveryQuerySchema } from "@/lib/webhooks/deliveries-contracts";
import { historyQuerySchema } from "@/lib/operations/contracts";
import { unauthorizedQuerySchema } from "@/lib/subscriptions/unauthorized-contracts";
import { deadLetterListQuerySchema, listDeadLetters } from "@/lib/dead-letters/list";
import { inboundCursor, listInbound, listPlatform } from "@/lib/webhooks/deliveries-list";
import { listJobsPage, parseJobsSearch } from "@/lib/jobs/list";
import { listRuns } from "@/lib/operations/history";
import { computeOverview } from "@/lib/overview/overview";
import { unauthorizedChart } from "@/lib/subscriptions/unauthorized-chart";
import { dbReady } from "@/lib/db";
import { encodeCursor as jobCursor, jobListQuerySchema, listJobs } from "@/lib/jobs/query";

export const LIMIT_MS = 300;

export type Case = { page: string; name: string; run: () => Promise<number> };
export type Timing = { page: string; name: string; rows: number; medianMs: number; p95Ms: number; over: boolean };

const rowSchema = z.object({ id: z.union([z.string(), z.number()]), t: z.string() });

/** Values that make the cases realistic: a job and URL that exist, cursors half-way down each list. */
function samples(file: string) {
  const sql = new Database(file, { readonly: true });
  try {
    const at = (q: string, ...args: unknown[]) => rowSchema.parse(sql.prepare(q).get(...args));
    const jobs = z.object({ n: z.number() }).parse(sql.prepare(`SELECT COUNT(*) n FROM "Job"`).get()).n;
    const inbound = z.object({ n: z.number() }).parse(sql.prepare(`SELECT MAX(id) n FROM "InboundDelivery"`).get()).n;
    const jobAt = (offset: number) =>
      at(`SELECT id, createdAt t FROM "Job" ORDER BY createdAt DESC, id DESC LIMIT 1 OFFSET ?`, offset);
    const midJob = jobAt(Math.floor(jobs / 2));
    const lateJob = jobAt(Math.floor(jobs * 0.95));
    const url = z
      .object({ url: z.string() })
      .parse(sql.prepare(`SELECT url FROM "Job" WHERE id = ?`).get(midJob.id)).url;
    const midInbound = at(`SELECT id, receivedAt t FROM "InboundDelivery" WHERE id = ?`, Math.floor(inbound / 2));
    const newest = z.object({ t: z.string() }).parse(sql.prepare(`SELECT MAX(createdAt) t FROM "Job"`).get()).t;
    const cursorOf = (r: z.infer<typeof rowSchema>) => ({ id: String(r.id), createdAt: new Date(r.t) });
    return {
      newest: Date.parse(newest),
      jobs,
      midJob: { id: String(midJob.id), at: new Date(midJob.t) },
      deepest: cursorOf(lateJob),
      url,
      midInbound: { id: Number(midInbound.id), at: new Date(midInbound.t) },
    };
  } finally {
    sql.close();
  }
}

/**
 * The cases, on the data's clock: "now" is the newest row's time, so "last hour", the overview's
 * windows and the 401 spike mean what they meant when the database was seeded, however long ago.
 * Every function that takes a clock is given it; the others do not depend on one.
 */
export function dashboardCases(file: string): { now: Date; cases: Case[] } {
  const s = samples(file);
  const now = s.newest + 1000;
  const clock = new Date(now);
  const day = 86_400_000;
  const jobs = (raw: Record<string, string>) => {
    const parsed = parseJobsSearch(raw);
    if (parsed.problems.length > 0)
      throw new Error(`bad jobs query ${JSON.stringify(raw)}: ${parsed.problems.join("; ")}`);
    return async () => (await listJobsPage(parsed.query)).items.length;
  };
  const deep = jobCursor({ createdAt: s.midJob.at, id: s.midJob.id });
  const inbound = (raw: Record<string, string>) => {
    const q = deliveryQuerySchema.parse({ ...raw, log: "inbound" });
    return async () => (await listInbound(q, clock)).items.length;
  };
  const platform = (raw: Record<string, string>) => {
    const q = deliveryQuerySchema.parse({ ...raw, log: "platform" });
    return async () => (await listPlatform(q, clock)).items.length;
  };
  const dead = (raw: Record<string, string>) => {
    const q = deadLetterListQuerySchema.parse(raw);
    return async () => (await listDeadLetters(q)).items.length;
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  const fragment = new URL(s.url).hostname;
  const cases: Case[] = [
    { page: "Jobs", name: "first page (newest 50)", run: jobs({}) },
    { page: "Jobs", name: "status = failed", run: jobs({ status: "failed" }) },
    { page: "Jobs", name: "status = processing (rare)", run: jobs({ status: "processing" }) },
    { page: "Jobs", name: "outcome = pending (rare)", run: jobs({ outcome: "pending" }) },
    { page: "Jobs", name: "outcome = dead_lettered", run: jobs({ outcome: "dead_lettered" }) },
    { page: "Jobs", name: "kind = crawl", run: jobs({ kind: "crawl" }) },
    {
      page: "Jobs",
      name: "time range (one day, 10 days ago)",
      run: jobs({ from: iso(now - 11 * day), to: iso(now - 10 * day) }),
    },
    { page: "Jobs", name: "oldest first", run: jobs({ sort: "oldest" }) },
    {
      page: "Jobs",
      name: `deep keyset page (row ${Math.floor(s.jobs / 2).toLocaleString("en-US")})`,
      run: jobs({ cursor: deep }),
    },
    {
      page: "Jobs",
      name: `deeper keyset page (row ${Math.floor(s.jobs * 0.95).toLocaleString("en-US")})`,
      run: jobs({ cursor: jobCursor(s.deepest) }),
    },
    { page: "Jobs", name: "deep keyset page, kind = batch", run: jobs({ cursor: deep, kind: "batch" }) },
    {
      page: "Jobs",
      name: "status + kind + time range",
      run: jobs({ status: "completed", kind: "extract", from: iso(now - 3 * day) }),
    },
    { page: "Jobs", name: "search by job id", run: jobs({ q: s.midJob.id }) },
    { page: "Jobs", name: "search by full URL", run: jobs({ q: s.url }) },
    { page: "Jobs", name: `search by host name, a URL prefix (${fragment})`, run: jobs({ q: fragment }) },
    { page: "Jobs", name: "search with no match", run: jobs({ q: "no-such-page-anywhere" }) },
    {
      page: "Jobs API",
      name: "GET /api/jobs first page",
      run: async () => (await listJobs(jobListQuerySchema.parse({}))).items.length,
    },
    {
      page: "Jobs API",
      name: "GET /api/jobs deep cursor (row 95%)",
      run: async () => (await listJobs(jobListQuerySchema.parse({ cursor: jobCursor(s.deepest) }))).items.length,
    },
    { page: "Deliveries", name: "inbound first page", run: inbound({}) },
    { page: "Deliveries", name: "inbound status = 401", run: inbound({ status: "401" }) },
    { page: "Deliveries", name: "inbound status = 4xx", run: inbound({ status: "4xx" }) },
    { page: "Deliveries", name: "inbound status = 413 (rare)", run: inbound({ status: "413" }) },
    { page: "Deliveries", name: "inbound last 24 h", run: inbound({ window: "24h" }) },
    {
      page: "Deliveries",
      name: "inbound from/to (one hour, 5 days ago)",
      run: inbound({ from: iso(now - 5 * day - 3_600_000), to: iso(now - 5 * day) }),
    },
    {
      page: "Deliveries",
      name: "inbound 401, one subscription, 7 days",
      run: inbound({ status: "401", subscriptionId: "large-batch", window: "7d" }),
    },
    {
      page: "Deliveries",
      name: "inbound deep keyset page",
      run: inbound({ cursor: inboundCursor(s.midInbound.at, s.midInbound.id) }),
    },
    { page: "Deliveries", name: "platform first page", run: platform({}) },
    { page: "Deliveries", name: "platform status = 401", run: platform({ status: "401" }) },
    { page: "Deliveries", name: "platform 5xx, last 24 h", run: platform({ status: "5xx", window: "24h" }) },
    { page: "Dead letters", name: "open (default)", run: dead({}) },
    { page: "Dead letters", name: "all states", run: dead({ state: "all" }) },
    { page: "Dead letters", name: "error code filter", run: dead({ state: "all", errorCode: "TARGET_NOT_FOUND" }) },
    {
      page: "Operations",
      name: "run history",
      run: async () => (await listRuns(historyQuerySchema.parse({}))).items.length,
    },
    {
      page: "Operations",
      name: "run history, kind = replay",
      run: async () => (await listRuns(historyQuerySchema.parse({ kind: "replay" }))).items.length,
    },
    { page: "Overview", name: "overview (uncached)", run: async () => (await computeOverview(clock)).ledger.known },
    {
      page: "Subscriptions",
      name: "401 chart, last hour",
      run: async () => (await unauthorizedChart({ ...unauthorizedQuerySchema.parse({}), now: clock })).points.length,
    },
    {
      page: "Subscriptions",
      name: "401 chart, last 24 h",
      run: async () =>
        (await unauthorizedChart({ ...unauthorizedQuerySchema.parse({ minutes: 1440 }), now: clock })).points.length,
    },
  ];
  return { now: clock, cases };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

/** Runs every case `warmup` times untimed, then `runs` times; median and p95 in milliseconds. */
export async function timeCases(
  cases: Case[],
  opts: { runs?: number; warmup?: number; onResult?: (t: Timing) => void } = {},
): Promise<Timing[]> {
  const runs = opts.runs ?? 20;
  await dbReady();
  const out: Timing[] = [];
  for (const c of cases) {
    let rows = 0;
    for (let i = 0; i < (opts.warmup ?? 3); i++) rows = await c.run();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      rows = await c.run();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const t: Timing = {
      page: c.page,
      name: c.name,
      rows,
      medianMs: quantile(times, 0.5),
      p95Ms: quantile(times, 0.95),
      over: quantile(times, 0.95) > LIMIT_MS,
    };
    opts.onResult?.(t);
    out.push(t);
  }
  return out;
}

export function dashboardTable(rows: Timing[]): string {
  const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  const lines = ["| page | query | rows | median ms | p95 ms | |", "|---|---|---|---|---|---|"];
  for (const r of rows)
    lines.push(
      `| ${r.page} | ${r.name} | ${r.rows} | ${ms(r.medianMs)} | ${ms(r.p95Ms)} | ${r.over ? `**over ${LIMIT_MS} ms**` : ""} |`,
    );
  return lines.join("\n");
}
