// Retention of page bodies (TALLY_RESULT_RETENTION_DAYS, issue 40): results older than the retention
// lose their bodies (inline or in the body store), the rows stay, and every reader says "body removed
// by retention" where a body was, including an export that was streaming when retention ran; the
// objects no row names any more go with the next sweep. On both stores and both backends (a folder;
// an s3rver in its own process).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyStore, sweepBodies } from "@/lib/bodies";
import { db } from "@/lib/db";
import { keepBodies } from "@/lib/jobs/keep-bodies";
import { pruneHistory } from "@/lib/worker/retention";
import { createTestDb, type TestDb } from "@/test/db";
import { bodyStoreOn, type S3Server } from "@/test/s3";
import { exportResults, listJobResults } from ".";

const DAY = 86_400_000;
const OLD = "retention-old";
const NEW = "retention-new";
const big = (s: string) => Array.from({ length: 400 }, (_, i) => `${s} line ${i} of a kept page`).join("\n");

describe.each(["file", "s3"] as const)("result retention on the %s store", (backend) => {
  let t: TestDb;
  let s3: S3Server | undefined;
  beforeAll(async () => {
    const store = await bodyStoreOn(backend, "tally-retention");
    s3 = store.s3;
    t = await createTestDb({ TALLY_RESULT_RETENTION_DAYS: "30", ...store.env });
    for (const id of [OLD, NEW])
      await db().job.create({ data: { id, kind: "batch", url: "https://example.com", origin: "submitted" } });
    const long = new Date(Date.now() - 40 * DAY);
    // The old job: 1,200 results (three export pages; the stream reads one page ahead), the first with
    // its bodies in the store.
    const [kept] = await keepBodies([{ markdown: big("old"), html: `<p>${big("old html")}</p>` }]);
    await db().result.create({
      data: {
        jobId: OLD,
        itemKey: "0",
        format: "both",
        createdAt: long,
        markdownKey: kept.markdownKey,
        markdownCodec: kept.markdownCodec,
        markdownSize: kept.markdownSize,
        htmlKey: kept.htmlKey,
        htmlCodec: kept.htmlCodec,
        htmlSize: kept.htmlSize,
      },
    });
    await db().result.createMany({
      data: Array.from({ length: 1199 }, (_, i) => ({
        jobId: OLD,
        itemKey: String(i + 1),
        format: "markdown",
        markdown: `# old page ${i + 1}`,
        createdAt: new Date(long.getTime() + i),
      })),
    });
    const [fresh] = await keepBodies([{ markdown: big("new"), html: null }]);
    await db().result.create({
      data: {
        jobId: NEW,
        itemKey: "0",
        format: "markdown",
        markdownKey: fresh.markdownKey,
        markdownCodec: fresh.markdownCodec,
        markdownSize: fresh.markdownSize,
      },
    });
  });
  afterAll(async () => {
    await t?.cleanup();
    await s3?.stop();
  });

  it("removes old bodies, keeps the rows, says so on every read, mid-export too; the sweep takes the objects", async () => {
    const oldKey = (await db().result.findFirstOrThrow({ where: { jobId: OLD, itemKey: "0" } })).markdownKey!;
    // An export of everything starts before retention runs: its first page is read with the bodies.
    const reader = exportResults({ format: "jsonl" }).body.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value);

    const pruned = await pruneHistory({ pauseMs: 0 });
    expect(pruned["result bodies"]).toBe(1200);

    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    const lines = text
      .split("\n")
      .filter(Boolean)
      .map(
        (l) => JSON.parse(l) as { jobId: string; itemKey: string; markdown: string | null; bodyError: string | null },
      );
    expect(lines).toHaveLength(1201);
    expect(new Set(lines.map((l) => `${l.jobId}/${l.itemKey}`)).size).toBe(1201);
    // Each row: its body, or the reason it has none; never an empty body without one.
    for (const l of lines)
      expect(l.markdown !== null || /body removed by retention/.test(l.bodyError ?? "")).toBe(true);
    expect(lines.some((l) => l.jobId === OLD && l.markdown !== null)).toBe(true);
    expect(lines.some((l) => l.jobId === OLD && l.markdown === null)).toBe(true);
    expect(lines.find((l) => l.jobId === NEW)).toMatchObject({ markdown: big("new"), bodyError: null });

    // After: the rows stay, without bodies, and say why.
    const page = await listJobResults(OLD, { limit: 5, cursor: undefined });
    expect(page.items).toHaveLength(5);
    for (const i of page.items) {
      expect(i).toMatchObject({ markdown: null, html: null });
      expect(i.bodyError).toMatch(/^body removed by retention on \d{4}-/);
    }
    expect((await listJobResults(NEW, { limit: 5, cursor: undefined })).items[0]).toMatchObject({
      markdown: big("new"),
      bodyError: null,
    });
    // Nothing more to remove; the object no row names goes with the sweep, the new one stays.
    expect((await pruneHistory({ pauseMs: 0 }))["result bodies"]).toBe(0);
    const swept = await sweepBodies({ graceMs: 0, now: new Date(Date.now() + 1000) });
    expect(swept.deleted).toBe(2);
    expect(await bodyStore().has(oldKey)).toBe(false);
  });
});
