import "server-only";
import { z } from "zod";
import { db } from "../db";
import { log } from "../log";
import { countBodySweep } from "../metrics";
import { slot } from "../runtime";
import { claimTick, singleFlight } from "../scheduling";
import { bodyStore } from "./process";
import { clearStaleMarks, MARK_STALE_MS, markSweeping, unmarkSweeping } from "./sweep-marks";
import type { BodyStore } from "./store";

// The sweep of orphans: objects no Result row names (a store that crashed between its put and its
// commit, a row deleted), older than the grace, deleted. Safe against stores in flight: a put writes
// its object or, finding it kept already, makes it young again (Backend.touch), before the row's
// transaction opens, and a store's put-to-commit is far shorter than the grace. So an object last
// written or touched before (start - grace) belongs to a store that committed, or failed, before the
// sweep started, and the rows read after the start show whether it is named; the removal checks the
// age once more as it removes. Single-flight across processes: the hourly tick (TALLY_SCHEDULER=on)
// and POST /api/cron/bodies-sweep share one lease.

/** Longer than any store's put-to-commit by far (a page of results is put and inserted in seconds). */
export const BODY_SWEEP_GRACE_MS = 6 * 3_600_000;
const HOUR = 3_600_000;
const CHECK_MS = 5 * 60_000;
/** The lease outlives a crashed sweep by at most this (a sweep of millions of objects takes minutes). */
const SWEEP_TTL_MS = 2 * HOUR;
const PAGE = 5_000;

export type SweepReport = {
  unit: "bodies-sweep";
  /** Objects listed in the store. */
  objects: number;
  /** Distinct keys the rows name. */
  referenced: number;
  /** Objects past the grace that no row named, and removed. */
  deleted: number;
  bytesDeleted: number;
  /** Temporary files of crashed writes past the grace, removed (file store). */
  temporariesDeleted: number;
  graceMs: number;
};

const keyRow = z.object({
  id: z.coerce.number().int(),
  markdownKey: z.string().nullable(),
  markdownSize: z.coerce.number().nullable(),
  htmlKey: z.string().nullable(),
  htmlSize: z.coerce.number().nullable(),
});

/**
 * Every key a Result row names with its uncompressed size, read a page at a time by id; and the bytes
 * the rows name in all (a page named by many rows counted each time).
 */
async function referencedKeys(): Promise<{ keys: Map<string, number>; rowsBytes: number }> {
  const keys = new Map<string, number>();
  let rowsBytes = 0;
  for (let after = 0; ;) {
    const rows = keyRow.array().parse(
      await db().$queryRaw`
        SELECT "id", "markdownKey", "markdownSize", "htmlKey", "htmlSize" FROM "Result"
        WHERE "id" > ${after} AND ("markdownKey" IS NOT NULL OR "htmlKey" IS NOT NULL)
        ORDER BY "id" LIMIT ${PAGE}`,
    );
    for (const r of rows) {
      if (r.markdownKey) {
        keys.set(r.markdownKey, r.markdownSize ?? 0);
        rowsBytes += r.markdownSize ?? 0;
      }
      if (r.htmlKey) {
        keys.set(r.htmlKey, r.htmlSize ?? 0);
        rowsBytes += r.htmlSize ?? 0;
      }
    }
    if (rows.length < PAGE) return { keys, rowsBytes };
    after = rows[rows.length - 1].id;
  }
}

/** The store as this sweep left it, for Settings and the tally_body_store_* gauges (one row). */
async function recordCensus(c: Omit<BodyCensusView, "countedAt">, at: Date): Promise<void> {
  const data = {
    countedAt: at,
    objects: c.objects,
    storedBytes: BigInt(c.storedBytes),
    referenced: c.referenced,
    distinctBytes: BigInt(c.distinctBytes),
    rowsBytes: BigInt(c.rowsBytes),
  };
  await db().bodyCensus.upsert({ where: { id: 1 }, create: { id: 1, ...data }, update: data });
}

export type BodyCensusView = {
  countedAt: string;
  /** Objects kept and their bytes as stored (compressed). */
  objects: number;
  storedBytes: number;
  /** Distinct bodies the rows name, and their uncompressed bytes. */
  referenced: number;
  distinctBytes: number;
  /** Uncompressed bytes every row names; rowsBytes - distinctBytes is what sharing saves. */
  rowsBytes: number;
};

