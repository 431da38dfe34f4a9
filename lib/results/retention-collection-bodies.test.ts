// A collection's "keep the bodies of the last N runs" (keepBodiesRuns, issue 40), on both stores and
// both body store backends (a folder; an s3rver in its own process): the API refuses a bad value naming
// the field and saves nothing; the retention pass removes the bodies of results of runs older than the
// collection's last N completed runs (a run still going keeps them), the rows, the runs' URL ledger
// and fingerprints stay, readers say "body removed by retention"; a body a newer run's row still
// names keeps its object through the sweep, one named only by expired rows goes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyStore, sweepBodies } from "@/lib/bodies";
import { createCollection, getCollection, readCollectionRequest, updateCollection } from "@/lib/collections";
import { db } from "@/lib/db";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { settingsView } from "@/lib/settings";
import { pruneHistory } from "@/lib/worker/retention";
import { createTestDb, type TestDb } from "@/test/db";
import { startS3Server, type S3Server } from "@/test/s3";
import { listJobResults, resolveRow } from ".";

let s3: S3Server | undefined;

async function startS3(): Promise<void> {
  s3 = await startS3Server("tally-keep-runs");
  // The standard AWS variables, as an operator sets them (openBodyStore leaves them to the SDK).
  s3.useEnv();
}

afterAll(() => s3?.stop());

const page = (seed: string) =>
  Array.from({ length: 300 }, (_, i) => `${seed} paragraph ${i} of a stored page with words.`).join("\n");

