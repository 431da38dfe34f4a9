// tsx --conditions=react-server bench/collections.ts --store sqlite|postgres [--urls 100000] [--result FILE]
// Change tracking at scale (issue 25), in one process per store (the lib's database comes from
// DATABASE_URL): a fresh migrated database holds a collection with two completed runs of N URLs each
// (the previous one all stored; the current one with 2% changed, 1% new, 1% gone), and the real
// classifyRun is timed (best of 3; it replaces its rows each time). Then the overhead on a 20,000-URL
// run: the fingerprints of 20,000 simulator pages (with one ignore pattern) and the classification of
// 20,000 URLs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { machine } from "./common";
import { pgAdmin, pgDatabaseUrl } from "./bench-db";

const { values } = parseArgs({
  options: {
    store: { type: "string", default: "sqlite" },
    urls: { type: "string", default: "100000" },
    result: { type: "string" },
  },
  strict: true,
});
const N = Number(values.urls);
const STORE = values.store === "postgres" ? "postgres" : "sqlite";
const say = (s: string) => process.stdout.write(`${s}\n`);

const dir = mkdtempSync(path.join(os.tmpdir(), "tally-bench-collections-"));
const pgName = `tally_bench_collections_${process.pid}`;
let url = `file:${path.join(dir, "tally.db")}`;
if (STORE === "postgres") url = pgDatabaseUrl(pgName);
// Set before the first getConfig(): the lib reads its database from the configuration.
process.env.DATABASE_URL = url;
process.env.TALLY_LOG_LEVEL ??= "error";

type Seeded = { collectionId: string; prev: string; cur: string };

async function seed(n: number, tag: string): Promise<Seeded> {
  const { db } = await import("@/lib/db");
  const collectionId = `bench-${tag}`;
  await db().collection.create({
    data: { id: collectionId, name: tag, urls: "", urlCount: n, createdBy: "bench" },
  });
  const runs = [`${tag}-prev`, `${tag}-cur`];
  for (const [i, id] of runs.entries())
    await db().run.create({
      data: {
        id,
        name: id,
        state: "completed",
        total: n,
        stored: n,
        batchSize: 1000,
        request: "{}",
        createdBy: "bench",
        createdAt: new Date(Date.now() - (2 - i) * 86_400_000),
        collectionId,
        trigger: "schedule",
        changeRules: "[]",
      },
    });
  const fp = (pos: number, v: number) => `${String(pos).padStart(8, "0")}-${v}`.padEnd(64, "f");
  const CHUNK = 5000;
  for (let from = 0; from < n; from += CHUNK) {
    const positions = Array.from({ length: Math.min(CHUNK, n - from) }, (_, k) => from + k);
    await db().runUrl.createMany({
      data: positions.map((p) => ({
        runId: runs[0] ?? "",
        position: p,
        url: `https://shop.example/p/${p}`,
        state: "stored",
        fingerprint: fp(p, 0),
        resultId: p + 1,
      })),
    });
    // The current run: every 100th URL is new (a URL not in the previous run), every 100th + 1 failed
    // (gone), every 50th + 2 changed; the rest unchanged.
    await db().runUrl.createMany({
      data: positions.map((p) => {
        const isNew = p % 100 === 0;
        const gone = p % 100 === 1;
        const changed = p % 50 === 2;
        return {
          runId: runs[1] ?? "",
          position: p,
          url: isNew ? `https://shop.example/new/${p}` : `https://shop.example/p/${p}`,
          state: gone ? "failed" : "stored",
          fingerprint: gone ? null : fp(p, changed ? 1 : 0),
          resultId: gone ? null : n + p + 1,
        };
      }),
    });
  }
  return { collectionId, prev: runs[0] ?? "", cur: runs[1] ?? "" };
}

async function timeClassify(runId: string, times: number) {
  const { classifyRun } = await import("@/lib/collections");
  let best = Infinity;
  let counts = null;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    counts = await classifyRun(runId);
    best = Math.min(best, performance.now() - t0);
  }
  return { seconds: best / 1000, counts };
}

async function main() {
  say(machine());
  if (STORE === "postgres") await pgAdmin(`CREATE DATABASE "${pgName}"`);
  const schema = STORE === "postgres" ? ["--schema", "prisma/postgres/schema.prisma"] : [];
  execFileSync("npx", ["prisma", "migrate", "deploy", ...schema], { env: process.env, stdio: "pipe" });

  let t0 = performance.now();
  const big = await seed(N, "big");
  say(
    `${STORE}: seeded 2 runs of ${N.toLocaleString("en-US")} URLs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const classify = await timeClassify(big.cur, 3);
  say(
    `${STORE}: classify ${N.toLocaleString("en-US")} URLs against the previous run: ${classify.seconds.toFixed(2)} s (best of 3) ${JSON.stringify(classify.counts)}`,
  );

  // The overhead on a 20,000-URL run: fingerprints of 20,000 simulator pages and one classification.
  const M = 20_000;
  const { pageContent } = await import("@/lib/simulator/content");
  const { fingerprint, compileRules } = await import("@/lib/runs");
  const rules = compileRules(JSON.stringify(["Fetched at \\S+"]));
  const pages = Array.from({ length: M }, (_, i) =>
    pageContent({
      seed: 42,
      url: `https://shop.example/volatile/${i}`,
      formats: ["markdown"],
      extractLinks: false,
      hostileShare: 0,
    }),
  );
  const bytes = pages.reduce((s, p) => s + (p.markdown?.length ?? 0), 0);
  t0 = performance.now();
  for (const p of pages) fingerprint(p.markdown, p.html, rules);
  const fingerprintSeconds = (performance.now() - t0) / 1000;
  say(
    `${STORE}: fingerprint ${M.toLocaleString("en-US")} pages (${(bytes / M).toFixed(0)} characters each on average, one ignore pattern): ${fingerprintSeconds.toFixed(2)} s`,
  );
  const small = await seed(M, "small");
  const classifySmall = await timeClassify(small.cur, 3);
  say(`${STORE}: classify ${M.toLocaleString("en-US")} URLs: ${classifySmall.seconds.toFixed(2)} s (best of 3)`);
  const overhead = fingerprintSeconds + classifySmall.seconds;
  say(
    `${STORE}: change tracking on a ${M.toLocaleString("en-US")}-URL run adds ${overhead.toFixed(2)} s: under 5% of any run that takes longer than ${(overhead * 20).toFixed(0)} s`,
  );

  const { disconnectAll } = await import("@/lib/db");
  await disconnectAll();
  if (values.result)
    writeFileSync(
      values.result,
      JSON.stringify({
        store: STORE,
        urls: N,
        classifySeconds: classify.seconds,
        fingerprintSeconds20k: fingerprintSeconds,
        classifySeconds20k: classifySmall.seconds,
        overheadSeconds20k: overhead,
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
    if (STORE === "postgres") await pgAdmin(`DROP DATABASE IF EXISTS "${pgName}" WITH (FORCE)`).catch(() => undefined);
  });
