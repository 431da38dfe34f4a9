import "server-only";
import { z } from "zod";
import type { EnqueueItem } from "../queue";

// The run_submit queue item, written once: its name, payload and dedupe key (one live item per run).
// Kept free of the handler, so the settle path can wake it without importing the submitter.

export const RUN_SUBMIT = "run_submit";
export const runSubmitPayload = z.object({ runId: z.string().min(1).max(100) });
export type RunSubmitPayload = z.infer<typeof runSubmitPayload>;

export const runDedupeKey = (runId: string) => `run:${runId}`;

export function runSubmitItem(runId: string, availableAt?: Date): EnqueueItem & { dedupeKey: string } {
  return {
    kind: RUN_SUBMIT,
    payload: { runId } satisfies RunSubmitPayload,
    dedupeKey: runDedupeKey(runId),
    availableAt,
  };
}
