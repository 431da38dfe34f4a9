// npm run bench:exports -- [--urls 100000] [--min-bytes 3000] [--max-bytes 8000] [--cache-mb 0] [--keep]
// Export memory with page bodies in the body store (issue 40: "export memory flat at 100,000 URLs"):
// a run of N URLs, every URL stored with a body of its own (markdown of min–max bytes: over the
// inline limit, so each one is an object in a file body store, read back, decoded and re-hashed by
// the export), in a temp SQLite database; then the run's CSV and JSON Lines exports and the results
// export of its jobs are read to the end, with the process's live heap measured after a forced
// collection at each quarter of the rows, and its peak RSS. Flat: the heap at the last quarter is
// what it was at the first. The bodies are kept small so the export writes ~0.5 GB, not ~50 GB: what
// an export holds at once is one page (500 rows or 16 Mi characters of bodies), whatever the total.
// The process's cache of texts (TALLY_BODY_CACHE_BYTES) is off by default here (--cache-mb): it grows to
// its bound whatever reads through it, and would hide the export's own memory under it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { machine } from "./common";

const { values } = parseArgs({
  options: {
    urls: { type: "string", default: "100000" },
    "min-bytes": { type: "string", default: "3000" },
    "max-bytes": { type: "string", default: "8000" },
    "cache-mb": { type: "string", default: "0" },
    keep: { type: "boolean", default: false },
  },
  strict: true,
});
const N = Number(values.urls);
const MIN = Number(values["min-bytes"]);
const MAX = Number(values["max-bytes"]);
const PER_JOB = 100;
const say = (s: string) => process.stdout.write(`${s}\n`);
const fmt = (v: number, d = 0) => v.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
const mb = (b: number) => `${fmt(b / 2 ** 20, 1)} MB`;

const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-exports-"));
// Set before the first getConfig(): the lib reads its database and body store from the configuration.
process.env.DATABASE_URL = `file:${path.join(dir, "tally.db")}`;
process.env.TALLY_BODY_STORE = `file:${path.join(dir, "bodies")}`;
process.env.TALLY_BODY_CACHE_BYTES = String(Number(values["cache-mb"]) * 2 ** 20);
process.env.TALLY_LOG_LEVEL ??= "error";

/** A page-like markdown body of `bytes` bytes, different per `i`. */
function body(i: number, bytes: number): string {
  const line = `Item ${i}: a paragraph of a catalogue page, with a price, a description and words.\n`;
  return `# Page ${i}\n\n${line.repeat(Math.ceil(bytes / line.length))}`.slice(0, bytes);
}

async function seed(runId: string): Promise<void> {
  execFileSync("npx", ["prisma", "migrate", "deploy"], { env: process.env, stdio: "pipe" });
  const { db, dbReady } = await import("@/lib/db");
  const { keepBodies } = await import("@/lib/jobs/keep-bodies");
  await dbReady();
  await db().run.create({
    data: {
      id: runId,
      name: "export memory",
      state: "completed",
      total: N,
      stored: N,
      batchSize: PER_JOB,
      request: "{}",
      createdBy: "bench",
    },
  });
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let from = 0; from < N; from += PER_JOB) {
    const jobId = `bench-export-${from / PER_JOB}`;
    const n = Math.min(PER_JOB, N - from);
    const urls = Array.from({ length: n }, (_, k) => `https://shop.example/catalogue/item-${from + k}`);
    const kept = await keepBodies(
      urls.map((_, k) => ({ markdown: body(from + k, MIN + Math.floor(random() * (MAX - MIN + 1))), html: null })),
    );
    await db().job.create({
      data: { id: jobId, kind: "batch", url: urls[0]!, origin: "submitted", outcome: "stored", resultCount: n },
    });
    await db().result.createMany({
      data: kept.map((k, i) => ({
        jobId,
        itemKey: String(i),
        url: urls[i],
        status: "completed",
        format: "markdown",
        markdown: k.markdown,
        markdownKey: k.markdownKey,
        markdownCodec: k.markdownCodec,
        markdownSize: k.markdownSize,
        metadata: JSON.stringify({ url: urls[i], status_code: 200 }),
      })),
    });
    await db().runUrl.createMany({
      data: urls.map((url, i) => ({
        runId,
        position: from + i,
        url,
        state: "stored",
        attempts: 1,
        jobId,
        itemKey: String(i),
      })),
    });
  }
}

