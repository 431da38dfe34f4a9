import "server-only";
import { z } from "zod";
import { db, sqlInt } from "../db";
import { NotFound } from "../errors";
import { launchRun, RunFailed, type Json, type Launched, type RunContext } from "../operations";
import { PlatformNotFound, PlatformError, type PlatformClient } from "../platform";
import { mirrorDeliveries } from "./delivery-mirror";
import { getPlatformClient, kindForEvent, withPurpose } from "../platform";
import { addFeed, emptyFeed, feedQueue, type Candidate, type FeedResult } from "./feed";
import { OVERLAP_MS } from "./watermark";

// Replay reads a webhook's delivery log into the mirror (PlatformDelivery), finds in it each job whose
// attempts include no 2xx (no http_status counts as a failure), and feeds the ones without an outcome
// to the queue. `only401` narrows it to the jobs a secret rotation locked out. It reads only what it
// needs: paging stops once past `since` when the log comes newest first, and the mirror is incremental
// (a per-webhook mark says below which created_at it is complete), so a second replay reads only the
// records that are new since the first, plus an overlap.

export type ReplayParams = { subscriptionId?: string; since?: Date; only401?: boolean; trigger?: string };

export const NO_DELIVERY_LOG = "the platform has no delivery log for this webhook (404)";
const PAGE_SIZE = 100;

type Sub = { id: string; platformId: string | null; eventType: string };

export async function startReplay(params: ReplayParams, startedBy: string): Promise<Launched> {
  if (params.subscriptionId) {
    const sub = await db().subscription.findUnique({ where: { id: params.subscriptionId }, select: { id: true } });
    if (!sub) throw new NotFound(`No subscription ${params.subscriptionId}`);
  }
  const scope = params.subscriptionId ?? "all";
  const stored: Json = {
    subscriptionId: params.subscriptionId ?? null,
    since: params.since?.toISOString() ?? null,
    only401: params.only401 ?? false,
    trigger: params.trigger ?? null,
  };
  return launchRun(
    { kind: "replay", lockKey: params.only401 ? `replay-401:${scope}` : `replay:${scope}`, params: stored, startedBy },
    (ctx) => withPurpose("replay", () => replay(ctx, params)),
  );
}

async function replay(ctx: RunContext, params: ReplayParams): Promise<Json> {
  const subs: Sub[] = await db().subscription.findMany({
    where: params.subscriptionId ? { id: params.subscriptionId } : { platformId: { not: null } },
    select: { id: true, platformId: true, eventType: true },
    orderBy: { createdAt: "asc" },
  });
  const client = getPlatformClient();
  const results: Json[] = [];
  const failures: string[] = [];
  let total = emptyFeed();
  const summary = (): Json => ({
    subscriptions: results,
    enqueued: total.enqueued,
    alreadyDone: total.alreadyDone,
    alreadyQueued: total.alreadyQueued,
    created: total.created,
    replayedJobIds: total.enqueuedIds,
  });

  for (const sub of subs) {
    if (!sub.platformId) {
      failures.push(`subscription ${sub.id} is not registered on the platform`);
      results.push({ subscriptionId: sub.id, error: "not registered" });
      continue;
    }
    try {
      const r = await replayOne(client, { ...sub, platformId: sub.platformId }, params, ctx, summary);
      total = addFeed(total, r.fed);
      results.push(r.report);
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      const message =
        err instanceof PlatformNotFound ? NO_DELIVERY_LOG : `reading the delivery log failed: ${err.message}`;
      failures.push(`${sub.eventType} (${sub.id}): ${message}`);
      results.push({ subscriptionId: sub.id, webhookId: sub.platformId, eventType: sub.eventType, error: message });
    }
  }
  if (failures.length > 0) throw new RunFailed(failures.join("; "), summary());
  return summary();
}

