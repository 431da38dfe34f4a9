import "server-only";
import { db } from "../db";
import { NotFound } from "../errors";
import type { z } from "zod";
import type { runViewSchema } from "./contracts";
import type { Json } from "./runs";

// What the API, the CLI and the dashboard see of a run: JSON columns parsed back into objects.

export type RunView = z.infer<typeof runViewSchema>;

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof db>["operationRun"]["findUnique"]>>>;

function parseJson(text: string | null): Json | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value))
      : null;
  } catch {
    return null;
  }
}

const stateOf = (s: string): RunView["state"] => (s === "succeeded" || s === "failed" ? s : "running");

export function toView(r: Row): RunView {
  return {
    id: r.id,
    kind: r.kind,
    state: stateOf(r.state),
    params: parseJson(r.params),
    progress: parseJson(r.progress),
    summary: parseJson(r.summary),
    error: r.error,
    startedBy: r.startedBy,
    startedAt: r.startedAt.toISOString(),
    heartbeatAt: r.heartbeatAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

export async function getRun(id: string): Promise<RunView | null> {
  const row = await db().operationRun.findUnique({ where: { id } });
  return row ? toView(row) : null;
}

export async function getRunOr404(runId: string): Promise<RunView> {
  const run = await getRun(runId);
  if (!run) throw new NotFound(`No operation run ${runId}`);
  return run;
}
