import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import { getConfig } from "../config";
import { sqlInt, type Tx } from "../db";
import { linkActiveSpan } from "../tracing";
import { DEFAULT_RESULT_PAGE_SIZE } from "../platform";
import {
  bodyColumns,
  bodyColumnsShape,
  bodySize,
  PAGE_BODY_CHARS,
  resolveBodies,
  resultName,
  withinBudget,
} from "../results";
import { bodyPrint, printKnown } from "./body-prints";
import { countDuplicate } from "./duplicates";
import { readEscalation, rungName } from "./escalation";
import { compileRules } from "./fingerprint";
import { isTransient } from "./item-errors";
import { completeIfDone, lockRun, moveUrls, wakeSubmitter } from "./moves";

// Complete to the URL. lib/jobs/outcomes.ts calls settleChunkJob inside the transaction that sets a
// job's outcome (after storeCompleted wrote its result rows), so a run's URLs change state with the
// outcome of the job that carried them, or not at all:
//   stored        → each item back to its URL: completed → stored; failed for a transient reason →
//                   retrying (sent again in a follow-up chunk, at most TALLY_ITEM_RETRY_MAX more
//                   times) or failed once the retries are used up; permanent → failed at once.
//                   A URL the job has no item for counts as a transient failure (NO_RESULT).
//   resubmitted   → the chunk follows the new job (same request, same URLs).
//   dead_lettered / cancelled → the URLs go back to pending (within the same retry budget).
// Lock order with submit.ts's recordAccepted: both write the Job row first, so on PostgreSQL one
// waits for the other and then sees its link (or its outcome).

const jsonRecord = z.record(z.string(), z.unknown());
const requestUrls = z.object({ urls: z.array(z.string()) });

function httpStatusOf(metadata: string | null): number | null {
  if (!metadata) return null;
  try {
    const m = jsonRecord.parse(JSON.parse(metadata));
    return typeof m.http_status === "number" ? m.http_status : null;
  } catch {
    return null;
  }
}

// Bound parameters per statement: the SQLite driver adapter refuses large IN lists.
const PARAMS_PER_STATEMENT = 200;

const clip = (s: string | null) => (s === null ? null : s.slice(0, 500));

