// deploy/: the Prometheus rules pass `promtool check rules` and their unit tests (promtool test rules),
// every alert has a summary and a runbook paragraph in docs/operations/monitoring.md, and every metric
// the rules and the Grafana dashboard name is one a live Tally answers in GET /api/metrics.
// promtool comes from scripts/ensure-promtool.mjs (Debian's package); without one the test fails.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { ensurePromtool } from "../scripts/ensure-promtool.mjs";
import { createTestDb, type TestDb } from "./db";
import { metricValue } from "./metrics-text";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const ROOT = path.resolve(import.meta.dirname, "..");
const RULES = path.join(ROOT, "deploy/prometheus/tally-rules.yml");
const RULE_TESTS = path.join(ROOT, "deploy/prometheus/tally-rules.test.yml");
const DASHBOARD = path.join(ROOT, "deploy/grafana/tally-dashboard.json");
const RUNBOOK = path.join(ROOT, "docs/operations/monitoring.md");
/** Series Prometheus makes itself, not Tally. */
const PROMETHEUS_OWN = new Set(["up"]);

type Rule = { alert?: string; record?: string; expr: string; annotations: Record<string, string> };

/** The rules of tally-rules.yml: its shape is promtool's to check; this reads names, exprs, annotations. */
function readRules(text: string): Rule[] {
  const rules: Rule[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const start = /^\s*- (alert|record): (\S+)$/.exec(line);
    if (start) rules.push({ [start[1]]: start[2], expr: "", annotations: {} });
    const rule = rules.at(-1);
    const field = /^(\s*)(expr|summary|runbook): ?(.*)$/.exec(line);
    if (!rule || !field) continue;
    let value = field[3];
    if (value === "|") {
      const block: string[] = [];
      while (i + 1 < lines.length && /^\s*$|^\s+/.test(lines[i + 1]) && indent(lines[i + 1]) > field[1].length)
        block.push(lines[++i].trim());
      value = block.join(" ");
    }
    value = value.replace(/^(["'])(.*)\1$/, "$2");
    if (field[2] === "expr") rule.expr = value;
    else rule.annotations[field[2]] = value;
  }
  return rules;
}
const indent = (line: string) => (line.trim() === "" ? Infinity : line.length - line.trimStart().length);

const KEYWORDS = new Set(["and", "or", "unless", "by", "without", "on", "ignoring", "group_left", "group_right"]);
const KEYWORDS_TOO = new Set(["bool", "offset", "inf", "nan"]);

/** The metric names a PromQL expression reads (functions, label names, keywords and variables left out). */
export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\$\{?\w+\}?/g, " ")
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const names = [...stripped.matchAll(/(?<![\w.:])([a-zA-Z_:][\w:]*)(\s*\()?/g)]
    .filter((m) => !m[2] && !KEYWORDS.has(m[1]) && !KEYWORDS_TOO.has(m[1].toLowerCase()))
    .map((m) => m[1]);
  return [...new Set(names)];
}

/** Every series name an answer of GET /api/metrics can carry: each `# TYPE`, histograms with their parts. */
function exported(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\w+)$/gm)) {
    names.add(m[1]);
    if (m[2] === "histogram") for (const part of ["_bucket", "_sum", "_count"]) names.add(m[1] + part);
    if (m[2] === "summary") for (const part of ["_sum", "_count"]) names.add(m[1] + part);
  }
  return names;
}

const Dashboard = z.object({
  panels: z.array(
    z.object({
      type: z.string(),
      title: z.string(),
      targets: z.array(z.object({ expr: z.string() })).optional(),
    }),
  ),
});

let promtool: string;
let t: TestDb;
let tally: TallyServer;
let metricsText: string;
const PENDING_SINCE = new Date(Date.now() - 2 * 3600_000);

beforeAll(async () => {
  const found = ensurePromtool();
  if (!found) throw new Error("no promtool: run `node scripts/ensure-promtool.mjs` (Debian's prometheus package)");
  promtool = found.path;
  t = await createTestDb();
  // Two jobs without an outcome, the older two hours old, and an older one stored.
  await db().job.createMany({
    data: [
      { id: "pending-old", kind: "extract", createdAt: PENDING_SINCE },
      { id: "pending-new", kind: "extract" },
      { id: "stored-older", kind: "extract", outcome: "stored", createdAt: new Date(Date.now() - 5 * 3600_000) },
    ],
  });
  // A collection whose tick came 20 minutes ago and (no scheduler runs) has not started; a paused one older.
  const collection = { urls: "https://example.com/", urlCount: 1, schedule: "*/5 * * * *", createdBy: "test" };
  await db().collection.createMany({
    data: [
      { id: "col-due", name: "due", ...collection, nextRunAt: new Date(Date.now() - 20 * 60_000) },
      { id: "col-paused", name: "paused", ...collection, paused: true, nextRunAt: new Date(Date.now() - 3600_000) },
    ],
  });
  // An enabled sink with an event undelivered for 30 minutes, and a disabled one with an older one.
  const destination = { url: "postgresql://sink.invalid/x", events: "job.stored", secret: "s", secretLast4: "s" };
  await db().destination.createMany({
    data: [
      { id: "d-sink", type: "postgres", ...destination },
      { id: "d-off", type: "postgres", ...destination, enabled: false },
    ],
  });
  const event = {
    eventType: "job.stored",
    jobId: "stored-older",
    outcome: "stored",
    retryUntil: new Date(Date.now() + 3600_000),
  };
  await db().outboundDelivery.createMany({
    data: [
      {
        destinationId: "d-sink",
        eventId: "e1",
        ...event,
        status: "retrying",
        createdAt: new Date(Date.now() - 30 * 60_000),
      },
      { destinationId: "d-sink", eventId: "e2", ...event, createdAt: new Date(Date.now() - 5 * 60_000) },
      { destinationId: "d-off", eventId: "e3", ...event, createdAt: new Date(Date.now() - 3600_000) },
    ],
  });
  tally = await startTally(
    { TALLY_SCHEDULER: "external", TALLY_CRON_SECRET: "cron-secret-0123456789abcdef", TALLY_API_RPS: "37" },
    t.url,
  );
  const res = await fetch(`${tally.url}/api/metrics`, {
    headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
  });
  expect(res.status).toBe(200);
  metricsText = await res.text();
}, 180_000);
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const run = (...args: string[]) => {
  const r = spawnSync(promtool, args, { cwd: path.dirname(RULES), encoding: "utf8" });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};

