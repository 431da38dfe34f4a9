// tsx --conditions=react-server bench/storage.ts --store sqlite|postgres [--urls 100] [--runs 30] [--change 0.05]
//   [--min-bytes 20000] [--max-bytes 200000] [--inline-urls N] [--result FILE]
// --inline-urls stores the inline comparison with a smaller collection (its per-result figures do not
// depend on the collection's size): 10,000 URLs × 30 runs inline would be ~130 GB of rows.
// Page bodies in the body store against inline (issue 40), on one store per process: a collection of
// N URLs fetched `runs` times, `change` of its pages different on each run (the simulator's pages at
// realistic sizes: markdown of min–max bytes, html about three times that), stored twice in the same
// process, in two fresh databases: once through the store path's keep-bodies step (bodies in a file
// body store, references in the rows) and once inline as before issue 40. Reported: database bytes
// added per stored result (the URL's text excluded), the body store's bytes on disk against the
// compressed size of the distinct bodies, the results API p95 (a page of 20 of one run's results) and
// the export's rows per second (one run's results as JSON Lines), each beside the inline figure.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { machine } from "./common";
import { pgAdmin, pgDatabaseUrl } from "./bench-db";

const { values } = parseArgs({
  options: {
    store: { type: "string", default: "sqlite" },
    urls: { type: "string", default: "100" },
    runs: { type: "string", default: "30" },
    change: { type: "string", default: "0.05" },
    "min-bytes": { type: "string", default: "20000" },
    "max-bytes": { type: "string", default: "200000" },
    "inline-urls": { type: "string" },
    result: { type: "string" },
  },
  strict: true,
});
const STORE_N = Number(values.urls);
const INLINE_N = Math.min(STORE_N, Number(values["inline-urls"] ?? values.urls));
const RUNS = Number(values.runs);
const CHANGE = Number(values.change);
const BODY_BYTES: [number, number] = [Number(values["min-bytes"]), Number(values["max-bytes"])];
const STORE = values.store === "postgres" ? "postgres" : "sqlite";
const say = (s: string) => process.stdout.write(`${s}\n`);
process.env.TALLY_LOG_LEVEL ??= "error";

const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-storage-"));
const pgNames: string[] = [];

function databaseUrl(mode: string): string {
  if (STORE === "sqlite") return `file:${path.join(dir, `${mode}.db`)}`;
  const name = `tally_bench_storage_${mode}_${process.pid}`;
  pgNames.push(name);
  return pgDatabaseUrl(name);
}