const json = (body: unknown, method = "POST") =>
  new Request("http://tally.test/api/collections", {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const MINUTE = 60_000;

describe.each(["file", "s3"] as const)("keepBodiesRuns on the %s store", (backend) => {
  let t: TestDb;

  beforeAll(async () => {
    if (backend === "s3") await startS3();
    t = await createTestDb(
      backend === "s3" ? { TALLY_BODY_STORE: `s3://tally-keep-runs/t${Date.now()}/bodies?forcePathStyle=true` } : {},
    );
    await bodyStore().check();
  });
  afterAll(() => t?.cleanup());

  it("refuses a bad value with a 400 naming keepBodiesRuns and saves nothing; null clears it", async () => {
    const base = { name: "kept runs", urls: ["https://shop.example/a"] };
    for (const bad of [0, -1, 1.5, "3", true, 100_001])
      await expect(readCollectionRequest(json({ ...base, keepBodiesRuns: bad }), "create")).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/keepBodiesRuns/),
      });
    expect(await db().collection.count()).toBe(0);

    const created = await createCollection(
      await readCollectionRequest(json({ ...base, keepBodiesRuns: 3 }), "create"),
      "test",
    );
    expect((await getCollection(created.id)).keepBodiesRuns).toBe(3);
    await expect(readCollectionRequest(json({ keepBodiesRuns: 0 }), "update")).rejects.toMatchObject({
      message: expect.stringMatching(/keepBodiesRuns/),
    });
    expect((await getCollection(created.id)).keepBodiesRuns).toBe(3);
    // Another setting alone leaves it; null clears it.
    await updateCollection(created.id, await readCollectionRequest(json({ overlap: "queue" }), "update"), "test");
    expect((await getCollection(created.id)).keepBodiesRuns).toBe(3);
    await updateCollection(created.id, await readCollectionRequest(json({ keepBodiesRuns: null }), "update"), "test");
    expect((await getCollection(created.id)).keepBodiesRuns).toBeNull();
    await db().collection.delete({ where: { id: created.id } });
  });

  it("removes the bodies of runs older than the last N completed; the rows, ledger and shared objects stay", async () => {
    const c = await createCollection(
      await readCollectionRequest(
        json({ name: "daily", urls: ["https://shop.example/same", "https://shop.example/news"], keepBodiesRuns: 2 }),
        "create",
      ),
      "test",
    );
    // Another collection without a limit: its old run keeps everything.
    const other = await createCollection(
      await readCollectionRequest(json({ name: "unlimited", urls: ["https://shop.example/x"] }), "create"),
      "test",
    );
    // Settings' body store card names the collections that set their own.
    expect((await settingsView()).bodyStore.collections).toEqual({
      count: 1,
      first: [{ id: c.id, name: "daily", keepBodiesRuns: 2 }],
    });
    const t0 = Date.now() - 10 * 24 * 60 * MINUTE;
    const same = page("the same page on every run");
    const runIds: string[] = [];
    const newsKeys: string[] = [];
    // Runs 0–3 completed, run 4 still going (the newest): 0 and 1 are past the last 2 completed.
    const makeRun = async (collectionId: string, n: number, state: string, at: Date) => {
      const runId = `${collectionId}-run-${n}`;
      await db().run.create({
        data: {
          id: runId,
          name: `run ${n}`,
          state,
          total: 2,
          batchSize: 100,
          request: "{}",
          createdBy: "test",
          collectionId,
          createdAt: at,
        },
      });
      const jobId = `${runId}-job`;
      await db().job.create({ data: { id: jobId, kind: "batch", url: "https://shop.example/same", origin: "run" } });
      const chunk = await db().runChunk.create({
        data: { runId, seq: 0, size: 2, firstUrl: "https://shop.example/same", state: "settled", jobId },
      });
      const kept = await keepBodies([
        { markdown: same, html: `<main>${same}</main>` },
        { markdown: page(`news of ${runId}`), html: null },
      ]);
      for (const [i, k] of kept.entries()) {
        const r = await db().result.create({
          data: {
            jobId,
            itemKey: String(i),
            url: i === 0 ? "https://shop.example/same" : "https://shop.example/news",
            format: k.htmlKey ? "both" : "markdown",
            markdownKey: k.markdownKey,
            markdownCodec: k.markdownCodec,
            markdownSize: k.markdownSize,
            htmlKey: k.htmlKey,
            htmlCodec: k.htmlCodec,
            htmlSize: k.htmlSize,
            createdAt: at,
          },
        });
        await db().runUrl.create({
          data: {
            runId,
            position: i,
            url: r.url!,
            state: "stored",
            chunkId: chunk.id,
            jobId,
            itemKey: String(i),
            fingerprint: k.markdownKey,
            resultId: r.id,
          },
        });
      }
      // A failed item: no body, never marked.
      await db().result.create({ data: { jobId, itemKey: "9", format: "markdown", status: "failed", createdAt: at } });
      return { runId, jobId, newsKey: kept[1].markdownKey! };
    };
    for (let n = 0; n < 5; n++) {
      const r = await makeRun(c.id, n, n === 4 ? "active" : "completed", new Date(t0 + n * MINUTE));
      runIds.push(r.runId);
      newsKeys.push(r.newsKey);
    }
    const unlimited = await makeRun(other.id, 0, "completed", new Date(t0));
    const resultsBefore = await db().result.count();
    const ledgerBefore = await db().runUrl.findMany({ orderBy: [{ runId: "asc" }, { position: "asc" }] });

    const pruned = await pruneHistory({ pauseMs: 0 });
    expect(pruned["collection run bodies"]).toBe(4);
    expect(pruned["result bodies"]).toBe(0);
    // The rows and the URL ledger (states, fingerprints, result ids) are untouched.
    expect(await db().result.count()).toBe(resultsBefore);
    expect(await db().runUrl.findMany({ orderBy: [{ runId: "asc" }, { position: "asc" }] })).toEqual(ledgerBefore);

    for (const [n, runId] of runIds.entries()) {
      const page = await listJobResults(`${runId}-job`, { limit: 10, cursor: undefined });
      const stored = page.items.filter((i) => i.status === "completed");
      expect(stored).toHaveLength(2);
      for (const i of stored) {
        if (n < 2) {
          expect(i).toMatchObject({ markdown: null, html: null });
          expect(i.bodyError).toMatch(/^body removed by retention on \d{4}-/);
        } else {
          expect(i.bodyError).toBeNull();
          expect(i.markdown).toMatch(/paragraph 299/);
        }
      }
      expect(page.items.find((i) => i.status === "failed")?.bodyError ?? null).toBeNull();
    }
    for (const r of await db().result.findMany({ where: { jobId: `${unlimited.runId}-job`, status: "completed" } }))
      expect((await resolveRow(r, "unlimited")).bodyError).toBeNull();
    // Marked done: a second pass finds nothing, and does not look at those runs again.
    const marked = await db().run.findMany({ where: { bodiesExpiredAt: { not: null } }, select: { id: true } });
    expect(marked.map((r) => r.id).sort()).toEqual(runIds.slice(0, 2).sort());
    expect((await pruneHistory({ pauseMs: 0 }))["collection run bodies"]).toBe(0);

    // The sweep: the old runs' own pages go; the page newer runs still name stays, readable.
    const swept = await sweepBodies({ graceMs: 0, now: new Date(Date.now() + 5_000) });
    expect(swept.deleted).toBe(2);
    expect(await bodyStore().has(newsKeys[0])).toBe(false);
    expect(await bodyStore().has(newsKeys[1])).toBe(false);
    for (const k of newsKeys.slice(2)) expect(await bodyStore().has(k)).toBe(true);
    const shared = await db().result.findFirstOrThrow({ where: { jobId: `${runIds[2]}-job`, itemKey: "0" } });
    expect(await bodyStore().has(shared.markdownKey!)).toBe(true);
    expect(await bodyStore().has(shared.htmlKey!)).toBe(true);
    expect(await resolveRow(shared, "shared")).toMatchObject({ markdown: same, bodyError: null });

    // Run 4 completes and a new one is made: now run 2 is past the last 2 completed.
    await db().run.update({ where: { id: runIds[4] }, data: { state: "completed" } });
    expect((await pruneHistory({ pauseMs: 0 }))["collection run bodies"]).toBe(2);
    const listed = await listJobResults(`${runIds[2]}-job`, { limit: 10, cursor: undefined });
    for (const i of listed.items.filter((x) => x.status === "completed"))
      expect(i.bodyError).toMatch(/body removed by retention/);
  });
});
