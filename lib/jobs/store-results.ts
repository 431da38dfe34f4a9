import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db, dialect, directSqliteTransaction, transaction } from "../db";
import { countJobOutcome } from "../metrics";
import type { BatchResultItem, CrawlResultItem, ExtractJob, PlatformClient } from "../platform";
import { ackWithin, type AckedWithin, type ClaimedItem, type DbOrTx } from "../queue";
import { recordState, type Attempt } from "./job-rows";
import { checksForJob, judgeRows, type JudgedFields } from "./judge-rows";
import { type BodyRefs, formatOfBodies, keepBodies } from "./keep-bodies";
import { storeExtractPostgres } from "./store-extract-postgres";
import { type ExtractRow, storeExtractNow } from "./store-extract-sqlite";
import { settleOutcome } from "./outcomes";
import { DEFAULT_RESULT_PAGE_SIZE, type PlatformState } from "../platform";

// Results are written page by page with INSERT … ON CONFLICT (jobId, itemKey) DO NOTHING: a rerun
// after a crash, a duplicate delivery or a racing worker adds nothing twice, and the pages already
// written survive a failure half-way through a large crawl.

type Row = {
  itemKey: string;
  url: string | null;
  status: string;
  markdown: string | null;
  html: string | null;
  metadata: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  tokensCharged: number;
} & Partial<JudgedFields>;

/** A row as inserted: its large bodies already in the body store (keep-bodies.ts), references in their place. */
type KeptRow = Row & BodyRefs;

async function insertRows(tx: DbOrTx, jobId: string, rows: KeptRow[], fallbackFormat: string): Promise<void> {
  const now = new Date();
  for (let i = 0; i < rows.length; i += 50) {
    const values = rows.slice(i, i + 50).map(
      (
        r,
      ) => Prisma.sql`(${jobId}, ${r.itemKey}, ${r.url}, ${r.status}, ${formatOfBodies(r, fallbackFormat)}, ${r.markdown}, ${r.html},
        ${r.markdownKey}, ${r.markdownCodec}, ${r.markdownSize}, ${r.htmlKey}, ${r.htmlCodec}, ${r.htmlSize},
        ${r.metadata == null ? null : JSON.stringify(r.metadata)}, ${r.errorCode}, ${r.errorMessage}, ${r.tokensCharged},
        ${r.checkVerdict ?? null}, ${r.checkName ?? null}, ${r.checkExcerpt ?? null}, ${now})`,
    );
    await tx.$executeRaw`
      INSERT INTO "Result" ("jobId", "itemKey", "url", "status", "format", "markdown", "html",
        "markdownKey", "markdownCodec", "markdownSize", "htmlKey", "htmlCodec", "htmlSize", "metadata",
        "errorCode", "errorMessage", "tokensCharged", "checkVerdict", "checkName", "checkExcerpt", "createdAt")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("jobId", "itemKey") DO NOTHING`;
  }
}

function extractRow(doc: ExtractJob): Row {
  return {
    itemKey: "0",
    url: doc.metadata?.url ?? null,
    status: "completed",
    markdown: doc.data?.markdown ?? null,
    html: doc.data?.html ?? null,
    metadata: { ...doc.metadata, links: doc.data?.links ?? undefined },
    errorCode: null,
    errorMessage: null,
    tokensCharged: doc.tokens_charged ?? 0,
  };
}

function itemRow(item: BatchResultItem | CrawlResultItem, itemKey: string, extra: Record<string, unknown>): Row {
  return {
    itemKey,
    url: item.url,
    status: item.status,
    markdown: item.data?.markdown ?? null,
    html: item.data?.html ?? null,
    metadata: { ...item.metadata, ...extra },
    errorCode: item.error_code ?? null,
    errorMessage: item.error_message ?? null,
    tokensCharged: item.metadata?.tokens_charged ?? 0,
  };
}

/** Walks result pages from the one already fetched until page_count (or a short page). */
async function eachPage<I>(
  first: { results: I[]; page_count?: number },
  pageSize: number,
  load: (page: number) => Promise<{ results: I[]; page_count?: number }>,
  onPage: (items: I[], page: number) => Promise<void>,
) {
  let doc = first;
  for (let page = 1; doc.results.length > 0; page++) {
    await onPage(doc.results, page);
    const pageCount = doc.page_count ?? (doc.results.length < pageSize ? page : page + 1);
    if (page >= pageCount) return;
    doc = await load(page + 1);
  }
}

/**
 * Stores every result of a completed job, then sets its outcome to stored (once). `attempt` is the
 * worker's attempt, recorded on the Job row and the timeline with the platform's state. Given the
 * queue `item` being worked, an extract acks it in the transaction that stores it.
 */
