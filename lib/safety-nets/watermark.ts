import "server-only";
import { db } from "../db";
import type { JobKind } from "../platform";

// Where incremental reconciliation resumes, per job kind. `createdFrom` is a platform created_at:
// every job of that kind created before it is settled and has its outcome here. A run lists from
// `createdFrom - OVERLAP_MS`: the overlap covers clock skew between the platform's hosts and jobs that
// become visible in the list a little after their created_at.

export const OVERLAP_MS = 10 * 60_000;

export type Watermark = { kind: JobKind; createdFrom: Date | null; lastFullScanAt: Date | null };

export async function readWatermarks(kinds: readonly JobKind[]): Promise<Map<JobKind, Watermark>> {
  const rows = await db().reconcileWatermark.findMany({ where: { kind: { in: [...kinds] } } });
  const byKind = new Map(rows.map((r) => [r.kind, r]));
  return new Map(
    kinds.map((kind) => [
      kind,
      {
        kind,
        createdFrom: byKind.get(kind)?.createdFrom ?? null,
        lastFullScanAt: byKind.get(kind)?.lastFullScanAt ?? null,
      },
    ]),
  );
}

/** Stores where the next run starts; a full scan also stamps its time. */
export async function saveWatermark(kind: JobKind, createdFrom: Date | null, fullScanAt: Date | null): Promise<void> {
  const data = { createdFrom, ...(fullScanAt ? { lastFullScanAt: fullScanAt } : {}) };
  await db().reconcileWatermark.upsert({ where: { kind }, create: { kind, ...data }, update: data });
}

/**
 * The running low point of a window: the earliest created_at among jobs that still need looking at
 * (not settled, too recent, or without an outcome), and the latest created_at seen.
 */
export class WindowTracker {
  private hold: number | null = null;
  private latest: number | null = null;
  constructor(private readonly ignoreHoldsBefore: number) {}

  seen(createdAt: number): void {
    if (this.latest === null || createdAt > this.latest) this.latest = createdAt;
  }

  /** A job not yet accounted for; one stuck for longer than the full-scan period is left to the full scan. */
  notDone(createdAt: number): void {
    if (createdAt < this.ignoreHoldsBefore) return;
    if (this.hold === null || createdAt < this.hold) this.hold = createdAt;
  }

  /** The next watermark: the earliest job still open, else the newest job seen, else where it was. */
  next(previous: Date | null): Date | null {
    if (this.hold !== null) return new Date(this.hold);
    if (this.latest !== null) return new Date(Math.max(this.latest, previous?.getTime() ?? 0));
    return previous;
  }
}