type Measured = { rows: number; bytes: number; seconds: number; rssGrowth: number; heapAtQuarters: number[] };

/**
 * Reads an export's stream to its end, counting rows (line ends: CRLF in the CSV, whose quoted bodies
 * hold bare LFs; LF in JSON Lines) and sampling memory at each quarter of them.
 */
async function measure(stream: ReadableStream<Uint8Array>, expectedRows: number, crlf: boolean): Promise<Measured> {
  const gc = z.function().optional().parse(Reflect.get(globalThis, "gc"));
  gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  const heapAtQuarters: number[] = [];
  let rows = 0;
  let bytes = 0;
  let lastByte = 0;
  const t = performance.now();
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    let at = value.indexOf(10);
    while (at !== -1) {
      // A CRLF split across chunks: the CR ends the previous chunk.
      if (!crlf || (at > 0 ? value[at - 1] === 13 : lastByte === 13)) rows++;
      at = value.indexOf(10, at + 1);
    }
    lastByte = value[value.length - 1] ?? lastByte;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    while (heapAtQuarters.length < 4 && rows >= (expectedRows * (heapAtQuarters.length + 1)) / 4 - 1) {
      gc?.();
      heapAtQuarters.push(process.memoryUsage().heapUsed - base.heapUsed);
    }
  }
  return { rows, bytes, seconds: (performance.now() - t) / 1000, rssGrowth: peakRss - base.rss, heapAtQuarters };
}

async function main(): Promise<void> {
  say(machine());
  if (typeof Reflect.get(globalThis, "gc") !== "function")
    throw new Error("run with --expose-gc (npm run bench:exports)");
  const runId = "bench-export-run";
  const started = Date.now();
  await seed(runId);
  say(
    `Seeded a run of ${fmt(N)} URLs, each stored with a body of ${fmt(MIN)}–${fmt(MAX)} bytes in the body store (cache of texts ${values["cache-mb"]} MB), in ${fmt((Date.now() - started) / 1000, 1)} s\n`,
  );
  const { exportRunCsv, exportRunJsonl } = await import("@/lib/results/run-export");
  const { exportResults } = await import("@/lib/results/export");
  const { exportQuerySchema } = await import("@/lib/results/contracts");
  const { closeBodyStore } = await import("@/lib/bodies");
  const { disconnectAll } = await import("@/lib/db");
  const cases: Array<[string, () => Promise<ReadableStream<Uint8Array>>, number, boolean]> = [
    ["run export, CSV", async () => (await exportRunCsv(runId)).body, N + 1, true],
    ["run export, JSON Lines", async () => (await exportRunJsonl(runId)).body, N, false],
    [
      "results export, JSON Lines",
      async () => exportResults(exportQuerySchema.parse({ format: "jsonl" })).body,
      N,
      false,
    ],
  ];
  for (const [name, open, expected, crlf] of cases) {
    const m = await measure(await open(), expected, crlf);
    say(
      `${name}: ${fmt(m.rows)} lines, ${mb(m.bytes)} in ${fmt(m.seconds, 1)} s (${fmt(m.rows / m.seconds)} rows/s); live heap over its start at each quarter of the rows (after GC): ${m.heapAtQuarters.map((h) => mb(h)).join(", ")}; peak RSS growth ${mb(m.rssGrowth)}`,
    );
    if (m.rows !== expected) throw new Error(`${name}: ${m.rows} lines, expected ${expected}`);
  }
  await closeBodyStore();
  await disconnectAll();
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  });
