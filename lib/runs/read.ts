import "server-only";
import { z } from "zod";
import { readDb } from "../db";
import { NotFound } from "../errors";
import { storedChecks } from "../content-checks";
import { decodeCursor, decodeKeyset, encodeCursor, pageOf, textId } from "../keyset";
import type { Run } from "@/generated/prisma/client";
import { readEscalation, rungName } from "./escalation";
import {
  CAP_NAMES,
  URL_STATES,
  type CapHit,
  type ChangeCounts,
  type RunList,
  type RunState,
  type RunUrlView,
  type RunView,
} from "./contracts";

const urlState = z.enum(URL_STATES);
// The cursors of the runs list and of one run's URLs (lib/keyset.ts: one codec, one answer to a bad one).
const RUNS_CURSOR = "rn1";
const RUN_URLS_CURSOR = "ru1";
const position = z.tuple([z.number().int().min(0)]);

// What a run says about itself: one indexed row read (the counters are on it), whatever its size, on the
// reading connection (lib/db.ts readDb): never queued behind the worker settling a 1,000-item batch.

/** submitting while URLs wait to go out or a chunk is on its way; running while only results are awaited. */
function stateOf(r: Run): RunState {
  if (r.state === "completed" || r.state === "cancelled") return r.state;
  return r.pending + r.retrying + r.suspect > 0 || r.chunksSubmitted < r.chunksTotal ? "submitting" : "running";
}

/** Seconds left at the pace so far (URLs final per second since the first chunk); null before any is final. */
function etaOf(r: Run, now: number): number | null {
  if (r.state !== "active") return r.state === "completed" ? 0 : null;
  const done = r.stored + r.failed;
  if (!r.startedAt || done === 0) return null;
  const elapsed = (now - r.startedAt.getTime()) / 1000;
  if (elapsed <= 0) return null;
  return Math.max(0, Math.round(((r.total - done) * elapsed) / done));
}

function changesOf(r: Run): ChangeCounts | null {
  if (r.changesState !== "done") return null;
  return {
    new: r.changesNew ?? 0,
    changed: r.changesChanged ?? 0,
    unchanged: r.changesUnchanged ?? 0,
    gone: r.changesGone ?? 0,
  };
}

const capName = z.enum(CAP_NAMES);
/** Which cap refused the run's next chunk last (issue 50), and by how much; null when none has. */
function capHitOf(r: Run): CapHit | null {
  const cap = capName.safeParse(r.capHit);
  if (!cap.success || r.capLimit === null || r.capUsed === null || r.capWanted === null) return null;
  return {
    cap: cap.data,
    limit: r.capLimit,
    used: r.capUsed,
    wanted: r.capWanted,
    over: r.capUsed + r.capWanted - r.capLimit,
  };
}

