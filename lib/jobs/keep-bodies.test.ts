// Page bodies out of the rows (issue 40): the store path puts each body over the inline threshold into
// the body store before the row's transaction and the row keeps key, codec and size; every reader gets
// the text back through lib/results/bodies.ts, byte for byte; an unusable store fails the queue item
// (retried, nothing written) and a missing or corrupt object is said so, naming the result, never a
// throw and never an empty body. Against the simulator over real HTTP, through the real queue and
// worker, on the file store the test's database has beside it (test/db.ts).
import { readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyStore, INLINE_MAX_BYTES } from "@/lib/bodies";
import { getConfig, parseConfig, setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { metrics } from "@/lib/metrics/registry";
import { exportResults, listJobResults, readFeed } from "@/lib/results";
import { getJobDetail } from "./detail";
import { PAGE_SIZE, setupPipeline, type Pipeline } from "./jobs.test-util";
import { submitJob } from "./submit";

let p: Pipeline;
beforeAll(async () => {
  p = await setupPipeline();
  // Realistic pages: 20-40 KB of markdown, about three times that of html.
  expect((await p.sim.control("/_sim/config", { bodyBytes: [20_000, 40_000], hostileShare: 0 })).status).toBe(200);
});
afterAll(() => p?.close());

const rows = (jobId: string) => db().result.findMany({ where: { jobId }, orderBy: { id: "asc" } });
const bodiesDir = () => getConfig().TALLY_BODY_STORE.slice("file:".length);

async function objectFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const at = path.join(dir, e.name);
      if (e.isDirectory()) await walk(at);
      else if (!e.name.startsWith(".")) out.push(at);
    }
  };
  await walk(bodiesDir());
  return out;
}

const missingCount = async (code: string) =>
  (await metrics().bodyMissing.get()).values.filter((v) => v.labels.code === code).reduce((n, v) => n + v.value, 0);

/**
 * The job's first result in the change feed. On PostgreSQL the feed shows a commit once no older
 * transaction is open anywhere on the server (lib/results/position.ts), which other test files' work
 * can hold back for a moment: polled.
 */
async function feedItem(jobId: string) {
  for (const end = Date.now() + 15_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const [item] = (await readFeed({ limit: 100, jobId, after: undefined })).items;
    if (item || Date.now() > end) return item;
  }
}

