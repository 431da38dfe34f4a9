// A body store that stops answering while Tally serves (issue 40: "once running … nothing lost"), on
// S3 (an s3rver behind a TCP proxy the test takes down: connections refused, as in a network outage)
// and the suite's store, against the built server over real HTTP. The results API and the feed answer
// 200 with each row saying body_unavailable (issue 50: never a 5xx, never a page with bodies quietly
// missing); the exports finish with every row, each saying body_unavailable; the job page's preview
// says so by result; the outcome events and sinks
// (which pass bodies on) are given the error to retry, not an empty body; tally_body_unavailable_total
// counts it. Once the store answers again, the same requests give the bodies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { getJobDetail } from "@/lib/jobs/detail";
import { readFeed, resolveBodies, resultName } from "@/lib/results";
import { createTestDb, type TestDb } from "./db";
import { startS3Server, type S3Server } from "./s3";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";
import { startProxy, type Proxy } from "./tcp-proxy";
import { TEST_STORE } from "./store";

const JOB = "unavailable-job";
const page = (seed: string, kb = 30) =>
  Array.from({ length: kb * 16 }, (_, i) => `${seed} paragraph ${i} of a stored page, with words.`).join("\n");

describe(`a body store that stops answering (S3, ${TEST_STORE})`, () => {
  let s3: S3Server;
  let proxy: Proxy;
  let t: TestDb;
  let tally: TallyServer;
  const saved = { ...process.env };
  const bodies = Array.from({ length: 3 }, (_, i) => page(`unavailable ${i}`));
  const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
  const get = (p: string) => fetch(tally.url + p, { headers: auth });

  beforeAll(async () => {
    s3 = await startS3Server("tally-unavailable");
    proxy = await startProxy(s3.port);
    const env = {
      ...s3.env(`http://127.0.0.1:${proxy.port}`),
      TALLY_BODY_STORE: "s3://tally-unavailable/b?forcePathStyle=true",
    };
    const { TALLY_BODY_STORE, ...aws } = env;
    Object.assign(process.env, aws);
    t = await createTestDb({ TALLY_BODY_STORE });
    await db().job.create({
      data: {
        id: JOB,
        kind: "batch",
        url: "https://example.com",
        origin: "submitted",
        outcome: "stored",
        resultCount: 3,
      },
    });
    const kept = await keepBodies(bodies.map((markdown) => ({ markdown, html: null })));
    expect(kept.every((k) => k.markdownKey !== null)).toBe(true);
    await db().result.createMany({
      data: kept.map((k, i) => ({
        jobId: JOB,
        itemKey: String(i),
        url: `https://example.com/${i}`,
        format: "markdown",
        markdownKey: k.markdownKey,
        markdownCodec: k.markdownCodec,
        markdownSize: k.markdownSize,
      })),
    });
    tally = await startTally(env, t.url);
  }, 120_000);

  afterAll(async () => {
    await tally?.stop();
    await t?.cleanup();
    await proxy?.close();
    await s3?.stop();
    process.env = saved;
  });

  it("answers with the bodies while the store answers", async () => {
    const res = await get(`/api/jobs/${JOB}/results`);
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: Array<{ markdown: string | null; bodyError: string | null }> };
    expect(items.map((r) => r.markdown)).toEqual(bodies);
    expect(items.every((r) => r.bodyError === null)).toBe(true);
  });

  it("once it stops: 200 with body_unavailable by row for JSON answers and in exports", async () => {
    await proxy.down();

    for (const p of [`/api/jobs/${JOB}/results`, "/api/results"]) {
      const res = await get(p);
      expect(res.status, p).toBe(200);
      const { items } = (await res.json()) as { items: Array<{ markdown: string | null; bodyError: string | null }> };
      expect(items, p).toHaveLength(3);
      for (const r of items) {
        expect(r.markdown, p).toBeNull();
        // The bearer token is an admin's: the store's own words after the plain ones.
        expect(r.bodyError, p).toMatch(
          /^body_unavailable: the markdown of result \d of job unavailable-job cannot be read now \(try again\): body [0-9a-f]{64} cannot be read now: the body store at s3:\/\/tally-unavailable\/b/,
        );
      }
    }

    for (const format of ["jsonl", "csv"]) {
      const res = await get(`/api/results/export?format=${format}&jobId=${JOB}`);
      expect(res.status, format).toBe(200);
      const text = await res.text();
      if (format === "jsonl") {
        const rows = text
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { itemKey: string; markdown: string | null; bodyError: string | null });
        expect(rows.map((r) => r.itemKey)).toEqual(["0", "1", "2"]);
        for (const r of rows) {
          expect(r.markdown).toBeNull();
          expect(r.bodyError).toMatch(
            /^body_unavailable: the markdown of result \d of job unavailable-job cannot be read now/,
          );
        }
      } else {
        expect(text.match(/body_unavailable: the markdown of result/g)).toHaveLength(3);
      }
    }

    // The job page's preview (in this process, through the same proxy): said by result.
    const shown = (await getJobDetail(JOB)).results.shown;
    expect(shown.length).toBeGreaterThan(0);
    for (const r of shown) expect(r.bodyError).toMatch(/^body_unavailable: /);
    // The feed read in this process: said by row too.
    const feed = await readFeed({ after: undefined, limit: 10 });
    expect(feed.items.map((r) => r.bodyError?.split(":")[0])).toEqual(Array(3).fill("body_unavailable"));
    // What passes bodies on (sinks, outcome events) gets the error, to retry: never an item without its body.
    const rows = await db().result.findMany({ where: { jobId: JOB }, orderBy: { id: "asc" } });
    await expect(resolveBodies(rows, resultName)).rejects.toMatchObject({ code: "body_unavailable" });

    const metrics = await (await get("/api/metrics")).text();
    const counted = metrics
      .split("\n")
      .filter((l) => l.startsWith("tally_body_unavailable_total"))
      .reduce((n, l) => n + Number(l.split(" ").pop()), 0);
    expect(counted).toBeGreaterThanOrEqual(3);
  });

  it("gives the bodies again once the store is back", async () => {
    await proxy.up();
    // Within seconds: a store that failed reads in a row is not asked for a few (lib/bodies' DOWN_FOR_MS).
    let items: Array<{ markdown: string | null }> = [];
    for (let i = 0; i < 50; i++) {
      const res = await get(`/api/jobs/${JOB}/results`);
      expect(res.status).toBe(200);
      items = ((await res.json()) as { items: typeof items }).items;
      if (items.every((r) => r.markdown !== null)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(items.map((r) => r.markdown)).toEqual(bodies);
    const feed = await get("/api/results");
    expect(feed.status).toBe(200);
  });
});
