// Reading bodies from the body store (issue 40): an object flipped inside its compressed stream, cut
// short, replaced by another body's or deleted is `bodyError` (body_corrupt, body_missing) on the
// results API, both exports and the job page's preview, on every read, on both backends (a folder; an
// s3rver in its own process) and both databases. The process's cache of texts (on, at its default)
// never hides it: a body read before and lost or cut since is said so too, and one changed in place at
// the same size is served as its key's own bytes, which `bodies verify` (reading the objects) reports.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { getJobDetail } from "@/lib/jobs/detail";
import { metrics } from "@/lib/metrics/registry";
import { createTestDb, type TestDb } from "@/test/db";
import { objectsBehind, type ObjectsBehind, startS3Server, type S3Server } from "@/test/s3";
import { exportResults, listJobResults, verifyBodies } from ".";

const BUCKET = "tally-reads";
let s3: S3Server | undefined;

async function startS3(): Promise<void> {
  s3 = await startS3Server(BUCKET);
  // The standard AWS variables, as an operator sets them.
  s3.useEnv();
}

afterAll(() => s3?.stop());

/** A page-like body of about `kb` KiB, different per `seed`. */
const page = (seed: string, kb = 30) =>
  Array.from({ length: kb * 16 }, (_, i) => `${seed} paragraph ${i} of a stored page, with words.`).join("\n");

const cacheReads = async () =>
  (await metrics().bodyReads.get()).values.filter((v) => v.labels.source === "cache").reduce((n, v) => n + v.value, 0);

/** A job of `n` results, each with its markdown and html in the store; the rows in order. */
async function seedJob(jobId: string, n: number) {
  await db().job.create({ data: { id: jobId, kind: "batch", url: "https://example.com", origin: "submitted" } });
  const bodies = Array.from({ length: n }, (_, i) => ({
    markdown: page(`${jobId} markdown ${i}`),
    html: `<main>${page(`${jobId} html ${i}`, 60)}</main>`,
  }));
  const kept = await keepBodies(bodies);
  await db().result.createMany({
    data: kept.map((k, i) => ({
      jobId,
      itemKey: String(i),
      url: `https://example.com/${i}`,
      format: "both",
      markdownKey: k.markdownKey,
      markdownCodec: k.markdownCodec,
      markdownSize: k.markdownSize,
      htmlKey: k.htmlKey,
      htmlCodec: k.htmlCodec,
      htmlSize: k.htmlSize,
    })),
  });
  expect(kept.every((k) => k.markdownCodec === "br" && k.htmlCodec === "br")).toBe(true);
  return { bodies, kept };
}

type Read = { itemKey: string; markdown: string | null; html: string | null; bodyError: string | null };

/**
 * What each reader gives for the job's results: the API, the JSON Lines and CSV exports, the job page;
 * as an admin reads them, with the store's own words (test/internal-errors.test.ts has the other roles).
 */
async function everyReader(jobId: string): Promise<Record<string, Read[]>> {
  const admin = { detail: true };
  const api = (await listJobResults(jobId, { limit: 100, cursor: undefined }, admin)).items;
  const jsonl = (await new Response(exportResults({ format: "jsonl", jobId }, admin).body).text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Read);
  const csv = await new Response(exportResults({ format: "csv", jobId }, admin).body).text();
  const preview = (await getJobDetail(jobId, admin)).results.shown;
  // The CSV's last column is bodyError: each row's error, found in the text (bodies hold no quotes).
  const csvRows = api.map((r) => ({
    itemKey: r.itemKey,
    markdown: null,
    html: null,
    bodyError: r.bodyError !== null && csv.includes(r.bodyError) ? r.bodyError : null,
  }));
  return { api, jsonl, csv: csvRows, preview };
}