/** The last sweep's count of the store, or null before the first sweep. */
export async function bodyCensus(): Promise<BodyCensusView | null> {
  const row = await db().bodyCensus.findUnique({ where: { id: 1 } });
  if (!row) return null;
  return {
    countedAt: row.countedAt.toISOString(),
    objects: row.objects,
    storedBytes: Number(row.storedBytes),
    referenced: row.referenced,
    distinctBytes: Number(row.distinctBytes),
    rowsBytes: Number(row.rowsBytes),
  };
}

/**
 * An orphan's removal under its mark (sweep-marks.ts): a put that makes the body young again while
 * the mark is set waits for it to go, then writes the body again if the delete took it. A removal
 * that would start later than MARK_STALE_MS after its mark (a stalled process) is not made: the put
 * waiting on it has given up by then.
 */
async function removeMarked(
  store: BodyStore,
  c: { key: string; codec: Parameters<BodyStore["get"]>[1] },
  before: Date,
): Promise<boolean> {
  const markedAt = await markSweeping(c.key);
  try {
    return await store.deleteIfOlder(c.key, c.codec, before, new Date(markedAt + MARK_STALE_MS / 2));
  } finally {
    await unmarkSweeping(c.key);
  }
}

/** One sweep (not single-flight: sweepBodiesOnce is). `now` and `graceMs` for tests. */
export async function sweepBodies(
  opts: { now?: Date; graceMs?: number; store?: BodyStore } = {},
): Promise<SweepReport> {
  const store = opts.store ?? bodyStore();
  const graceMs = opts.graceMs ?? BODY_SWEEP_GRACE_MS;
  const before = new Date((opts.now ?? new Date()).getTime() - graceMs);
  // Candidates first (old enough), then the rows: a store committing after this point put or touched
  // its object after `before`, so it is not a candidate.
  const candidates: Array<{ key: string; codec: Parameters<BodyStore["get"]>[1]; storedSize: number }> = [];
  let objects = 0;
  let storedBytes = 0;
  for await (const o of store.list()) {
    objects++;
    storedBytes += o.storedSize;
    if (o.modifiedAt < before) candidates.push(o);
  }
  const { keys: referenced, rowsBytes } = await referencedKeys();
  await clearStaleMarks();
  let deleted = 0;
  let bytesDeleted = 0;
  for (const c of candidates) {
    if (referenced.has(c.key)) continue;
    if (await removeMarked(store, c, before)) {
      deleted++;
      bytesDeleted += c.storedSize;
    }
  }
  countBodySweep(deleted, bytesDeleted);
  // What crashed writes left: no write takes as long as the grace, so nothing older is in progress.
  const temporariesDeleted = await store.removeStaleTemporaries(before);
  let distinctBytes = 0;
  for (const size of referenced.values()) distinctBytes += size;
  await recordCensus(
    {
      objects: objects - deleted,
      storedBytes: storedBytes - bytesDeleted,
      referenced: referenced.size,
      distinctBytes,
      rowsBytes,
    },
    opts.now ?? new Date(),
  );
  return {
    unit: "bodies-sweep",
    objects,
    referenced: referenced.size,
    deleted,
    bytesDeleted,
    temporariesDeleted,
    graceMs,
  };
}

/** One sweep unless one runs in any process (Conflict, 409 at the cron route). */
export function sweepBodiesOnce(opts: { now?: Date; graceMs?: number } = {}): Promise<SweepReport> {
  return singleFlight("cron:bodies-sweep", SWEEP_TTL_MS, () => sweepBodies(opts));
}

/** Sweeps hourly across all processes (TALLY_SCHEDULER=on): whoever wins the hour's tick sweeps. */
export function startBodySweep(): void {
  const started = slot<true>("bodySweep.started");
  if (started.get()) return;
  started.set(true);
  const run = () =>
    claimTick("bodies-sweep", HOUR)
      .then((won) => (won ? sweepBodiesOnce() : null))
      .then((r) => {
        if (r && (r.deleted > 0 || r.temporariesDeleted > 0)) log.info("unreferenced page bodies swept", r);
      })
      .catch((err: unknown) => log.warn("body sweep failed", { error: String(err) }));
  setInterval(run, CHECK_MS).unref();
}