/** Bytes the database holds: the SQLite file after a checkpoint, or PostgreSQL's database size. */
async function dbBytes(url: string): Promise<number> {
  const { db } = await import("@/lib/db");
  if (STORE === "sqlite") {
    await db().$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    return statSync(url.slice("file:".length)).size;
  }
  await db().$executeRawUnsafe(`VACUUM ANALYZE "Result"`);
  const [r] = await db().$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT pg_database_size(current_database()) AS n`);
  return Number(r.n);
}

/** What `du` says the folder takes (bytes; the blocks an operator's disk gives it), or null without du. */
function duBytes(root: string): number | null {
  try {
    return Number(execFileSync("du", ["-sk", root], { encoding: "utf8" }).split(/\s/)[0]) * 1024;
  } catch {
    return null;
  }
}

/** The body store's files: their bytes, and the space the file system gives them (blocks). */
async function storeBytes(root: string): Promise<{
  objects: number;
  bytes: number;
  allocated: number;
  folders: number;
  folderBytes: number;
  du: number | null;
}> {
  let objects = 0;
  let bytes = 0;
  let allocated = 0;
  let folders = 0;
  let folderBytes = 0;
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const at = path.join(d, e.name);
      if (e.isDirectory()) {
        const b = (await stat(at)).blocks * 512;
        allocated += b;
        folders++;
        folderBytes += b;
        await walk(at);
      } else {
        const s = await stat(at);
        objects++;
        bytes += s.size;
        allocated += s.blocks * 512;
      }
    }
  };
  await walk(root);
  return { objects, bytes, allocated, folders, folderBytes, du: duBytes(root) };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

type ModeResult = {
  mode: "store" | "inline";
  urls: number;
  rows: number;
  dbBytesPerResult: number;
  bodyStore: {
    objects: number;
    bytes: number;
    allocated: number;
    folders: number;
    folderBytes: number;
    du: number | null;
    compressedDistinct: number;
  } | null;
  apiP95Ms: number;
  exportRowsPerSecond: number;
  storeSeconds: number;
};

async function runMode(mode: "store" | "inline"): Promise<ModeResult> {
  const N = mode === "store" ? STORE_N : INLINE_N;
  const url = databaseUrl(mode);
  if (STORE === "postgres") await pgAdmin(`CREATE DATABASE "${url.split("/").pop()}"`);
  const schema = STORE === "postgres" ? ["--schema", "prisma/postgres/schema.prisma"] : [];
  execFileSync("npx", ["prisma", "migrate", "deploy", ...schema], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "pipe",
  });
  const bodiesRoot = path.join(dir, `bodies-${mode}`);
  const { parseConfig, setConfigForTests } = await import("@/lib/config");
  setConfigForTests(
    parseConfig({ ...process.env, NODE_ENV: "production", DATABASE_URL: url, TALLY_BODY_STORE: `file:${bodiesRoot}` }),
  );
  const { db, dbReady, disconnectAll } = await import("@/lib/db");
  const { closeBodyStore } = await import("@/lib/bodies");
  const { keepBodies } = await import("@/lib/jobs/keep-bodies");
  const { pageContent } = await import("@/lib/simulator/content");
  const { exportResults, listJobResults } = await import("@/lib/results");
  const { createRng } = await import("@/lib/simulator/rng");
  await dbReady();
  const before = await dbBytes(url);

  const urls = Array.from({ length: N }, (_, i) => `https://shop.example/catalogue/item-${i}`);
  const versions = new Array<number>(N).fill(0);
  const rng = createRng(7);
  const cache = new Map<number, { markdown: string | null; html: string | null }>();
  const content = (i: number) => {
    let c = cache.get(i);
    if (!c) {
      c = pageContent({
        seed: 42,
        url: urls[i],
        formats: ["markdown", "html"],
        extractLinks: false,
        hostileShare: 0,
        version: versions[i],
        bodyBytes: BODY_BYTES,
      });
      cache.set(i, c);
    }
    return c;
  };
  const distinct = new Map<string, number>();
  let rows = 0;
  let storeMs = 0;
  for (let r = 0; r < RUNS; r++) {
    if (r > 0)
      for (let i = 0; i < N; i++)
        if (rng.chance(CHANGE)) {
          versions[i]++;
          cache.delete(i);
        }
    if (N >= 2000)
      say(`${STORE} ${mode}: run ${r + 1}/${RUNS} (${rows} rows so far, ${(storeMs / 1000).toFixed(0)} s storing)`);
    const jobId = `bench-run-${r}`;
    await db().job.create({
      data: { id: jobId, kind: "batch", url: urls[0], origin: "submitted", outcome: "stored", resultCount: N },
    });
    for (let from = 0; from < N; from += 50) {
      const page = Array.from({ length: Math.min(50, N - from) }, (_, k) => {
        const i = from + k;
        const c = content(i);
        return { itemKey: String(i), url: urls[i], markdown: c.markdown, html: c.html };
      });
      const t0 = performance.now();
      const kept = mode === "store" ? await keepBodies(page) : null;
      await db().result.createMany({
        data: page.map((p, k) => {
          const row = kept?.[k];
          return {
            jobId,
            itemKey: p.itemKey,
            url: p.url,
            status: "completed",
            format: "both",
            markdown: row ? row.markdown : p.markdown,
            html: row ? row.html : p.html,
            markdownKey: row?.markdownKey ?? null,
            markdownCodec: row?.markdownCodec ?? null,
            markdownSize: row?.markdownSize ?? null,
            htmlKey: row?.htmlKey ?? null,
            htmlCodec: row?.htmlCodec ?? null,
            htmlSize: row?.htmlSize ?? null,
            metadata: JSON.stringify({ url: p.url, status_code: 200 }),
          };
        }),
      });
      storeMs += performance.now() - t0;
      rows += page.length;
      if (kept)
        for (const k of kept) {
          // The stored (compressed) size of each distinct body, from the objects themselves below.
          if (k.markdownKey) distinct.set(k.markdownKey, 0);
          if (k.htmlKey) distinct.set(k.htmlKey, 0);
        }
    }
  }
  const after = await dbBytes(url);
  const urlBytes = urls.reduce((n, u) => n + Buffer.byteLength(u), 0) / N;
  const dbBytesPerResult = (after - before) / rows - urlBytes;

  let bodyStore: ModeResult["bodyStore"] = null;
  if (mode === "store") {
    const files = await storeBytes(bodiesRoot);
    // Every distinct body's compressed size: the objects' own sizes (one object per distinct body).
    let compressedDistinct = 0;
    const { bodyStore: store } = await import("@/lib/bodies");
    for await (const o of store().list()) if (distinct.has(o.key)) compressedDistinct += o.storedSize;
    bodyStore = { ...files, compressedDistinct };
  }

  // Results API: pages of 20 of one run's results (the handler's own function), 40 samples.
  const samples: number[] = [];
  for (let s = 0; s < 40; s++) {
    const job = `bench-run-${s % RUNS}`;
    const t0 = performance.now();
    await listJobResults(job, { limit: 20, cursor: [Math.floor((s * 7) % Math.max(1, N - 20))] });
    samples.push(performance.now() - t0);
  }
  // The export: the last run's results as JSON Lines, read to the end.
  const t0 = performance.now();
  const out = exportResults({ format: "jsonl", jobId: `bench-run-${RUNS - 1}` });
  let exported = 0;
  const reader = out.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const b of value) if (b === 10) exported++;
  }
  const exportRowsPerSecond = exported / ((performance.now() - t0) / 1000);
  await closeBodyStore();
  await disconnectAll();
  setConfigForTests(undefined);
  return {
    mode,
    urls: N,
    rows,
    dbBytesPerResult,
    bodyStore,
    apiP95Ms: pct(samples, 95),
    exportRowsPerSecond,
    storeSeconds: storeMs / 1000,
  };
}

