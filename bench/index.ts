// npm run bench -- [--only receiver,reconcile,dashboard,polling,economy,sinks,collections,checks,runs,queue,pipeline,storage,judging,diff]
// Runs each benchmark in its own process (each needs its own configuration and a quiet heap), one
// after the other, and prints ONE table of the figures with the machine on top. Every part also
// runs alone: `--only reconcile`, or the part's own script (see docs/development/performance.md).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { machine } from "./common";
import { summaryTable, type Results } from "./summary";

const PARTS = [
  "receiver",
  "reconcile",
  "dashboard",
  "polling",
  "economy",
  "sinks",
  "collections",
  "checks",
  "runs",
  "queue",
  "pipeline",
  "storage",
  "judging",
  "diff",
] as const;
type Part = (typeof PARTS)[number];

// --urls/--runs/--inline-urls/--stores size the storage part (issue 40's figure: --urls 10000 --runs 30).
const { values } = parseArgs({
  options: {
    only: { type: "string" },
    urls: { type: "string" },
    runs: { type: "string" },
    "inline-urls": { type: "string" },
    stores: { type: "string" },
  },
  strict: true,
});
const only = values.only === undefined ? [...PARTS] : values.only.split(",").map((p) => p.trim());
const bad = only.filter((p) => !PARTS.some((k) => k === p));
if (bad.length > 0) {
  console.error(`bench: unknown part ${bad.join(", ")}; use --only ${PARTS.join("|")} (comma-separated for several)`);
  process.exit(2);
}
const wanted = (p: Part) => only.includes(p);

const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-"));
const results: Results = { loads: {} };
let failed = false;
type Command = readonly [string, readonly string[]];
// receiver.mjs takes its result file from BENCH_RESULT_FILE, the TypeScript parts from --result.
const tsx =
  (script: string, ...args: string[]) =>
  (file: string): Command => [
    "node_modules/.bin/tsx",
    ["--conditions=react-server", script, ...args, "--result", file],
  ];

/** Runs one part with its output shown; returns its JSON result and the load average before it. */
function runPart(label: string, command: (file: string) => Command, env: Record<string, string> = {}): unknown {
  const file = path.join(dir, `${label.replace(/\W+/g, "-")}.json`);
  const load = os.loadavg()[0] ?? 0;
  console.log(`\n=== ${label} (load average ${load.toFixed(2)}) ===`);
  const [cmd, args] = command(file);
  const run = spawnSync(cmd, [...args], {
    stdio: "inherit",
    env: { ...process.env, ...env, BENCH_RESULT_FILE: file },
  });
  results.loads[label] = load;
  if (run.status !== 0) failed = true;
  try {
    return z.json().parse(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    console.error(`${label}: no result (exit code ${run.status})`);
    failed = true;
    return null;
  }
}

console.log(machine());
if (wanted("receiver")) results.receiver = runPart("receiver", () => ["node", ["bench/receiver.mjs"]]);
if (wanted("reconcile"))
  results.reconcile = [10_000, 100_000].map((n) =>
    runPart(`reconcile ${n}`, tsx("bench/reconcile.ts", "--jobs", String(n))),
  );
if (wanted("dashboard")) results.dashboard = runPart("dashboard", tsx("bench/dashboard.ts"));
if (wanted("polling")) results.polling = runPart("polling", tsx("bench/polling.ts"));
if (wanted("economy")) results.economy = runPart("economy", tsx("bench/economy.ts"));
if (wanted("sinks")) results.sinks = runPart("sinks", tsx("bench/sinks.ts"));
if (wanted("collections"))
  results.collections = ["sqlite", "postgres"].map((store) =>
    runPart(`collections ${store}`, tsx("bench/collections.ts", "--store", store)),
  );
if (wanted("checks"))
  results.checks = ["sqlite", "postgres"].map((store) =>
    runPart(`checks ${store}`, tsx("bench/checks.ts", "--store", store)),
  );
// The runs part reads the server's live heap over the inspector's WebSocket (global on Node 22).
if (wanted("runs"))
  results.runs = runPart("runs", (file) => [
    "node_modules/.bin/tsx",
    ["--experimental-websocket", "--conditions=react-server", "bench/runs.ts", "--result", file],
  ]);
if (wanted("queue")) results.queue = runPart("queue", tsx("bench/queue.ts"));
if (wanted("pipeline")) results.pipeline = runPart("pipeline", tsx("bench/pipeline.ts"));
// --urls (or BENCH_STORAGE_URLS) raises the collection's size (10,000 for the figure: about half
// an hour per store on 2 cores; use --inline-urls 300 there, inline at 10,000 × 30 is ~130 GB of rows).
if (wanted("storage")) {
  const sized = [
    ...["--urls", values.urls ?? process.env.BENCH_STORAGE_URLS ?? "100"],
    ...(values.runs ? ["--runs", values.runs] : []),
    ...(values["inline-urls"] ? ["--inline-urls", values["inline-urls"]] : []),
  ];
  results.storage = (values.stores ?? "sqlite,postgres")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s === "sqlite" || s === "postgres")
    // The bench keeps every page's current text to store it again on each run (~0.5 MB a page at the
    // realistic sizes: ~5 GB at 10,000 URLs), past Node's default heap.
    .map((store) =>
      runPart(`storage ${store}`, tsx("bench/storage.ts", "--store", store, ...sized), {
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=12288`.trim(),
      }),
    );
}

// The receiver while the judging pool works through hostile pages (issue 47); 100 pages keep the part
// under 5 minutes on 2 cores (the 500: `npm run bench:judging`, ~9 minutes).
if (wanted("judging")) results.judging = runPart("judging", tsx("bench/judging.ts", "--pages", "100"));
if (wanted("diff")) results.diff = runPart("diff", tsx("bench/diff.ts"));

console.log(`\n${machine()}\n`);
console.log(summaryTable(results));
rmSync(dir, { recursive: true, force: true });
if (failed) {
  console.error("\nAt least one part failed (see its output above).");
  process.exitCode = 1;
}
