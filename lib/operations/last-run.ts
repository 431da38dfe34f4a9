import "server-only";
import { z } from "zod";
import { db } from "../db";
import type { LastRun } from "./contracts";

// The last reconciliation for the overview tile. Its summary is JSON written by lib/safety-nets'
// reconciler; it is parsed (never cast) into flat figures so the tile shows whatever it counted.

export type { LastRun } from "./contracts";

const flat = z.record(z.string(), z.unknown());

function figures(json: string | null): LastRun["figures"] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const record = flat.safeParse(parsed);
  if (!record.success) return [];
  return Object.entries(record.data)
    .filter((e): e is [string, string | number | boolean] => ["string", "number", "boolean"].includes(typeof e[1]))
    .slice(0, 8)
    .map(([name, value]) => ({ name, value: String(value) }));
}

export async function lastReconciliation(): Promise<LastRun | null> {
  const run = await db().operationRun.findFirst({ where: { kind: "reconcile" }, orderBy: { startedAt: "desc" } });
  if (!run) return null;
  return {
    id: run.id,
    state: run.state,
    startedBy: run.startedBy,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    error: run.error,
    figures: figures(run.summary ?? run.progress),
  };
}