async function main() {
  say(machine());
  say(
    `${STORE}: ${STORE_N.toLocaleString("en-US")} URLs × ${RUNS} runs (inline: ${INLINE_N.toLocaleString("en-US")} URLs), ${(CHANGE * 100).toFixed(0)}% changed per run, markdown ${BODY_BYTES[0]}–${BODY_BYTES[1]} bytes (html about 3×)`,
  );
  const store = await runMode("store");
  const inline = await runMode("inline");
  const bs = store.bodyStore!;
  const storeTotal = store.dbBytesPerResult * store.rows + bs.allocated;
  // Inline at the store's row count (per-result bytes times rows) when it ran with fewer URLs.
  const inlineTotal = inline.dbBytesPerResult * store.rows;
  say(
    `${STORE}: database bytes per stored result (URL excluded): body store ${store.dbBytesPerResult.toFixed(0)}, inline ${inline.dbBytesPerResult.toFixed(0)} (${(inline.dbBytesPerResult / store.dbBytesPerResult).toFixed(0)}× less)`,
  );
  say(
    `${STORE}: body store ${bs.objects} objects, ${(bs.bytes / 1e6).toFixed(1)} MB of objects (${(bs.bytes / bs.compressedDistinct).toFixed(2)}× the ${(bs.compressedDistinct / 1e6).toFixed(1)} MB of compressed distinct bodies); on disk ${(bs.allocated / 1e6).toFixed(1)} MB in blocks, of which ${bs.folders} folders ${(bs.folderBytes / 1e6).toFixed(1)} MB: ${(bs.allocated / bs.compressedDistinct).toFixed(2)}×; du -sk ${bs.du === null ? "n/a" : `${(bs.du / 1e6).toFixed(1)} MB: ${(bs.du / bs.compressedDistinct).toFixed(2)}×`}`,
  );
  say(
    `${STORE}: all bytes (database + body store) ${(storeTotal / 1e6).toFixed(1)} MB against ${(inlineTotal / 1e6).toFixed(1)} MB inline: ${(inlineTotal / storeTotal).toFixed(1)}× smaller`,
  );
  say(
    `${STORE}: results API p95 (pages of 20) ${store.apiP95Ms.toFixed(1)} ms vs ${inline.apiP95Ms.toFixed(1)} ms inline (${(inline.apiP95Ms / store.apiP95Ms).toFixed(2)}× the inline speed)`,
  );
  say(
    `${STORE}: run export ${store.exportRowsPerSecond.toFixed(0)} rows/s vs ${inline.exportRowsPerSecond.toFixed(0)} rows/s inline (${(store.exportRowsPerSecond / inline.exportRowsPerSecond).toFixed(2)}×)`,
  );
  say(
    `${STORE}: storing took ${store.storeSeconds.toFixed(1)} s with the body store (${((store.storeSeconds * 1000) / store.rows).toFixed(1)} ms a result), ${inline.storeSeconds.toFixed(1)} s inline (${((inline.storeSeconds * 1000) / inline.rows).toFixed(1)} ms a result)`,
  );
  if (values.result)
    writeFileSync(
      values.result,
      JSON.stringify({
        store: STORE,
        urls: STORE_N,
        inlineUrls: INLINE_N,
        runs: RUNS,
        change: CHANGE,
        bodyBytes: BODY_BYTES,
        modes: [store, inline],
      }),
    );
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const name of pgNames) await pgAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
  });
