import "server-only";
import { z } from "zod";
import { db, transaction } from "../db";
import type { PlatformClient } from "../platform";
import { asPlatformError, getPlatformClient, isRejectedInput, withPurpose } from "../platform";
import { backoffMs, rescheduleIn, type HandlerContext, type Reschedule } from "../queue";
import { inSpan, linkTo } from "../tracing";
import { capsOf, roomOf, tightest, type Cap } from "./caps";
import { countEarlierCopies } from "./duplicates";
import { readEscalation, rungOptions, TOKENS_PER_PAGE, type RungOptions } from "./escalation";
import { completeIfDone, lockRun, moveUrls } from "./moves";
import { settleChunkJob } from "./settle";
import type { RunSubmitPayload } from "./submit-item";
import type { Tx } from "../db";

// The run_submit handler: sends a run's pending and retrying URLs to the platform in chunks of at
// most batchSize, through the one rate budget with the purpose "submit" (below result fetches), and
// stays with the run (a few seconds between looks) until it is completed or cancelled.
//
// The unsafe moment. A chunk and its URLs are recorded first (state `recorded`, URLs `submitted`);
// the chunk is marked `posting` (committed) before its POST /v1/batch, and linked to the platform's
// job id after the 202. A crash or a lost answer in between leaves it `posting`: the next turn does
// not post blindly but first looks at the platform's batch jobs created since the chunk was recorded
// (filtered by its first URL), and adopts one with the same number of URLs that no chunk and no other
// submission of Tally owns. Only when none is found does it post again: the chunk's `postAttempts`
// then says the platform may have it twice, and when the other copy turns up (webhook, reconciliation)
// duplicates.ts counts it in the run's `duplicateSubmits` and maps nothing from it: each URL counts once.

const CHUNKS_PER_TURN = 10;
const IDLE_MS = 5_000;
const CLOCK_SKEW_MS = 5_000;
const MAX_SEARCH_PAGES = 3;

const requestSchema = z.object({
  formats: z.array(z.enum(["markdown", "html"])).optional(),
  render_js: z.boolean().optional(),
});

type Run = { id: string; state: string; batchSize: number; request: string; escalation: string | null };
type Chunk = {
  id: number;
  runId: string;
  seq: number;
  size: number;
  firstUrl: string;
  state: string;
  postAttempts: number;
  createdAt: Date;
  rung: number;
  reserved: number;
};

/** A chunk's POST body, in the shape lib/jobs submits and stores on Job.request. */
export type ChunkRequest = {
  kind: "batch";
  urls: string[];
  ignore_invalid_urls: boolean;
  formats?: ("markdown" | "html")[];
  render_js?: boolean;
} & RungOptions; // the rung's options (issue 39, lib/runs/escalation.ts rungOptions)
export type Accepted = { jobId: string; status: string };

/**
 * What the submitter needs from lib/jobs, handed in where the queue kinds are assembled
 * (lib/worker/registry.ts): runs build on jobs, and jobs call back into runs when an outcome is set
 * (settle.ts), so an import here would make the two folders a loop.
 */
export type JobsPort = {
  /** One POST, never retried by the client (lib/jobs/requests.ts sendToPlatform). */
  send(client: PlatformClient, req: ChunkRequest, signal: AbortSignal): Promise<Accepted>;
  /** Records the Job row with its request (lib/jobs/submit.ts recordSubmission). */
  record(tx: Tx, req: ChunkRequest, accepted: Accepted): Promise<{ id: string; outcome: string }>;
};

export function createRunSubmitHandler(jobs: JobsPort) {
  return (p: RunSubmitPayload, ctx: HandlerContext) => handleRunSubmit(jobs, p, ctx);
}

async function handleRunSubmit(jobs: JobsPort, p: RunSubmitPayload, ctx: HandlerContext): Promise<void | Reschedule> {
  for (let turn = 0; turn < CHUNKS_PER_TURN; turn++) {
    const run = await db().run.findUnique({ where: { id: p.runId } });
    if (!run || run.state !== "active") return; // completed or cancelled: this item is done
    const chunk =
      (await db().runChunk.findFirst({
        where: { runId: run.id, state: { in: ["recorded", "posting"] } },
        orderBy: { seq: "asc" },
      })) ?? (await recordChunk(run));
    if (!chunk) return rescheduleIn(IDLE_MS, "all URLs sent; waiting for results");
    // With tracing on, a span per chunk linked to the run's own trace (the item's later attempts are traces of their own).
    const runLink = linkTo(run.traceContext);
    const later = await inSpan(
      "run chunk",
      {
        links: runLink ? [runLink] : [],
        attributes: { "tally.run.id": run.id, "tally.run.chunk_seq": chunk.seq, "tally.run.chunk_size": chunk.size },
      },
      () => postChunk(jobs, run, chunk, ctx.signal),
    );
    if (later) return later;
  }
  return rescheduleIn(0, "more chunks to send");
}