export async function storeCompleted(
  client: PlatformClient,
  state: PlatformState,
  attempt: Attempt,
  signal: AbortSignal,
  pageSize = DEFAULT_RESULT_PAGE_SIZE,
  item?: ClaimedItem,
): Promise<void | AckedWithin> {
  const jobId = state.jobId;
  if (state.kind === "extract") {
    // One result row: the attempt, the row and the outcome commit together. On SQLite as prepared
    // statements in one synchronous transaction, on PostgreSQL as one statement, unless the outbox has
    // to be written ("outbox"): then through the ORM, in a transaction that writes first (the upsert).
    const doc = state.doc;
    // Bodies into the body store before any transaction opens (keep-bodies.ts).
    const [row] = await keepBodies([extractRow(doc)]);
    const direct: ExtractRow = {
      url: row.url,
      format: formatOfBodies(row, "html"),
      markdown: row.markdown,
      html: row.html,
      markdownKey: row.markdownKey,
      markdownCodec: row.markdownCodec,
      markdownSize: row.markdownSize,
      htmlKey: row.htmlKey,
      htmlCodec: row.htmlCodec,
      htmlSize: row.htmlSize,
      metadata: JSON.stringify(row.metadata),
      tokensCharged: row.tokensCharged,
    };
    const done =
      dialect() === "postgres"
        ? await storeExtractPostgres(state, attempt, direct, item)
        : await directSqliteTransaction((sqlite) => {
            const stored = storeExtractNow(sqlite, state, attempt, direct);
            return { stored, acked: item && stored.kind !== "outbox" ? ackWithin(sqlite, item) : undefined };
          });
    const stored = done?.stored;
    if (stored?.kind === "stored") countJobOutcome("extract", "stored", stored.settledAt);
    if (stored && stored.kind !== "outbox") return done?.acked === undefined ? undefined : { ackedWithin: done.acked };
    await transaction(async (tx) => {
      await recordState(tx, state, attempt);
      await insertRows(tx, jobId, [row], "html");
      await settleOutcome(tx, jobId, "stored", { resultCount: 1, tokensCharged: doc.tokens_charged ?? 0 }, {});
    });
    return;
  }
  // Batch and crawl: the attempt first, then page by page, each page committed on its own.
  await transaction((tx) => recordState(tx, state, attempt));
  const call = { signal };
  // Issue 39: a run's chunk has its pages judged (lib/jobs/judge-rows.ts) before each page's INSERT.
  const checks = await checksForJob(jobId);
  let tokens: number | null;
  if (state.kind === "batch") {
    await eachPage(
      state.doc,
      pageSize,
      (page) => client.getBatch(jobId, { page, pageSize }, call),
      async (items, page) =>
        insertRows(
          db(),
          jobId,
          await keepBodies(
            await judgeRows(
              checks,
              items.map((it, i) => itemRow(it, String(it.input_index ?? (page - 1) * pageSize + i), {})),
            ),
          ),
          "markdown",
        ),
    );
    tokens = state.doc.token_summary?.tokens_charged_total ?? null;
  } else {
    await eachPage(
      state.doc,
      pageSize,
      (page) => client.getCrawl(jobId, { page, pageSize }, call),
      async (items) =>
        insertRows(
          db(),
          jobId,
          await keepBodies(
            await judgeRows(
              checks,
              items.map((it) =>
                itemRow(it, it.url, { depth: it.depth, parent_url: it.parent_url, links: it.links ?? undefined }),
              ),
            ),
          ),
          "markdown",
        ),
    );
    tokens = state.doc.token_summary?.tokens_charged_total ?? null;
  }
  // Write first, then read: the transaction takes the write lock at its first statement instead of
  // upgrading from a read, which SQLite may refuse (SQLITE_BUSY_SNAPSHOT) when another write slipped in.
  await transaction(async (tx) => {
    if (!(await settleOutcome(tx, jobId, "stored", {}, {}))) return;
    const agg = await tx.result.aggregate({ where: { jobId }, _count: { _all: true }, _sum: { tokensCharged: true } });
    const resultCount = agg._count._all;
    // Items the platform reported failed: a stored batch or crawl can hold them (issue 24, point 7).
    const itemsFailed = await tx.result.count({ where: { jobId, status: "failed" } });
    await tx.job.update({
      where: { id: jobId },
      data: { resultCount, itemsFailed, tokensCharged: tokens ?? agg._sum.tokensCharged ?? 0 },
    });
  });
}
