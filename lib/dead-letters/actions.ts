import "server-only";
import { z } from "zod";
import { db } from "../db";
import type { ActionSummary } from "./contracts";
import { BadRequest, Conflict } from "../errors";
import { audited } from "../audit";
import { addEvent } from "../jobs";
import { retryDeadLetter, type RetryResult } from "./retry";
import { deadLetterFilterSchema, filterWhere } from "./list";

// Retry and discard, for a few rows picked by id or for everything a filter matches. By filter, the
// operator confirms a count first; if the matching set has grown or shrunk since, the server answers
// 409 with the current count instead of acting on rows nobody saw. Every row is then changed with a
// compare-and-set on state = 'open', so a row retried, discarded or resolved meanwhile is skipped and
// counted, never acted on twice.

export const MAX_BULK = 1000;

const idsSchema = z
  .array(z.number().int().positive())
  .min(1, { error: "select at least one dead letter" })
  .max(MAX_BULK);
const byFilter = {
  filter: deadLetterFilterSchema.omit({ state: true }),
  expectedCount: z.number().int().min(0),
};
export const retryBodySchema = z.union([z.strictObject({ ids: idsSchema }), z.strictObject(byFilter)], {
  error: "send {ids: [...]} or {filter: {...}, expectedCount}",
});
const reason = z.string().trim().min(3, { error: "say why, in a few words (at least 3 characters)" }).max(500);
export const discardBodySchema = z.union(
  [z.strictObject({ ids: idsSchema, reason }), z.strictObject({ ...byFilter, reason })],
  {
    error: "send {ids: [...], reason} or {filter: {...}, expectedCount, reason}",
  },
);
export type RetryBody = z.infer<typeof retryBodySchema>;
export type DiscardBody = z.infer<typeof discardBodySchema>;

export type { ActionSummary } from "./contracts";

/** Those named, or every open row the filter matches if its count is as confirmed. */
async function select(body: RetryBody | DiscardBody): Promise<number[]> {
  if ("ids" in body) return [...new Set(body.ids)];
  const rows = await db().deadLetter.findMany({
    where: { ...filterWhere({ ...body.filter, state: "open" }) },
    select: { id: true },
    orderBy: { id: "asc" },
    take: MAX_BULK + 1,
  });
  if (rows.length > MAX_BULK) {
    throw new BadRequest(`More than ${MAX_BULK} dead letters match; narrow the filter and act in steps`);
  }
  if (rows.length !== body.expectedCount) {
    throw new Conflict(
      `${rows.length} open dead letters match this filter now, not ${body.expectedCount}. Check the list and confirm again.`,
      {
        currentCount: rows.length,
      },
    );
  }
  return rows.map((r) => r.id);
}

function summarize(action: ActionSummary["action"], ids: number[], results: ActionSummary["results"]): ActionSummary {
  const skipped = results.filter((r) => r.result === "skipped").length;
  const failed = results.filter((r) => r.result === "failed").length;
  return {
    action,
    requested: ids.length,
    changed: ids.length - skipped - failed,
    skipped,
    failed,
    results: results.slice(0, 200),
  };
}

const selectionOf = (body: RetryBody | DiscardBody) =>
  "ids" in body ? { ids: body.ids.slice(0, 100) } : { filter: body.filter, expectedCount: body.expectedCount };
const counts = (s: ActionSummary) => ({
  requested: s.requested,
  changed: s.changed,
  skipped: s.skipped,
  failed: s.failed,
});

/** Audited also when refused (409, too many): audited() records the error and rethrows it. */
export function discardDeadLetters(body: DiscardBody, actor: string): Promise<ActionSummary> {
  const entry = { actor, action: "dead_letters.discard", detail: { ...selectionOf(body), reason: body.reason } };
  return audited(entry, () => discard(body, actor), counts);
}

export function retryDeadLetters(body: RetryBody, actor: string): Promise<ActionSummary> {
  const entry = { actor, action: "dead_letters.retry", detail: selectionOf(body) };
  return audited(
    entry,
    () => retry(body, actor),
    counts,
    (s) => s.failed === 0,
  );
}

async function discard(body: DiscardBody, actor: string): Promise<ActionSummary> {
  const ids = await select(body);
  const results: ActionSummary["results"] = [];
  const now = new Date();
  for (let i = 0; i < ids.length; i += 200) {
    const chunk = ids.slice(i, i + 200);
    await db().$transaction(async (tx) => {
      for (const id of chunk) {
        const { count } = await tx.deadLetter.updateMany({
          where: { id, state: "open" },
          data: { state: "discarded", resolution: body.reason, resolvedBy: actor, resolvedAt: now },
        });
        if (count === 0) {
          results.push({ id, result: "skipped", message: "no longer open" });
          continue;
        }
        results.push({ id, result: "discarded" });
        const row = await tx.deadLetter.findUnique({ where: { id }, select: { jobId: true } });
        if (row?.jobId)
          await addEvent(tx, row.jobId, "note", { deadLetter: id, discardedBy: actor, reason: body.reason });
      }
    });
  }
  return summarize("discard", ids, results);
}

async function retry(body: RetryBody, actor: string): Promise<ActionSummary> {
  const ids = await select(body);
  const results: ActionSummary["results"] = [];
  // A few at a time: a resubmission is a platform call, and the shared client keeps the rate budget.
  const queue = [...ids];
  const workers = Array.from({ length: Math.min(3, queue.length) }, async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      const r: RetryResult = await retryDeadLetter(id, actor);
      results.push({ id, ...r });
    }
  });
  await Promise.all(workers);
  results.sort((a, b) => a.id - b.id);
  return summarize("retry", ids, results);
}