/**
 * Takes the next URLs into a new chunk: the lowest rung any waiting URL is on (issue 39), and at that rung
 * retrying, then suspect, then pending URLs, each in list order. The chunk reserves a token per URL
 * (TOKENS_PER_PAGE) against every cap it draws on (the run's `maxTokens`, its collection's monthly cap:
 * lib/runs/caps.ts) in this same transaction, after its first write took the run's row (PostgreSQL) or the
 * writer slot (SQLite): two workers, or two runs of one collection, cannot both reserve the last tokens.
 * A run with no room left says which cap and by how much (capHit); with nothing in flight against that cap
 * it stops: its waiting URLs fail with `token_cap` and the run says why (capReason).
 */
async function recordChunk(run: Run): Promise<Chunk | null> {
  return transaction(async (tx) => {
    // Write first: the transaction takes the write lock before it reads (lib/jobs/store-results.ts).
    const fresh = await tx.run.updateMany({ where: { id: run.id, state: "active" }, data: { updatedAt: new Date() } });
    if (fresh.count === 0) return null;
    const lowest = async (state: "retrying" | "suspect" | "pending") =>
      (
        await tx.runUrl.findFirst({
          where: { runId: run.id, state },
          orderBy: [{ rung: "asc" }, { position: "asc" }],
          select: { rung: true },
        })
      )?.rung;
    const rungs = [await lowest("retrying"), await lowest("suspect"), await lowest("pending")].filter(
      (r): r is number => r !== undefined,
    );
    if (rungs.length === 0) return null;
    const rung = Math.min(...rungs);
    const spend = await tx.run.findUniqueOrThrow({
      where: { id: run.id },
      select: {
        maxTokens: true,
        tokensCharged: true,
        tokensReserved: true,
        capNote: true,
        collectionId: true,
        createdAt: true,
        pending: true,
        retrying: true,
        suspect: true,
      },
    });
    // Issue 50: every cap the chunk draws on, read under its lock in this transaction (lib/runs/caps.ts).
    const caps = await capsOf(tx, spend);
    let room = run.batchSize;
    const tight = tightest(caps);
    if (tight) {
      room = Math.min(room, Math.floor(roomOf(tight) / TOKENS_PER_PAGE));
      if (room <= 0) {
        await refuseAtCap(tx, run, spend, caps);
        return null;
      }
    }
    const pick = async (state: "retrying" | "suspect" | "pending", take: number) =>
      take <= 0
        ? []
        : tx.runUrl.findMany({
            where: { runId: run.id, state, rung },
            orderBy: { position: "asc" },
            take,
            select: { position: true, url: true },
          });
    const retrying = await pick("retrying", room);
    const suspect = await pick("suspect", room - retrying.length);
    const pending = await pick("pending", room - retrying.length - suspect.length);
    const urls = [...retrying, ...suspect, ...pending].sort((a, b) => a.position - b.position);
    const first = urls[0];
    if (!first) return null;
    const reserved = urls.length * TOKENS_PER_PAGE;
    const counter = await tx.run.update({
      where: { id: run.id },
      data: {
        chunksTotal: { increment: 1 },
        tokensReserved: { increment: tight ? reserved : 0 },
        // A chunk went out: no cap refuses the run now.
        ...NO_CAP_HIT,
      },
      select: { chunksTotal: true, startedAt: true },
    });
    if (!counter.startedAt) await tx.run.update({ where: { id: run.id }, data: { startedAt: new Date() } });
    const chunk = await tx.runChunk.create({
      data: {
        runId: run.id,
        seq: counter.chunksTotal,
        size: urls.length,
        firstUrl: first.url,
        state: "recorded",
        rung,
        reserved: tight ? reserved : 0,
      },
    });
    // The first N URLs of a state (at this rung) in list order are exactly those of that state and rung up
    // to the last one taken: a range, not a list of 1,000 parameters.
    const data = {
      chunkId: chunk.id,
      attempts: { increment: 1 },
      rungAttempts: { increment: 1 },
      jobId: null,
      itemKey: null,
    };
    const upTo = (rows: { position: number }[]) => ({
      rung,
      position: { lte: rows[rows.length - 1]?.position ?? -1 },
    });
    if (retrying.length > 0) await moveUrls(tx, run.id, "retrying", "submitted", upTo(retrying), data);
    if (suspect.length > 0) await moveUrls(tx, run.id, "suspect", "submitted", upTo(suspect), data);
    if (pending.length > 0) await moveUrls(tx, run.id, "pending", "submitted", upTo(pending), data);
    return chunk;
  });
}