const names = z.array(z.string());
/** RunUrl.rungsTried: a JSON list of rung names, oldest first. */
export function rungsTriedOf(json: string | null): string[] {
  if (!json) return [];
  try {
    const parsed = names.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function toRunView(r: Run, now = Date.now()): RunView {
  return {
    id: r.id,
    name: r.name,
    state: stateOf(r),
    total: r.total,
    invalid: r.invalid,
    duplicates: r.duplicates,
    counts: {
      pending: r.pending,
      submitted: r.submitted,
      stored: r.stored,
      retrying: r.retrying,
      suspect: r.suspect,
      failed: r.failed,
    },
    chunks: {
      total: r.chunksTotal + (r.state === "active" ? Math.ceil((r.pending + r.retrying + r.suspect) / r.batchSize) : 0),
      submitted: r.chunksSubmitted,
    },
    duplicateSubmits: r.duplicateSubmits,
    platformCalls: r.platformCalls,
    batchSize: r.batchSize,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    completedAt: r.completedAt?.toISOString() ?? null,
    etaSeconds: etaOf(r, now),
    collectionId: r.collectionId,
    trigger: r.trigger === "schedule" || r.trigger === "manual" ? r.trigger : null,
    changes: changesOf(r),
    tokens: {
      charged: r.tokensCharged,
      reserved: r.tokensReserved,
      max: r.maxTokens,
      capReason: r.capReason,
      capHit: capHitOf(r),
    },
  };
}

export async function getRun(id: string): Promise<RunView> {
  const r = await readDb().run.findUnique({ where: { id } });
  if (!r) throw new NotFound(`No run ${id}`);
  // Spend per rung (issue 39): a run has at most a few hundred chunks, grouped on its (runId, …) index.
  const groups = await readDb().runChunk.groupBy({
    by: ["rung"],
    where: { runId: id },
    _count: { _all: true },
    _sum: { size: true, tokensCharged: true },
    orderBy: { rung: "asc" },
  });
  const ladder = readEscalation(r.escalation);
  return {
    platform: await platformOf(r),
    ...toRunView(r),
    rungs: groups.map((g) => ({
      rung: g.rung,
      name: rungName(ladder[g.rung]),
      batches: g._count._all,
      urls: g._sum.size ?? 0,
      tokens: g._sum.tokensCharged ?? 0,
    })),
    checks: storedChecks(r.checks),
    ladder: ladder.map((rung, i) => ({ rung: i, name: rungName(rung) })),
  };
}

// The copies duplicates.ts counted carry a note naming the run; what the platform charged for them is on
// their job rows. Read only for a run that has any (a LIKE over the notes is not free).
async function platformOf(r: Run): Promise<NonNullable<RunView["platform"]>> {
  const jobs = await readDb().runChunk.count({ where: { runId: r.id, jobId: { not: null } } });
  if (r.duplicateSubmits === 0) return { jobs, duplicates: 0, duplicateTokens: 0 };
  const notes = await readDb().jobEvent.findMany({
    where: { type: "note", detail: { contains: `{"duplicateOf":{"run":${JSON.stringify(r.id)}` } },
    select: { jobId: true },
  });
  const ids = [...new Set(notes.map((e) => e.jobId))];
  const agg = await readDb().job.aggregate({ where: { id: { in: ids } }, _sum: { tokensCharged: true } });
  return { jobs, duplicates: r.duplicateSubmits, duplicateTokens: agg._sum.tokensCharged ?? 0 };
}

/** Runs, newest first, keyset-paged on (createdAt, id). */
export async function listRuns(q: { cursor?: string; limit: number }): Promise<RunList> {
  const c = decodeKeyset(RUNS_CURSOR, q.cursor, textId);
  const rows = await readDb().run.findMany({
    where: c ? { createdAt: { lte: c.at }, OR: [{ createdAt: { lt: c.at } }, { id: { lt: c.id } }] } : {},
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const page = pageOf(RUNS_CURSOR, rows, q.limit, (r) => r.createdAt);
  return { items: page.items.map((r) => toRunView(r)), nextCursor: page.nextCursor };
}

/** A run's URLs in list order, optionally in one state, keyset-paged on the position. */
export async function listRunUrls(
  runId: string,
  q: { state?: string; cursor?: string; limit: number },
): Promise<{ items: RunUrlView[]; nextCursor: string | null }> {
  const exists = await readDb().run.findUnique({ where: { id: runId }, select: { id: true } });
  if (!exists) throw new NotFound(`No run ${runId}`);
  const from = decodeCursor(RUN_URLS_CURSOR, q.cursor, position)?.[0] ?? -1;
  const rows = await readDb().runUrl.findMany({
    where: { runId, ...(q.state ? { state: q.state } : {}), position: { gt: from } },
    orderBy: { position: "asc" },
    take: q.limit + 1,
  });
  const items = rows.slice(0, q.limit);
  const last = items[items.length - 1];
  return {
    items: items.map((u) => ({
      url: u.url,
      state: urlState.parse(u.state),
      attempts: u.attempts,
      jobId: u.jobId,
      itemKey: u.itemKey,
      errorCode: u.errorCode,
      errorMessage: u.errorMessage,
      storedAt: u.storedAt?.toISOString() ?? null,
      rung: u.rung,
      rungsTried: rungsTriedOf(u.rungsTried),
      tokensCharged: u.tokensCharged,
      checkName: u.checkName,
      checkExcerpt: u.checkExcerpt,
    })),
    nextCursor: rows.length > q.limit && last ? encodeCursor(RUN_URLS_CURSOR, [last.position]) : null,
  };
}