describe("deploy/prometheus", () => {
  const rules = readRules(readFileSync(RULES, "utf8"));
  const alerts = rules.filter((r) => r.alert);

  it("passes promtool check rules and promtool test rules", () => {
    const check = run("check", "rules", RULES);
    expect(check.out).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(check.status, check.out).toBe(0);
    const test = run("test", "rules", RULE_TESTS);
    expect(test.status, test.out).toBe(0);
    expect(test.out).toContain("SUCCESS");
  });

  it("unit-tests every alert, and every alert has a summary and a runbook paragraph in the docs", () => {
    const tests = readFileSync(RULE_TESTS, "utf8");
    const docs = readFileSync(RUNBOOK, "utf8");
    const anchors = new Set(
      [...docs.matchAll(/^#{2,4} (.+)$/gm)].map((m) =>
        m[1]
          .toLowerCase()
          .replace(/[^\w\- ]/g, "")
          .replace(/ /g, "-"),
      ),
    );
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    for (const a of alerts) {
      expect(tests, `${a.alert} has no unit test`).toMatch(new RegExp(`alertname: ${a.alert}$`, "m"));
      expect(a.annotations.summary, `${a.alert}: summary`).toBeTruthy();
      expect(a.annotations.runbook, `${a.alert}: runbook`).toBe(
        `docs/operations/monitoring.md#${a.alert!.toLowerCase()}`,
      );
      expect(anchors, `${a.alert}: no runbook heading in monitoring.md`).toContain(a.alert!.toLowerCase());
    }
  });

  it("names only metrics a live Tally exports (or the rules' own recordings, or Prometheus's `up`)", () => {
    const have = exported(metricsText);
    const recorded = new Set(rules.flatMap((r) => (r.record ? [r.record] : [])));
    for (const r of rules) {
      const names = metricNames(r.expr);
      expect(names.length, `${r.alert ?? r.record}: ${r.expr}`).toBeGreaterThan(0);
      for (const n of names)
        expect(have.has(n) || recorded.has(n) || PROMETHEUS_OWN.has(n), `${r.alert ?? r.record} reads ${n}`).toBe(true);
    }
  });
});

describe("tally_jobs_pending_oldest_age_seconds (TallyStalePending)", () => {
  it("is the age of the oldest job without an outcome", () => {
    const age = metricValue(metricsText, "tally_jobs_pending_oldest_age_seconds");
    const expected = (Date.now() - PENDING_SINCE.getTime()) / 1000;
    expect(age).toBeGreaterThan(7190);
    expect(age).toBeLessThanOrEqual(expected);
  });
});

describe("tally_platform_budget_calls_per_second (TallyBudgetSaturated)", () => {
  it("is TALLY_API_RPS", () => {
    expect(metricsText).toMatch(/^tally_platform_budget_calls_per_second 37$/m);
  });
});

describe("tally_collection_schedule_behind_seconds (TallyCollectionsBehind)", () => {
  it("is how long the oldest due tick of a collection not paused has waited", () => {
    const behind = metricValue(metricsText, "tally_collection_schedule_behind_seconds");
    expect(behind).toBeGreaterThan(1190);
    expect(behind).toBeLessThan(1800);
  });
});

describe("tally_outbound_oldest_undelivered_age_seconds (TallyOutboundLag)", () => {
  it("is each enabled destination's oldest event not delivered, pending or retrying", () => {
    const lag = metricValue(metricsText, "tally_outbound_oldest_undelivered_age_seconds", {
      destination: "d-sink",
      type: "postgres",
    });
    expect(lag).toBeGreaterThan(1790);
    expect(lag).toBeLessThan(2400);
    expect(metricsText).not.toContain('destination="d-off"');
  });
});

describe("deploy/grafana", () => {
  it("every panel's every query names only metrics a live Tally exports", () => {
    const dashboard = Dashboard.parse(JSON.parse(readFileSync(DASHBOARD, "utf8")));
    const have = exported(metricsText);
    const queries = dashboard.panels.filter((p) => p.type !== "row");
    expect(queries.length).toBeGreaterThanOrEqual(10);
    for (const p of queries) {
      expect(p.targets?.length, `${p.title}: no query`).toBeGreaterThan(0);
      for (const t of p.targets ?? []) {
        const names = metricNames(t.expr);
        expect(names.length, `${p.title}: ${t.expr}`).toBeGreaterThan(0);
        for (const n of names) expect(have.has(n), `${p.title} reads ${n}, which Tally does not export`).toBe(true);
      }
    }
  });

  it("reads metric names out of PromQL", () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le) (rate(tally_delivery_duration_seconds_bucket{status=~"a|b"}[$__rate_interval])))',
      ),
    ).toEqual(["tally_delivery_duration_seconds_bucket"]);
    expect(
      metricNames("max(a) >= 900 or max(b:c) > bool 2 and on () sum without (x) (increase(d[5m] offset 1h))"),
    ).toEqual(["a", "b:c", "d"]);
  });
});