const NO_CAP_HIT = { capHit: null, capLimit: null, capUsed: null, capWanted: null };

/**
 * No room under a cap for the next chunk: the run says which cap and by how much (capHit and the rest). If
 * nothing reserved against a full cap can come back (no chunk in flight draws on it), the run stops: its
 * waiting URLs fail with token_cap and capReason says why. Otherwise it waits for those chunks to settle.
 */
async function refuseAtCap(
  tx: Tx,
  run: Run,
  spend: { tokensCharged: number; capNote: string | null; pending: number; retrying: number; suspect: number },
  caps: Cap[],
): Promise<void> {
  const full = caps.filter((c) => roomOf(c) <= 0);
  const final = full.find((c) => c.inFlight <= 0);
  const hit = final ?? tightest(full);
  if (!hit) return;
  const wanted = Math.min(run.batchSize, spend.pending + spend.retrying + spend.suspect) * TOKENS_PER_PAGE;
  await tx.run.update({
    where: { id: run.id },
    data: { capHit: hit.cap, capLimit: hit.limit, capUsed: hit.used, capWanted: wanted },
  });
  if (!final) return;
  const reason =
    final.cap === "run"
      ? `maxTokens ${final.limit} reached (${spend.tokensCharged} charged${spend.capNote ? `; ${spend.capNote}` : ""}): no further chunk or rung is submitted`
      : `the collection's monthly cap of ${final.limit} tokens reached (${final.used} charged by its runs this month; the next batch needed ${wanted}): no further chunk or rung is submitted`;
  await tx.run.update({ where: { id: run.id }, data: { capReason: reason } });
  const data = { errorCode: "token_cap", errorMessage: reason };
  for (const state of ["pending", "retrying", "suspect"] as const)
    await moveUrls(tx, run.id, state, "failed", {}, data);
  await completeIfDone(tx, run.id);
}

async function chunkRequest(run: Run, chunkId: number, rung: number): Promise<ChunkRequest> {
  const urls = await db().runUrl.findMany({
    where: { runId: run.id, chunkId, state: "submitted" },
    orderBy: { position: "asc" },
    select: { url: true },
  });
  const opts = requestSchema.parse(JSON.parse(run.request));
  // The chunk's rung laid over the run's own options (lib/runs/escalation.ts).
  const ladder = readEscalation(run.escalation);
  return {
    kind: "batch",
    urls: urls.map((u) => u.url),
    ignore_invalid_urls: true,
    ...opts,
    ...rungOptions(ladder[rung]),
  };
}

async function postChunk(jobs: JobsPort, run: Run, chunk: Chunk, signal: AbortSignal): Promise<Reschedule | null> {
  const client = getPlatformClient();
  const req = await chunkRequest(run, chunk.id, chunk.rung);
  if (req.urls.length === 0) {
    // Every URL of the chunk left it (cancelled): nothing to send; its reservation goes back.
    await transaction(async (tx) => {
      await tx.runChunk.update({ where: { id: chunk.id }, data: { state: "settled", settledAt: new Date() } });
      await tx.run.update({ where: { id: run.id }, data: { tokensReserved: { decrement: chunk.reserved } } });
    });
    return null;
  }
  let calls = 0;
  if (chunk.state === "posting") {
    const found = await withPurpose("submit", () => findChunkJob(client, chunk, req.urls.length, signal)).catch(
      (err: unknown) => ({ error: err }),
    );
    if (found && "error" in found)
      return rescheduleIn(
        backoffMs(chunk.postAttempts, 1000, 60_000),
        `looking for chunk ${chunk.seq}'s job failed: ${String(found.error)}`,
      );
    calls += found?.calls ?? 0;
    if (found?.accepted) {
      await recordAccepted(jobs, run.id, chunk, req, found.accepted, calls, "adopted after an interrupted submit");
      return null;
    }
  }
  await db().runChunk.update({
    where: { id: chunk.id },
    data: { state: "posting", postAttempts: { increment: 1 }, postedAt: new Date() },
  });
  let accepted: Accepted;
  try {
    calls++;
    accepted = await withPurpose("submit", () => jobs.send(client, req, signal));
  } catch (err) {
    await db().run.update({ where: { id: run.id }, data: { platformCalls: { increment: calls } } });
    const refused = asPlatformError(err);
    if (refused && isRejectedInput(refused)) {
      // The platform refused the body: the same body cannot succeed; its URLs fail with the reason.
      await transaction(async (tx) => {
        await tx.runChunk.update({ where: { id: chunk.id }, data: { state: "failed", settledAt: new Date() } });
        await tx.run.update({ where: { id: run.id }, data: { tokensReserved: { decrement: chunk.reserved } } });
        await moveUrls(
          tx,
          run.id,
          "submitted",
          "failed",
          { chunkId: chunk.id },
          {
            errorCode: refused.code ?? "BATCH_REJECTED",
            errorMessage: `the platform refused the batch: ${refused.message}`.slice(0, 500),
          },
        );
        await completeIfDone(tx, run.id);
      });
      return null;
    }
    // Refused before anything was written (429, 402, another 4xx): post again without looking first.
    if (refused && refused.status !== null && refused.status < 500)
      await db().runChunk.update({ where: { id: chunk.id }, data: { state: "recorded" } });
    // Otherwise (5xx, timeout, network) the platform may have it: stay `posting`, look before posting.
    return rescheduleIn(
      backoffMs(chunk.postAttempts + 1, 1000, 60_000),
      `POST /v1/batch for chunk ${chunk.seq}: ${String(err)}`,
    );
  }
  await recordAccepted(
    jobs,
    run.id,
    chunk,
    req,
    accepted,
    calls,
    chunk.postAttempts > 0 ? "posted again" : "submitted",
  );
  return null;
}

