import "server-only";
import { z } from "zod";
import type { EnqueueItem } from "../queue";

// The classify_run queue item, written once: a collection run that completes gets its URLs compared
// with the collection's previous completed run (lib/collections/classify.ts handles it). Queued in the
// transaction that completes the run, so a completed collection run is always classified.

export const CLASSIFY_RUN = "classify_run";
export const classifyRunPayload = z.object({ runId: z.string().min(1).max(100) });
export type ClassifyRunPayload = z.infer<typeof classifyRunPayload>;

export function classifyRunItem(runId: string): EnqueueItem {
  return { kind: CLASSIFY_RUN, payload: { runId } satisfies ClassifyRunPayload, dedupeKey: `classify:${runId}` };
}