const rungList = z.array(z.string());
function rungsTriedList(json: string | null): string[] {
  if (!json) return [];
  try {
    const parsed = rungList.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export async function settleChunkJob(tx: Tx, jobId: string, outcome: string): Promise<void> {
  const chunk = await tx.runChunk.findUnique({ where: { jobId } });
  if (!chunk) {
    await countDuplicate(tx, jobId);
    return;
  }
  if (chunk.state !== "submitted") return;
  // Before any URL row is touched (the item keys below are written by a raw UPDATE): see lockRun.
  await lockRun(tx, chunk.runId);
  const job = await tx.job.findUnique({
    where: { id: jobId },
    select: {
      resubmittedAsId: true,
      request: true,
      attempts: true,
      pollCount: true,
      errorCode: true,
      errorMessage: true,
    },
  });
  if (!job) return;
  if (outcome === "resubmitted") {
    if (!job.resubmittedAsId) return;
    await tx.runChunk.update({ where: { id: chunk.id }, data: { jobId: job.resubmittedAsId } });
    await tx.runUrl.updateMany({
      where: { runId: chunk.runId, chunkId: chunk.id, state: "submitted" },
      data: { jobId: job.resubmittedAsId },
    });
    await tx.run.update({
      where: { id: chunk.runId },
      data: { platformCalls: { increment: job.attempts + job.pollCount } },
    });
    return;
  }
  let calls = job.attempts + job.pollCount;
  if (outcome === "stored") calls += await mapStored(tx, chunk.runId, chunk.id, chunk.rung, jobId, job.request);
  else await backToPending(tx, chunk.runId, chunk.id, job.errorCode ?? outcome.toUpperCase(), job.errorMessage);
  await tx.runChunk.update({
    where: { id: chunk.id },
    data: { state: outcome === "stored" ? "settled" : "failed", settledAt: new Date() },
  });
  // The chunk's token reservation (submit.ts recordChunk) is released: what it cost is now charged.
  const run = await tx.run.update({
    where: { id: chunk.runId },
    data: { platformCalls: { increment: calls }, tokensReserved: { decrement: chunk.reserved } },
    select: { pending: true, retrying: true, suspect: true, state: true, traceContext: true },
  });
  // The batch job's trace (begun at its webhook) links to its run's: the active span is the job's processing.
  linkActiveSpan(run.traceContext);
  if (
    !(await completeIfDone(tx, chunk.runId)) &&
    run.state === "active" &&
    run.pending + run.retrying + run.suspect > 0
  )
    await wakeSubmitter(tx, chunk.runId);
}

type Group = { positions: number[]; errorCode: string | null; errorMessage: string | null };

/** Maps a stored job's items to the chunk's URLs; returns the result pages it took beyond the first. */
async function mapStored(
  tx: Tx,
  runId: string,
  chunkId: number,
  rung: number,
  jobId: string,
  request: string | null,
): Promise<number> {
  const max = getConfig().TALLY_ITEM_RETRY_MAX;
  const urls = await tx.runUrl.findMany({
    where: { runId, chunkId, state: "submitted" },
    select: { position: true, url: true, attempts: true, rungAttempts: true, rungsTried: true },
  });
  const byUrl = new Map(urls.map((u) => [u.url, u]));
  let sent: string[] = [];
  try {
    sent = request ? requestUrls.parse(JSON.parse(request)).urls : [];
  } catch {
    sent = [];
  }
  // A collection run's stored URLs get a fingerprint of their content (change tracking, issue 25).
  const run = await tx.run.findUnique({
    where: { id: runId },
    select: { changeRules: true, escalation: true, collectionId: true },
  });
  const rules = run?.changeRules ? compileRules(run.changeRules) : null;
  // Issue 39: a page that failed its checks (or that the platform reported BLOCKED) goes up the ladder.
  const ladder = readEscalation(run?.escalation);
  const thisRung = rungName(ladder[rung]);
  const results = await tx.result.findMany({
    where: { jobId },
    select: {
      id: true,
      itemKey: true,
      url: true,
      status: true,
      errorCode: true,
      errorMessage: true,
      metadata: true,
      tokensCharged: true,
      checkVerdict: true,
      checkName: true,
      checkExcerpt: true,
    },
  });
  const toPrint: Array<{ position: number; id: number }> = [];
  const keys = new Map<number, string>();
  const stored: number[] = [];
  const retrying = new Map<string, Group>();
  const failed = new Map<string, Group>();
  const add = (m: Map<string, Group>, position: number, code: string | null, message: string | null) => {
    const k = `${code}\u0000${message}`;
    const g = m.get(k) ?? { positions: [], errorCode: code, errorMessage: message };
    g.positions.push(position);
    m.set(k, g);
  };
  const suspect: number[] = [];
  const checkOf = new Map<number, { name: string | null; excerpt: string | null; tokens: number }>();
  const fail = (
    u: { position: number; attempts: number; rungAttempts: number },
    code: string | null,
    message: string | null,
    status: number | null,
  ) => {
    // The retry budget is per rung (rungAttempts): climbing the ladder does not use it up.
    if (isTransient({ errorCode: code, httpStatus: status }) && u.rungAttempts <= max)
      add(retrying, u.position, code, clip(message));
    else
      add(
        failed,
        u.position,
        code ?? "FAILED",
        clip(u.attempts > 1 ? `${message ?? "failed"} (after ${u.attempts} attempts)` : (message ?? "failed")),
      );
  };
  for (const r of results) {
    const u = (r.url ? byUrl.get(r.url) : undefined) ?? byUrl.get(sent[Number(r.itemKey)] ?? "");
    if (!u || keys.has(u.position)) continue;
    keys.set(u.position, r.itemKey);
    const judged = r.checkVerdict !== null && r.checkVerdict !== "ok";
    const platformBlocked = r.status === "failed" && /^BLOCKED/i.test(r.errorCode ?? "");
    checkOf.set(u.position, {
      name: judged ? r.checkName : platformBlocked ? `platform:${r.errorCode}` : null,
      excerpt: judged ? r.checkExcerpt : platformBlocked ? (clip(r.errorMessage)?.slice(0, 200) ?? null) : null,
      tokens: r.tokensCharged,
    });
    if (r.status === "completed" && !judged) {
      stored.push(u.position);
      if (rules) toPrint.push({ position: u.position, id: r.id });
    } else if (judged || platformBlocked) {
      // Up the ladder, or final past its last rung: blocked when a block page or BLOCKED, else content_check_failed.
      if (rung + 1 < ladder.length) suspect.push(u.position);
      else {
        const blocked = platformBlocked || r.checkVerdict === "blocked";
        const what = judged ? `${r.checkName ?? "check"}: ${r.checkExcerpt ?? ""}` : (r.errorMessage ?? "blocked");
        add(
          failed,
          u.position,
          blocked ? "blocked" : "content_check_failed",
          clip(`${what} (after ${ladder.length} rung${ladder.length === 1 ? "" : "s"}: last ${thisRung})`),
        );
      }
    } else {
      const status = httpStatusOf(r.metadata);
      const why = status !== null && r.errorMessage ? `${r.errorMessage} (target answered ${status})` : r.errorMessage;
      fail(u, r.errorCode, why, status);
    }
  }
  for (const u of urls)
    if (!keys.has(u.position)) fail(u, "NO_RESULT", "the batch job finished without an item for this URL", null);
  const prints: [number, string, number][] = [];
  if (rules) {
    const positionOf = new Map(toPrint.map((p) => [p.id, p.position]));
    for await (const page of bodyPages(
      tx,
      jobId,
      toPrint.map((p) => p.id),
      SETTLE_BODY_CHARS,
      (key) => printKnown(key, run?.changeRules ?? ""),
    ))
      for (const r of page) {
        // A body kept in the store is printed once per content and rules (body-prints.ts); one that
        // cannot be read gets no fingerprint (never the print of an empty page).
        const fp = bodyPrint(r, rules, run?.changeRules ?? "");
        if (fp !== null) prints.push([positionOf.get(r.id) ?? 0, fp, r.id]);
      }
  }

  // Each URL's item key in one statement per 500 URLs, then the state moves (with the counters).
  const entries = [...keys.entries()];
  // With it (issue 39): the last check that failed and its excerpt, the tokens charged, the rungs tried.
  const tried = new Map(urls.map((u) => [u.position, JSON.stringify([...rungsTriedList(u.rungsTried), thisRung])]));
  const PER_UPDATE = PARAMS_PER_STATEMENT / 2;
  for (let i = 0; i < entries.length; i += PER_UPDATE) {
    const part = entries.slice(i, i + PER_UPDATE);
    const when = (f: (pos: number) => unknown) =>
      Prisma.join(
        part.map(([pos]) => Prisma.sql`WHEN ${pos} THEN ${f(pos)}`),
        " ",
      );
    const cases = part.map(([pos, key]) => Prisma.sql`WHEN ${pos} THEN ${key}`);
    await tx.$executeRaw`UPDATE "RunUrl" SET "itemKey" = CASE "position" ${Prisma.join(cases, " ")} END, "jobId" = ${jobId},
      "checkName" = COALESCE(CASE "position" ${when((p) => checkOf.get(p)?.name ?? null)} END, "checkName"),
      "checkExcerpt" = COALESCE(CASE "position" ${when((p) => checkOf.get(p)?.excerpt ?? null)} END, "checkExcerpt"),
      "tokensCharged" = "tokensCharged" + CAST(CASE "position" ${when((p) => checkOf.get(p)?.tokens ?? 0)} END AS INTEGER),
      "rungsTried" = CASE "position" ${when((p) => tried.get(p) ?? null)} END
      WHERE "runId" = ${runId} AND "chunkId" = ${chunkId} AND "position" IN (${Prisma.join(part.map(([pos]) => pos))})`;
  }
  let tokens = 0;
  for (const c of checkOf.values()) tokens += c.tokens;
  if (tokens > 0) {
    await tx.runChunk.update({ where: { id: chunkId }, data: { tokensCharged: { increment: tokens } } });
    await tx.run.update({ where: { id: runId }, data: { tokensCharged: { increment: tokens } } });
  }
  for (let i = 0; i < prints.length; i += PARAMS_PER_STATEMENT) {
    const part = prints.slice(i, i + PARAMS_PER_STATEMENT);
    const fps = part.map(([pos, fp]) => Prisma.sql`WHEN ${pos} THEN ${fp}`);
    const ids = part.map(([pos, , id]) => Prisma.sql`WHEN ${pos} THEN ${id}`);
    await tx.$executeRaw`UPDATE "RunUrl" SET "fingerprint" = CASE "position" ${Prisma.join(fps, " ")} END,
      "resultId" = CAST(CASE "position" ${Prisma.join(ids, " ")} END AS INTEGER)
      WHERE "runId" = ${runId} AND "chunkId" = ${chunkId} AND "position" IN (${Prisma.join(part.map(([pos]) => pos))})`;
  }
  const now = new Date();
  const move = async (
    to: "stored" | "retrying" | "suspect" | "failed",
    positions: number[],
    data: Record<string, unknown>,
  ) => {
    for (let i = 0; i < positions.length; i += PARAMS_PER_STATEMENT) {
      const where = { chunkId, position: { in: positions.slice(i, i + PARAMS_PER_STATEMENT) } };
      await moveUrls(tx, runId, "submitted", to, where, data);
    }
  };
  if (stored.length > 0) await move("stored", stored, { storedAt: now, errorCode: null, errorMessage: null });
  if (stored.length > 0 && run?.collectionId) await rememberRung(tx, run.collectionId, runId, chunkId, rung, stored);
  if (suspect.length > 0)
    await move("suspect", suspect, { rung: rung + 1, rungAttempts: 0, errorCode: null, errorMessage: null });
  for (const g of retrying.values())
    await move("retrying", g.positions, { errorCode: g.errorCode, errorMessage: g.errorMessage });
  for (const g of failed.values())
    await move("failed", g.positions, { errorCode: g.errorCode, errorMessage: g.errorMessage });
  return Math.max(0, Math.ceil(results.length / DEFAULT_RESULT_PAGE_SIZE) - 1);
}

/**
 * A collection remembers per URL the rung its page was stored at (issue 39): its next run starts there
 * (lib/runs/create.ts startAtRememberedRungs). Rung 0 is the default, so it is forgotten rather than kept.
 */
async function rememberRung(
  tx: Tx,
  collectionId: string,
  runId: string,
  chunkId: number,
  rung: number,
  positions: number[],
): Promise<void> {
  const now = new Date();
  for (let i = 0; i < positions.length; i += PARAMS_PER_STATEMENT) {
    const part = Prisma.join(positions.slice(i, i + PARAMS_PER_STATEMENT));
    if (rung === 0)
      await tx.$executeRaw`DELETE FROM "CollectionRung" WHERE "collectionId" = ${collectionId} AND "url" IN (
        SELECT "url" FROM "RunUrl" WHERE "runId" = ${runId} AND "chunkId" = ${chunkId} AND "position" IN (${part}))`;
    else
      await tx.$executeRaw`INSERT INTO "CollectionRung" ("collectionId", "url", "rung", "updatedAt")
        SELECT ${collectionId}, "url", ${rung}, ${now} FROM "RunUrl"
        WHERE "runId" = ${runId} AND "chunkId" = ${chunkId} AND "position" IN (${part})
        ON CONFLICT ("collectionId", "url") DO UPDATE SET "rung" = excluded."rung", "updatedAt" = excluded."updatedAt"`;
  }
}

/**
 * What one read of bodies to fingerprint may hold: as much as an export page (PAGE_BODY_CHARS, 16 Mi
 * characters of markdown + html), so a chunk of 500 pages of 1 MiB is not one 0.5–1 GiB read inside
 * the settle transaction.
 */
export const SETTLE_BODY_CHARS = PAGE_BODY_CHARS;

const sizeRow = z.object({ id: sqlInt, size: sqlInt });
const bodyRow = z.object({ id: sqlInt, jobId: z.string(), itemKey: z.string(), ...bodyColumnsShape });
/** A result's bodies for its fingerprint: read (inline or from the store), or, where `known` said the
 * content's print is known already, its key alone (`contentKey`, the markdown's, else the html's). */
export type BodyRow = {
  id: number;
  markdown: string | null;
  html: string | null;
  contentKey: string | null;
  bodyError: string | null;
};

/**
 * The bodies of a job's results `ids`, in that order, a page at a time: their sizes are read first
 * (`length()` in SQL), then the bodies of as many as fit `budget` (always one at least), each once.
 */
export async function* bodyPages(
  tx: Tx,
  jobId: string,
  ids: readonly number[],
  budget = SETTLE_BODY_CHARS,
  known: (contentKey: string) => boolean = () => false,
): AsyncGenerator<BodyRow[]> {
  const sizeOf = new Map<number, number>();
  for (let i = 0; i < ids.length; i += PARAMS_PER_STATEMENT) {
    const part = ids.slice(i, i + PARAMS_PER_STATEMENT);
    const rows = await tx.$queryRaw`SELECT r."id", ${bodySize("r")} AS "size"
      FROM "Result" r WHERE r."jobId" = ${jobId} AND r."id" IN (${Prisma.join(part)})`;
    for (const r of sizeRow.array().parse(rows)) sizeOf.set(r.id, r.size);
  }
  let at = 0;
  while (at < ids.length) {
    const next = ids.slice(at, at + PARAMS_PER_STATEMENT);
    const part = next.slice(
      0,
      withinBudget(
        next.map((id) => sizeOf.get(id) ?? 0),
        budget,
      ),
    );
    const end = at + part.length;
    const rows = bodyRow.array().parse(
      await tx.$queryRaw`SELECT r."id", r."jobId", r."itemKey", ${bodyColumns("r")}
        FROM "Result" r WHERE r."jobId" = ${jobId} AND r."id" IN (${Prisma.join(part)})`,
    );
    const contentKey = (r: (typeof rows)[number]) => r.markdownKey ?? (r.markdown === null ? r.htmlKey : null);
    // Bodies whose print is known are not read at all; the others are, inline or from the store, and
    // from the store only the one printed (the markdown, else the html).
    const toRead = rows
      .filter((r) => {
        const k = contentKey(r);
        return k === null || !known(k);
      })
      .map((r) => (r.markdown !== null || r.markdownKey !== null ? { ...r, htmlKey: null } : r));
    const read = new Map((await resolveBodies(toRead, resultName)).map((r) => [r.id, r]));
    const byId = new Map(
      rows.map((r): [number, BodyRow] => {
        const got = read.get(r.id);
        return [
          r.id,
          {
            id: r.id,
            markdown: got?.markdown ?? null,
            html: got?.html ?? null,
            contentKey: contentKey(r),
            bodyError: got?.bodyError ?? null,
          },
        ];
      }),
    );
    yield part.map((id) => byId.get(id) ?? { id, markdown: null, html: null, contentKey: null, bodyError: null });
    at = end;
  }
}

/** A batch job that failed as a whole: its URLs go round again, within their retry budget. */
async function backToPending(tx: Tx, runId: string, chunkId: number, code: string, message: string | null) {
  const max = getConfig().TALLY_ITEM_RETRY_MAX;
  await moveUrls(
    tx,
    runId,
    "submitted",
    "pending",
    { chunkId, attempts: { lte: max } },
    { errorCode: code, errorMessage: clip(message) },
  );
  await moveUrls(
    tx,
    runId,
    "submitted",
    "failed",
    { chunkId },
    {
      errorCode: code,
      errorMessage: clip(`the batch job carrying it failed: ${message ?? code} (retries used up)`),
    },
  );
}
