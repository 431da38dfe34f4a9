import "server-only";
import { db } from "../db";
import { NotFound } from "../errors";
import { launchRun, RunFailed, type Json, type Launched, type RunContext } from "../operations";
import { PlatformNotFound, PlatformError, type PlatformClient } from "../platform";
import { mirrorDeliveries } from "./delivery-mirror";
import { kindForEvent } from "../platform/events";
import { addFeed, emptyFeed, feedQueue, type Candidate, type FeedResult } from "./feed";
import { getPlatformClient } from "../platform/shared-client";

// Replay reads a webhook's whole delivery log (every page of 100), takes each job whose attempts
// include no 2xx (no http_status counts as a failure) into a Set, and feeds the ones without an
// outcome to the queue. `only401` narrows it to the jobs a secret rotation locked out.

export type ReplayParams = { subscriptionId?: string; since?: Date; only401?: boolean; trigger?: string };

export const NO_DELIVERY_LOG = "the platform has no delivery log for this webhook (404)";
const PAGE_SIZE = 100;

type Sub = { id: string; platformId: string | null; eventType: string };

const ok = (status: number | null | undefined) => typeof status === "number" && status >= 200 && status < 300;

export async function startReplay(params: ReplayParams, startedBy: string): Promise<Launched> {
  if (params.subscriptionId) {
    const sub = await db().subscription.findUnique({ where: { id: params.subscriptionId }, select: { id: true } });
    if (!sub) throw new NotFound(`No subscription ${params.subscriptionId}`);
  }
  const scope = params.subscriptionId ?? "all";
  const stored: Json = { subscriptionId: params.subscriptionId ?? null, since: params.since?.toISOString() ?? null, only401: params.only401 ?? false, trigger: params.trigger ?? null };
  return launchRun(
    { kind: "replay", lockKey: params.only401 ? `replay-401:${scope}` : `replay:${scope}`, params: stored, startedBy },
    (ctx) => replay(ctx, params),
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
  const summary = (): Json => ({ subscriptions: results, enqueued: total.enqueued, alreadyDone: total.alreadyDone, alreadyQueued: total.alreadyQueued, created: total.created, replayedJobIds: total.enqueuedIds });

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
      const message = err instanceof PlatformNotFound ? NO_DELIVERY_LOG : `reading the delivery log failed: ${err.message}`;
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
  const failed = new Map<string, Candidate>();
  const succeeded = new Set<string>();
  let pages = 0;
  let deliveries = 0;
  let status401 = 0;
  for await (const page of client.listDeliveries(sub.platformId, { since: params.since, pageSize: PAGE_SIZE })) {
    await mirrorDeliveries(page.items, sub.platformId, sub.id);
    for (const d of page.items) {
      deliveries++;
      if (d.http_status === 401) status401++;
      if (!d.job_id) continue;
      if (ok(d.http_status)) succeeded.add(d.job_id);
      else if (!params.only401 || d.http_status === 401) {
        const kind = kindForEvent(d.event_type) ?? kindForEvent(sub.eventType);
        const deliveryId = typeof d.delivery_id === "string" ? d.delivery_id : null;
        if (kind) failed.set(d.job_id, { jobId: d.job_id, kind, deliveryId, subscriptionId: sub.id });
      }
    }
    pages++;
    await ctx.progress({ ...sofar(), subscriptionId: sub.id, pages, pageCount: page.pageCount, deliveries, failedJobs: failed.size });
  }
  // A job counts as missed only if none of its attempts (on any page) got a 2xx.
  const missed = [...failed.values()].filter((c) => !succeeded.has(c.jobId));
  let fed = emptyFeed();
  for (let i = 0; i < missed.length; i += PAGE_SIZE) fed = addFeed(fed, await feedQueue(missed.slice(i, i + PAGE_SIZE), "replay", ctx.runId));
  const report: Json = {
    subscriptionId: sub.id,
    webhookId: sub.platformId,
    eventType: sub.eventType,
    pages,
    deliveries,
    status401,
    failedJobs: failed.size,
    recoveredByRetry: failed.size - missed.length,
    enqueued: fed.enqueued,
    alreadyDone: fed.alreadyDone,
    alreadyQueued: fed.alreadyQueued,
  };
  return { fed, report };
}
