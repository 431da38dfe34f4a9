import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import { BodyError, bodyStore, INLINE_MAX_BYTES, isBodyCodec, isBodyError, keepBody } from "../bodies";
import { db, transaction } from "../db";

// `npm run bodies -- migrate | verify` (issue 40): moving bodies stored inline before the body store
// into it, and checking the objects rows name.
//
// migrate walks the results by id a batch at a time: the bodies of a batch's rows are put first (no
// transaction open), then each row's text is swapped for its reference in one short transaction, only
// where the row still holds that text inline (no key yet, the text still there, and no body removed by
// retention meanwhile: a body retention just removed is never named again): a result reads the same
// before, during and after, whichever process reads it, and a second migrate (or one racing this one)
// changes nothing twice. Resumable: it starts again from the first id that still has a large inline
// body (`after` skips ahead), and an interrupted batch leaves only objects its rows do not name yet,
// which the next migrate names (the same bytes, the same key) or the sweep removes.

const BATCH = 200;

const rowSchema = z.object({
  id: z.coerce.number().int(),
  markdown: z.string().nullable(),
  html: z.string().nullable(),
  markdownKey: z.string().nullable(),
  htmlKey: z.string().nullable(),
});

export type MigrateProgress = { rows: number; bodies: number; bytesMoved: number; lastId: number };

/** Moves large inline bodies into the body store; `onBatch` hears after each committed batch. */
export async function migrateInlineBodies(
  opts: {
    batch?: number;
    after?: number;
    onBatch?: (p: MigrateProgress) => void;
    /** Between a batch's puts and its swap (tests: what a retention run meanwhile does). */
    onKept?: () => Promise<unknown>;
  } = {},
): Promise<MigrateProgress> {
  const batch = opts.batch ?? BATCH;
  const store = bodyStore();
  // Characters are at most bytes: a body of more than INLINE_MAX_BYTES / 4 characters may be larger
  // than the threshold in bytes; keepBody decides on its bytes.
  const minChars = Math.floor(INLINE_MAX_BYTES / 4);
  const progress: MigrateProgress = { rows: 0, bodies: 0, bytesMoved: 0, lastId: opts.after ?? 0 };
  for (;;) {
    const rows = rowSchema.array().parse(
      await db().$queryRaw`
        SELECT "id", "markdown", "html", "markdownKey", "htmlKey" FROM "Result"
        WHERE "id" > ${progress.lastId}
          AND (("markdownKey" IS NULL AND LENGTH("markdown") > ${minChars})
            OR ("htmlKey" IS NULL AND LENGTH("html") > ${minChars}))
        ORDER BY "id" LIMIT ${batch}`,
    );
    if (rows.length === 0) return progress;
    const kept = await Promise.all(
      rows.map(async (r) => ({
        id: r.id,
        md: r.markdownKey === null ? await keepBody(store, r.markdown) : null,
        html: r.htmlKey === null ? await keepBody(store, r.html) : null,
      })),
    );
    await opts.onKept?.();
    await transaction(async (tx) => {
      for (const k of kept) {
        for (const [what, b] of [
          ["markdown", k.md],
          ["html", k.html],
        ] as const) {
          if (!b || b.key === null) continue;
          const col = (c: string) => Prisma.raw(`"${what}${c}"`);
          const n = await tx.$executeRaw`
            UPDATE "Result" SET ${Prisma.raw(`"${what}"`)} = NULL, ${col("Key")} = ${b.key},
              ${col("Codec")} = ${b.codec}, ${col("Size")} = ${b.size}
            WHERE "id" = ${k.id} AND ${col("Key")} IS NULL
              AND ${Prisma.raw(`"${what}"`)} IS NOT NULL AND "bodyRemovedAt" IS NULL`;
          if (n === 1) {
            progress.bodies++;
            progress.bytesMoved += b.size ?? 0;
          }
        }
      }
    });
    progress.rows += rows.length;
    progress.lastId = rows[rows.length - 1].id;
    opts.onBatch?.({ ...progress });
  }
}

const refSchema = z.object({
  id: z.coerce.number().int(),
  jobId: z.string(),
  itemKey: z.string(),
  markdownKey: z.string().nullable(),
  markdownCodec: z.string().nullable(),
  htmlKey: z.string().nullable(),
  htmlCodec: z.string().nullable(),
  markdownSize: z.coerce.number().int().nullable(),
  htmlSize: z.coerce.number().int().nullable(),
});

export type VerifyReport = {
  checked: number;
  ok: number;
  problems: Array<{ resultId: number; jobId: string; itemKey: string; body: string; code: string; message: string }>;
};

/**
 * Reads back (re-hashing) the objects the rows name: every one (`sample` undefined), or about
 * `sample` of them spread over the table. Each distinct object is read once.
 */
export async function verifyBodies(opts: { sample?: number; onProgress?: (checked: number) => void } = {}) {
  const store = bodyStore();
  const report: VerifyReport = { checked: 0, ok: 0, problems: [] };
  const seen = new Set<string>();
  const [{ n }] = z
    .object({ n: z.coerce.number() })
    .array()
    .parse(
      await db()
        .$queryRaw`SELECT COUNT(*) AS "n" FROM "Result" WHERE "markdownKey" IS NOT NULL OR "htmlKey" IS NOT NULL`,
    );
  const every = opts.sample && opts.sample < n ? Math.max(1, Math.floor(n / opts.sample)) : 1;
  let index = 0;
  for (let after = 0; ;) {
    const rows = refSchema.array().parse(
      await db().$queryRaw`
        SELECT "id", "jobId", "itemKey", "markdownKey", "markdownCodec", "htmlKey", "htmlCodec", "markdownSize", "htmlSize" FROM "Result"
        WHERE "id" > ${after} AND ("markdownKey" IS NOT NULL OR "htmlKey" IS NOT NULL)
        ORDER BY "id" LIMIT 1000`,
    );
    for (const r of rows) {
      if (index++ % every !== 0) continue;
      for (const [body, key, codec, size] of [
        ["markdown", r.markdownKey, r.markdownCodec, r.markdownSize],
        ["html", r.htmlKey, r.htmlCodec, r.htmlSize],
      ] as const) {
        if (key === null || codec === null || seen.has(`${key}.${codec}`)) continue;
        seen.add(`${key}.${codec}`);
        report.checked++;
        try {
          if (!isBodyCodec(codec)) throw new BodyError("body_corrupt", key, `unknown codec ${codec}`);
          await store.read(key, codec, size);
          report.ok++;
        } catch (err) {
          if (!isBodyError(err)) throw err;
          report.problems.push({
            resultId: r.id,
            jobId: r.jobId,
            itemKey: r.itemKey,
            body,
            code: err.code,
            message: err.message,
          });
        }
        if (report.checked % 1000 === 0) opts.onProgress?.(report.checked);
      }
    }
    if (rows.length < 1000) return report;
    after = rows[rows.length - 1].id;
  }
}