async function replayOne(
  client: PlatformClient,
  sub: Sub & { platformId: string },
  params: ReplayParams,
  ctx: RunContext,
  sofar: () => Json,
): Promise<{ fed: FeedResult; report: Json }> {
  // The mirror holds every record created before `complete` (a previous read went all the way down):
  // read only what is newer (less an overlap for records still pending then), unless `since` asks for less.
  const markKey = `deliveries:${sub.platformId}`;
  const mark = await db().reconcileWatermark.findUnique({ where: { kind: markKey } });
  const complete = mark?.createdFrom ? new Date(mark.createdFrom.getTime() - OVERLAP_MS) : null;
  const since = params.since;
  const bound = complete && (!since || since < complete) ? complete : since;
  let pages = 0;
  let read = 0;
  let newest: number | null = null;
  for await (const page of client.listDeliveries(sub.platformId, { since: bound, pageSize: PAGE_SIZE })) {
    await mirrorDeliveries(page.items, sub.platformId, sub.id);
    read += page.items.length;
    for (const d of page.items) newest = Math.max(newest ?? 0, Date.parse(d.created_at));
    pages++;
    await ctx.progress({ ...sofar(), subscriptionId: sub.id, pages, pageCount: page.pageCount, deliveries: read });
  }
  // Everything below `newest` is mirrored now only if this read reached what was already complete.
  if (newest !== null && (!since || (complete !== null && since <= complete))) {
    await db().reconcileWatermark.upsert({
      where: { kind: markKey },
      create: { kind: markKey, createdFrom: new Date(newest) },
      update: { createdFrom: new Date(newest) },
    });
  }

  // A job counts as missed only if none of its attempts (since `since`) got a 2xx: one grouped query on the mirror.
  const groups = await missedFromMirror(sub.platformId, since);
  const failed = groups.filter((g) => g.failures > 0 && (!params.only401 || g.status401 > 0));
  const missed: Candidate[] = [];
  for (const g of failed) {
    if (g.successes > 0) continue;
    const kind = (g.eventType ? kindForEvent(g.eventType) : undefined) ?? kindForEvent(sub.eventType);
    if (kind) missed.push({ jobId: g.jobId, kind, deliveryId: null, subscriptionId: sub.id });
  }
  let fed = emptyFeed();
  for (let i = 0; i < missed.length; i += PAGE_SIZE)
    fed = addFeed(fed, await feedQueue(missed.slice(i, i + PAGE_SIZE), "replay", ctx.runId));
  const report: Json = {
    subscriptionId: sub.id,
    webhookId: sub.platformId,
    eventType: sub.eventType,
    pages,
    deliveries: groups.reduce((n, g) => n + g.attempts, 0),
    deliveriesRead: read,
    readFrom: bound?.toISOString() ?? null,
    status401: groups.reduce((n, g) => n + g.status401, 0),
    failedJobs: failed.length,
    recoveredByRetry: failed.filter((g) => g.successes > 0).length,
    enqueued: fed.enqueued,
    alreadyDone: fed.alreadyDone,
    alreadyQueued: fed.alreadyQueued,
  };
  return { fed, report };
}

const groupRow = z.object({
  jobId: z.string(),
  eventType: z.string().nullable(),
  attempts: sqlInt,
  successes: sqlInt,
  failures: sqlInt,
  status401: sqlInt,
});

/** Per job of this webhook's mirrored log (since `since`): attempts, 2xx answers, failures, 401s. */
async function missedFromMirror(webhookId: string, since: Date | undefined) {
  const from = since ?? new Date(0);
  const rows = await db().$queryRaw`
    SELECT "jobId", MAX("eventType") AS "eventType", COUNT(*) AS "attempts",
      SUM(CASE WHEN "httpStatus" >= 200 AND "httpStatus" < 300 THEN 1 ELSE 0 END) AS "successes",
      SUM(CASE WHEN "httpStatus" >= 200 AND "httpStatus" < 300 THEN 0 ELSE 1 END) AS "failures",
      SUM(CASE WHEN "httpStatus" = 401 THEN 1 ELSE 0 END) AS "status401"
    FROM "PlatformDelivery" WHERE "webhookId" = ${webhookId} AND "jobId" IS NOT NULL AND "createdAt" >= ${from}
    GROUP BY "jobId"`;
  return groupRow.array().parse(rows);
}