async function jsonl(body: ReadableStream<Uint8Array>): Promise<Array<Record<string, unknown>>> {
  const text = await new Response(body).text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("the store path keeps references, the readers give the text back", () => {
  it("extract: both bodies in the store, the row names them, and every reader returns them as served", async () => {
    const url = "https://example.com/kept/extract";
    const { jobId } = await submitJob({ kind: "extract", url, formats: ["markdown", "html"] });
    const job = await p.settleAndProcess("extract", jobId);
    expect(job.outcome).toBe("stored");
    const served = (await p.client.getJob("extract", jobId)).raw as { data?: { markdown?: string; html?: string } };
    const md = served.data?.markdown ?? "";
    const html = served.data?.html ?? "";
    expect(Buffer.byteLength(md)).toBeGreaterThanOrEqual(20_000);
    expect(html.length).toBeGreaterThan(2.5 * md.length);

    const [row] = await rows(jobId);
    expect(row).toMatchObject({
      format: "both",
      markdown: null,
      html: null,
      markdownCodec: "br",
      htmlCodec: "br",
      markdownSize: Buffer.byteLength(md),
      htmlSize: Buffer.byteLength(html),
    });
    expect(row.markdownKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await bodyStore().has(row.markdownKey!)).toBe(true);
    expect(await bodyStore().has(row.htmlKey!)).toBe(true);

    const page = await listJobResults(jobId, { limit: 10, cursor: undefined });
    expect(page.items[0]).toMatchObject({ markdown: md, html, bodyError: null, format: "both" });
    expect(await feedItem(jobId)).toMatchObject({ markdown: md, html, bodyError: null });
    const exported = await jsonl(exportResults({ format: "jsonl", jobId }).body);
    expect(exported).toHaveLength(1);
    expect(exported[0]).toMatchObject({ markdown: md, html, bodyError: null });
    const detail = await getJobDetail(jobId);
    expect(detail.results.shown[0]).toMatchObject({ markdown: md, bodyError: null, truncated: false });
  });

  it("batch and crawl: every page's bodies kept, the same page stored by two jobs is one object", async () => {
    const urls = Array.from({ length: 2 * PAGE_SIZE + 1 }, (_, i) => `https://example.com/kept/b/${i}`);
    const first = await submitJob({ kind: "batch", urls, formats: ["markdown", "html"] });
    await p.settleAndProcess("batch", first.jobId);
    const before = (await objectFiles()).length;
    const again = await submitJob({ kind: "batch", urls, formats: ["markdown", "html"] });
    await p.settleAndProcess("batch", again.jobId);
    // The second job's pages are byte for byte the first's: no new object.
    expect((await objectFiles()).length).toBe(before);

    const a = await rows(first.jobId);
    const b = await rows(again.jobId);
    expect(a).toHaveLength(urls.length);
    for (const r of [...a, ...b]) {
      expect(r).toMatchObject({ markdown: null, html: null, format: "both" });
      expect(r.markdownSize).toBeGreaterThan(INLINE_MAX_BYTES);
    }
    expect(b.map((r) => r.markdownKey).sort()).toEqual(a.map((r) => r.markdownKey).sort());
    const listed = await listJobResults(again.jobId, { limit: 100, cursor: undefined });
    expect(listed.items.every((i) => i.bodyError === null && (i.markdown?.length ?? 0) >= 20_000)).toBe(true);

    const { jobId } = await submitJob({ kind: "crawl", url: "https://example.com/kept/", depth: 2, limit: 8 });
    const crawl = await p.settleAndProcess("crawl", jobId);
    expect(crawl.outcome).toBe("stored");
    const crawled = await rows(jobId);
    expect(crawled.length).toBeGreaterThan(1);
    expect(crawled.every((r) => r.markdown === null && r.markdownKey !== null)).toBe(true);
  });

  it("small bodies stay inline in the row, with no key", async () => {
    await p.sim.control("/_sim/config", { bodyBytes: [0, 0] });
    try {
      const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/small", formats: ["markdown"] });
      await p.settleAndProcess("extract", jobId);
      const [row] = await rows(jobId);
      expect(row.markdown).toBeTruthy();
      expect(Buffer.byteLength(row.markdown!)).toBeLessThanOrEqual(INLINE_MAX_BYTES);
      expect(row).toMatchObject({ markdownKey: null, markdownCodec: null, markdownSize: null, format: "markdown" });
      expect((await listJobResults(jobId, { limit: 1, cursor: undefined })).items[0]).toMatchObject({
        markdown: row.markdown,
        bodyError: null,
      });
    } finally {
      await p.sim.control("/_sim/config", { bodyBytes: [20_000, 40_000] });
    }
  });
});

describe("failures", () => {
  it("a store that cannot be written fails the queue item: nothing written, stored on the retry", async () => {
    const good = getConfig();
    // A regular file where the folder should be: every put fails.
    const blocker = path.join(p.t.dir, "not-a-folder");
    await writeFile(blocker, "x");
    setConfigForTests(parseConfig({ ...envOf(good), TALLY_BODY_STORE: `file:${blocker}` }));
    const { jobId } = await submitJob({
      kind: "extract",
      url: "https://example.com/kept/retry",
      formats: ["markdown"],
    });
    try {
      await p.waitSettled("extract", jobId);
      await p.enqueueJob(jobId, "extract");
      await p.drain();
      expect(await rows(jobId)).toHaveLength(0);
      const item = await db().queueItem.findFirstOrThrow({ where: { jobId }, orderBy: { id: "desc" } });
      expect(item.state).toBe("ready");
      expect(item.attempts).toBe(1);
      expect(item.lastError).toMatch(/not-a-folder/);
      expect((await db().job.findUniqueOrThrow({ where: { id: jobId } })).outcome).toBe("pending");
    } finally {
      setConfigForTests(good);
    }
    // The store back: the retry stores the job, once.
    await db().queueItem.updateMany({ where: { jobId, state: "ready" }, data: { availableAt: new Date(0) } });
    await p.drain();
    const [row] = await rows(jobId);
    expect(row.markdownKey).not.toBeNull();
    expect((await db().job.findUniqueOrThrow({ where: { id: jobId } })).outcome).toBe("stored");
  });

  it("a missing and a corrupt object: each reader says which body of which result, and counts it", async () => {
    const { jobId } = await submitJob({
      kind: "extract",
      url: "https://example.com/kept/lost",
      formats: ["markdown", "html"],
    });
    await p.settleAndProcess("extract", jobId);
    const [row] = await rows(jobId);
    const fileOf = (key: string) => path.join(bodiesDir(), key.slice(0, 2), key.slice(2, 4), `${key}.br`);
    const missingBefore = await missingCount("body_missing");
    const corruptBefore = await missingCount("body_corrupt");
    await rm(fileOf(row.markdownKey!));
    // Valid brotli of other bytes: decodes, but does not hash to the key.
    const other = await bodyStore().put(Buffer.from("x".repeat(5000)));
    const { readFile } = await import("node:fs/promises");
    await writeFile(fileOf(row.htmlKey!), await readFile(fileOf(other.key)));

    const [item] = (await listJobResults(jobId, { limit: 1, cursor: undefined })).items;
    expect(item.markdown).toBeNull();
    expect(item.html).toBeNull();
    expect(item.bodyError).toContain(`result 0 of job ${jobId}`);
    expect(item.bodyError).toMatch(/body_missing: the markdown of result 0 of job .* is missing/);
    expect(item.bodyError).toMatch(/body_corrupt: the html of result 0 of job .* is corrupt/);
    expect(await missingCount("body_missing")).toBe(missingBefore + 1);
    expect(await missingCount("body_corrupt")).toBe(corruptBefore + 1);

    expect((await feedItem(jobId)).bodyError).toContain(jobId);
    const exported = await jsonl(exportResults({ format: "jsonl", jobId }).body);
    expect(exported[0]).toMatchObject({ markdown: null, html: null, bodyError: expect.stringContaining(jobId) });
    const csv = await new Response(exportResults({ format: "csv", jobId }).body).text();
    expect(csv).toContain(`body_missing: the markdown of result 0 of job ${jobId}`);
    const detail = await getJobDetail(jobId);
    expect(detail.results.shown[0].bodyError).toContain(jobId);
  });
});

/** The environment a configuration was parsed from, enough to parse it again with a change. */
function envOf(c: ReturnType<typeof getConfig>): Record<string, string> {
  return {
    NODE_ENV: "test",
    DATABASE_URL: c.DATABASE_URL,
    TALLY_OPERATOR_PASSWORD: "correct horse battery",
    TALLY_API_TOKEN: "test-token-0123456789abcdef",
    TALLY_SESSION_SECRET: "test-session-secret-0123456789abcdef0123",
    SCRAPER_API_BASE_URL: p.sim.url,
    GEONODE_SCRAPER_API_KEY: "test-key",
    TALLY_API_RPS: "1000",
  };
}