describe.each(["file", "s3"] as const)("reading bodies from the %s store", (backend) => {
  let t: TestDb;
  let behind: ObjectsBehind;

  beforeAll(async () => {
    if (backend === "s3") await startS3();
    const prefix = `t${Date.now()}/bodies`;
    // The cache of texts at its default (on): these tests are about what it must not hide.
    t = await createTestDb(
      backend === "s3" ? { TALLY_BODY_STORE: `s3://${BUCKET}/${prefix}?forcePathStyle=true` } : {},
    );
    expect(getConfig().TALLY_BODY_CACHE_BYTES).toBeGreaterThan(0);
    behind = objectsBehind(getConfig().TALLY_BODY_STORE, s3?.endpoint);
  });
  afterAll(async () => {
    behind?.close();
    await t?.cleanup();
  });

  it("an object flipped, cut, replaced or deleted is bodyError on every reader, read after read", async () => {
    const jobId = `${backend}-corrupt`;
    const { bodies, kept } = await seedJob(jobId, 5);
    // Result 0: a byte flipped inside the markdown's compressed stream; 1: its markdown cut short;
    // 2: its html deleted; 3: its html replaced by another body's valid stream; 4: untouched.
    const flipped = await behind.raw(kept[0].markdownKey!);
    flipped[Math.floor(flipped.length / 2)] ^= 0xff;
    await behind.overwrite(kept[0].markdownKey!, flipped);
    const cut = await behind.raw(kept[1].markdownKey!);
    await behind.overwrite(kept[1].markdownKey!, cut.subarray(0, cut.length - 16));
    await behind.remove(kept[2].htmlKey!);
    await behind.overwrite(kept[3].htmlKey!, await behind.raw(kept[4].htmlKey!));

    const expected = [
      /^body_corrupt: the markdown of result 0 of job .*-corrupt cannot be read: body [0-9a-f]{64} is corrupt/,
      /^body_corrupt: the markdown of result 1 of job .*-corrupt cannot be read: body [0-9a-f]{64} is corrupt/,
      /^body_missing: the html of result 2 of job .*-corrupt cannot be read: body [0-9a-f]{64} is missing/,
      /^body_corrupt: the html of result 3 of job .*-corrupt cannot be read: body [0-9a-f]{64} is corrupt/,
    ];
    for (let attempt = 0; attempt < 2; attempt++) {
      for (const [reader, rows] of Object.entries(await everyReader(jobId))) {
        expect(
          rows.map((r) => r.itemKey),
          reader,
        ).toEqual(["0", "1", "2", "3", "4"]);
        for (let i = 0; i < 4; i++) expect(rows[i].bodyError, `${reader} ${i} (read ${attempt})`).toMatch(expected[i]);
        expect(rows[4].bodyError, reader).toBeNull();
        if (reader === "csv") continue;
        // The bad body is null, never empty or another page; its good sibling is given.
        const cut = (s: string) => (reader === "preview" ? s.slice(0, 100_000) : s);
        expect([rows[0].markdown, rows[0].html], reader).toEqual([null, cut(bodies[0].html)]);
        expect([rows[2].markdown, rows[2].html], reader).toEqual([cut(bodies[2].markdown), null]);
        expect([rows[3].markdown, rows[3].html], reader).toEqual([cut(bodies[3].markdown), null]);
        expect([rows[4].markdown, rows[4].html], reader).toEqual([cut(bodies[4].markdown), cut(bodies[4].html)]);
      }
    }
  });

  it("a body read (and cached) before, then deleted or cut, is bodyError on every reader: the cache hides nothing", async () => {
    const jobId = `${backend}-lost-later`;
    const { bodies, kept } = await seedJob(jobId, 3);
    // Read by every reader: the texts are in the cache, and the second round comes from it.
    expect(Object.values(await everyReader(jobId)).every((rows) => rows.every((r) => r.bodyError === null))).toBe(true);
    const fromCache = await cacheReads();
    await everyReader(jobId);
    expect(await cacheReads()).toBeGreaterThan(fromCache);

    await behind.remove(kept[0].markdownKey!);
    const whole = await behind.raw(kept[1].htmlKey!);
    await behind.overwrite(kept[1].htmlKey!, whole.subarray(0, whole.length - 16));
    for (let attempt = 0; attempt < 2; attempt++)
      for (const [reader, rows] of Object.entries(await everyReader(jobId))) {
        expect(rows[0].bodyError, `${reader} (read ${attempt})`).toMatch(/^body_missing: the markdown of result 0/);
        expect(rows[1].bodyError, `${reader} (read ${attempt})`).toMatch(/^body_corrupt: the html of result 1/);
        expect(rows[2].bodyError, reader).toBeNull();
        if (reader === "api") {
          expect(rows[0].markdown).toBeNull();
          expect(rows[1].html).toBeNull();
          expect([rows[2].markdown, rows[2].html]).toEqual([bodies[2].markdown, bodies[2].html]);
        }
      }
  });

  it("a body cached, then changed in place at the same size, is served as its key's bytes; bodies verify reports it", async () => {
    const jobId = `${backend}-flipped-later`;
    const { bodies, kept } = await seedJob(jobId, 1);
    expect((await listJobResults(jobId, { limit: 10, cursor: undefined })).items[0].bodyError).toBeNull();
    const flipped = await behind.raw(kept[0].markdownKey!);
    flipped[100] ^= 0x01;
    await behind.overwrite(kept[0].markdownKey!, flipped);
    const [item] = (await listJobResults(jobId, { limit: 10, cursor: undefined })).items;
    // Never another page's bytes: the text is the one that hashed to the key when it was read.
    expect(item).toMatchObject({ markdown: bodies[0].markdown, bodyError: null });
    const report = await verifyBodies();
    expect(report.problems).toContainEqual(
      expect.objectContaining({ jobId, itemKey: "0", body: "markdown", code: "body_corrupt" }),
    );
  });
});
