// `npm run bodies -- migrate | verify` (issue 40): results stored inline before the body store move
// into it a batch at a time, readable the same before, during and after (readers running meanwhile),
// resumable after an interruption, and changing nothing twice; verify re-hashes the objects and names
// the result of each missing or corrupt one. On both stores and both backends (a folder beside the
// test's database; an s3rver in its own process).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyStore } from "@/lib/bodies";
import { getConfig, setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "@/test/db";
import { bodyStoreOn, objectsBehind, type S3Server } from "@/test/s3";
import { expireResultBodies, listJobResults, migrateInlineBodies, verifyBodies } from ".";

const JOB = "migrate-job";
const page = (i: number, kb: number) =>
  Array.from({ length: kb * 16 }, (_, k) => `Page ${i}, line ${k}: words of a stored page, ü and ✓.`).join("\n");
const texts = Array.from({ length: 9 }, (_, i) => ({
  markdown: i === 8 ? "# a short page" : page(i, 8 + i),
  html: i === 8 ? null : `<html>${page(i, 20 + i)}</html>`,
}));

describe.each(["file", "s3"] as const)("bodies on the %s store", (backend) => {
  let t: TestDb;
  let s3: S3Server | undefined;
  beforeAll(async () => {
    const store = await bodyStoreOn(backend, "tally-migrate");
    s3 = store.s3;
    t = await createTestDb(store.env);
    await db().job.create({ data: { id: JOB, kind: "batch", url: "https://example.com", origin: "submitted" } });
    for (const [i, x] of texts.entries())
      await db().result.create({
        data: {
          jobId: JOB,
          itemKey: String(i),
          format: x.html ? "both" : "markdown",
          markdown: x.markdown,
          html: x.html,
        },
      });
  });
  afterAll(async () => {
    await t?.cleanup();
    await s3?.stop();
  });

  const read = async () =>
    (await listJobResults(JOB, { limit: 100, cursor: undefined })).items.map((i) => ({
      markdown: i.markdown,
      html: i.html,
      bodyError: i.bodyError,
    }));
  const expected = texts.map((x) => ({ ...x, bodyError: null }));

  describe("migrate", () => {
    it("moves inline bodies in batches, resumable, readable the same throughout, nothing twice", async () => {
      expect(await read()).toEqual(expected);
      // Interrupted after its first batch (2 rows): those are moved, the rest still inline.
      await expect(
        migrateInlineBodies({
          batch: 2,
          onBatch: () => {
            throw new Error("killed");
          },
        }),
      ).rejects.toThrow("killed");
      const rows = await db().result.findMany({ where: { jobId: JOB }, orderBy: { id: "asc" } });
      expect(rows.slice(0, 2).every((r) => r.markdown === null && r.markdownKey !== null && r.htmlKey !== null)).toBe(
        true,
      );
      expect(rows.slice(2).every((r) => r.markdownKey === null && r.markdown !== null)).toBe(true);
      expect(await read()).toEqual(expected);

      // Resumed, with readers going all the while: each read is the same.
      let migrating = true;
      const reads: Array<Awaited<ReturnType<typeof read>>> = [];
      const readers = (async () => {
        while (migrating) reads.push(await read());
      })();
      const done = await migrateInlineBodies({ batch: 2 }).finally(() => (migrating = false));
      await readers;
      expect(reads.length).toBeGreaterThan(0);
      for (const r of reads) expect(r).toEqual(expected);
      // Rows 2-7 moved (both bodies), row 8 (a short page) stays inline.
      expect(done.bodies).toBe(12);
      const after = await db().result.findMany({ where: { jobId: JOB }, orderBy: { id: "asc" } });
      expect(after.slice(0, 8).every((r) => r.markdown === null && r.html === null && r.markdownSize! > 0)).toBe(true);
      expect(after[8]).toMatchObject({ markdown: "# a short page", markdownKey: null });
      expect(await read()).toEqual(expected);

      // Once more: nothing left to move.
      expect(await migrateInlineBodies()).toMatchObject({ rows: 0, bodies: 0 });
    });
  });

  it("never names again a body that retention removed while its batch was being put", async () => {
    const old = new Date(Date.now() - 40 * 86_400_000);
    const row = await db().result.create({
      data: { jobId: JOB, itemKey: "old", format: "markdown", markdown: page(99, 12), createdAt: old },
    });
    const config = getConfig();
    setConfigForTests({ ...config, TALLY_RESULT_RETENTION_DAYS: 30 });
    try {
      // Retention runs after the batch has read the row and put its body, before the swap.
      const done = await migrateInlineBodies({ after: row.id - 1, onKept: () => expireResultBodies() });
      expect(done).toMatchObject({ rows: 1, bodies: 0 });
    } finally {
      setConfigForTests(config);
    }
    const after = await db().result.findUniqueOrThrow({ where: { id: row.id } });
    expect(after).toMatchObject({ markdown: null, markdownKey: null, markdownCodec: null });
    expect(after.bodyRemovedAt).not.toBeNull();
    await db().result.delete({ where: { id: row.id } });
  });

  describe("verify", () => {
    it("re-hashes every object the rows name; names the result of each missing or corrupt one", async () => {
      expect(await verifyBodies()).toMatchObject({ checked: 16, ok: 16, problems: [] });
      expect((await verifyBodies({ sample: 2 })).checked).toBeLessThan(16);

      const rows = await db().result.findMany({ where: { jobId: JOB }, orderBy: { id: "asc" } });
      const behind = objectsBehind(getConfig().TALLY_BODY_STORE, s3?.endpoint);
      await behind.remove(rows[3].markdownKey!);
      const other = await bodyStore().put(Buffer.from("z".repeat(9000)));
      await behind.overwrite(rows[5].htmlKey!, await behind.raw(other.key));
      behind.close();

      const report = await verifyBodies();
      expect(report).toMatchObject({ checked: 16, ok: 14 });
      expect(report.problems).toEqual([
        expect.objectContaining({
          resultId: rows[3].id,
          itemKey: "3",
          jobId: JOB,
          body: "markdown",
          code: "body_missing",
        }),
        expect.objectContaining({ resultId: rows[5].id, itemKey: "5", jobId: JOB, body: "html", code: "body_corrupt" }),
      ]);
    });
  });
});