/** Links the chunk to its platform job; if that job already has its outcome (a fast webhook), maps it now. */
async function recordAccepted(
  jobs: JobsPort,
  runId: string,
  chunk: Chunk,
  req: ChunkRequest,
  accepted: Accepted,
  calls: number,
  how: string,
) {
  await transaction(async (tx) => {
    // The Job row first: it is the lock a concurrent settle takes too (see settle.ts).
    const job = await jobs.record(tx, req, accepted);
    await lockRun(tx, runId);
    await tx.jobEvent.create({
      data: { jobId: job.id, type: "note", detail: JSON.stringify({ run: runId, chunk: chunk.seq, how }) },
    });
    await tx.runChunk.update({
      where: { id: chunk.id },
      data: { state: "submitted", jobId: accepted.jobId, submittedAt: new Date() },
    });
    await tx.runUrl.updateMany({
      where: { runId, chunkId: chunk.id, state: "submitted" },
      data: { jobId: accepted.jobId },
    });
    await tx.run.update({
      where: { id: runId },
      data: { chunksSubmitted: { increment: 1 }, platformCalls: { increment: calls } },
    });
    await countEarlierCopies(tx, chunk.id);
    if (job.outcome !== "pending") await settleChunkJob(tx, job.id, job.outcome);
  });
}

/** A batch job on the platform that is this chunk's lost submission, or null; with the calls it took. */
async function findChunkJob(
  client: PlatformClient,
  chunk: Chunk,
  size: number,
  signal: AbortSignal,
): Promise<{ accepted: Accepted | null; calls: number }> {
  const from = chunk.createdAt.getTime() - CLOCK_SKEW_MS;
  let calls = 0;
  const pages = client.listBatchJobs({ start_date: new Date(from), url: chunk.firstUrl, page_size: 100 }, { signal });
  for await (const page of pages) {
    calls++;
    const candidates = page.items.filter(
      (j) =>
        Date.parse(j.created_at) >= from &&
        "accepted_urls" in j &&
        typeof j.accepted_urls === "number" &&
        j.accepted_urls === size,
    );
    if (candidates.length > 0) {
      const ids = candidates.map((c) => c.job_id);
      const owned = new Set(
        [
          ...(await db().runChunk.findMany({ where: { jobId: { in: ids } }, select: { jobId: true } })).map(
            (c) => c.jobId,
          ),
          // A job Tally submitted itself (a standalone batch, a resubmission) is not a lost chunk.
          ...(await db().job.findMany({ where: { id: { in: ids }, origin: "submitted" }, select: { id: true } })).map(
            (j) => j.id,
          ),
        ].filter((id): id is string => id !== null),
      );
      const fresh = candidates
        .filter((c) => !owned.has(c.job_id))
        .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
      if (fresh[0]) return { accepted: { jobId: fresh[0].job_id, status: fresh[0].status }, calls };
    }
    if (calls >= MAX_SEARCH_PAGES) break;
  }
  return { accepted: null, calls };
}
