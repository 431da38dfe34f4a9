import { EVENT_FOR_KIND } from "../platform/contract";
import "server-only";
import type { DeliveryStatus, WebhookEventType } from "@/lib/platform/contract";
import { signDelivery } from "@/lib/signing";
import type { SimConfig } from "./config";
import { iso } from "./http";
import { postForStatus } from "./post";
import { eventData } from "./job-docs";
import type { SimJob } from "./jobs";
import { createRng, hashSeed, type Streams } from "./rng";
import type { Scheduler } from "./scheduler";
import type { Subscription, WebhookStore } from "./webhooks";

export type DeliveryRecord = {
  id: string;
  seq: number;
  webhookId: string;
  deliveryId: string;
  eventType: WebhookEventType;
  jobId: string;
  attemptNumber: number;
  status: DeliveryStatus;
  httpStatus: number | null;
  deliveredAt: number | null;
  createdAt: number;
};

/** Ground truth per job for chaos tests: what the platform really did with its webhooks. */
export type JobDeliveryStats = {
  sent: number;
  dropped: number;
  duplicated: number;
  delivered: number;
  lastHttpStatus: number | null;
};

export const eventTypeFor = EVENT_FOR_KIND;

type Chain = {
  sub: Subscription;
  deliveryId: string;
  envelope: Record<string, unknown>;
  jobId: string;
  eventType: WebhookEventType;
};

/** Sends signed deliveries with retries, faults and a per-attempt log. */
export class DeliveryEngine {
  private readonly logs = new Map<string, DeliveryRecord[]>();
  private readonly stats = new Map<string, JobDeliveryStats>();
  private seq = 0;

  constructor(
    private readonly deps: {
      config: () => SimConfig;
      streams: () => Streams;
      scheduler: Scheduler;
      webhooks: WebhookStore;
      /** Aborted on reset/close so in-flight POSTs stop. */
      signal: () => AbortSignal;
      log: (msg: string) => void;
    },
  ) {}

  statsFor(jobId: string): JobDeliveryStats {
    let s = this.stats.get(jobId);
    if (!s) {
      s = { sent: 0, dropped: 0, duplicated: 0, delivered: 0, lastHttpStatus: null };
      this.stats.set(jobId, s);
    }
    return s;
  }

  peekStats(jobId: string): JobDeliveryStats | undefined {
    return this.stats.get(jobId);
  }

  /** Newest first. */
  log(webhookId: string): DeliveryRecord[] {
    return [...(this.logs.get(webhookId) ?? [])].reverse();
  }

  forget(webhookId: string): void {
    this.logs.delete(webhookId);
  }

  forgetJob(jobId: string): void {
    this.stats.delete(jobId);
  }

  countByStatus(): Record<DeliveryStatus, number> {
    const counts: Record<DeliveryStatus, number> = { pending: 0, success: 0, failed: 0, abandoned: 0 };
    for (const records of this.logs.values()) for (const r of records) counts[r.status]++;
    return counts;
  }

  clear(): void {
    this.logs.clear();
    this.stats.clear();
  }

  /** A job settled: fan out to every active subscription of its event type. */
  dispatch(job: SimJob): void {
    const cfg = this.deps.config();
    const eventType = eventTypeFor[job.kind];
    const data = eventData(job);
    const stats = this.statsFor(job.id);
    for (const sub of this.deps.webhooks.active(eventType)) {
      // Decisions are a function of (seed, job, subscription), not of the order jobs happen to settle in.
      const hooks = createRng(hashSeed(cfg.seed, `hooks:${job.id}:${sub.id}`));
      if (hooks.chance(cfg.webhookDropRate)) {
        stats.dropped++;
        continue;
      }
      const deliveryId = hooks.uuid();
      const envelope = {
        event: eventType,
        webhook_id: sub.id,
        delivery_id: deliveryId,
        timestamp: iso(Date.now()),
        data,
      };
      const copies = hooks.chance(cfg.webhookDuplicateRate) ? 2 : 1;
      if (copies === 2) stats.duplicated++;
      for (let c = 0; c < copies; c++) {
        const delay = hooks.chance(cfg.webhookDelayRate) ? hooks.range(cfg.webhookDelayMs) : 0;
        const chain: Chain = { sub, deliveryId, envelope, jobId: job.id, eventType };
        this.deps.scheduler.after(delay + cfg.deliveryRetryScheduleMs[0], () => this.attempt(chain, 1));
      }
    }
  }

  private async attempt(chain: Chain, attemptNumber: number): Promise<void> {
    const cfg = this.deps.config();
    const sub = this.deps.webhooks.get(chain.sub.id);
    // A deleted or paused subscription gets nothing more, not even a log line.
    if (!sub || !sub.isActive) return;
    const attemptId = this.deps.streams().deliveryIds.uuid();
    const deliveryId = cfg.deliveryIdPerAttempt ? attemptId : chain.deliveryId;
    const body = JSON.stringify({ ...chain.envelope, delivery_id: deliveryId });
    const record: DeliveryRecord = {
      id: attemptId,
      seq: ++this.seq,
      webhookId: sub.id,
      deliveryId,
      eventType: chain.eventType,
      jobId: chain.jobId,
      attemptNumber,
      status: "pending",
      httpStatus: null,
      deliveredAt: null,
      createdAt: Date.now(),
    };
    this.append(record, cfg.retainDeliveries);
    const stats = this.statsFor(chain.jobId);
    stats.sent++;
    const headers = {
      "Content-Type": "application/json",
      "User-Agent": "scraper-api-webhook/1.0",
      "X-Webhook-Event": chain.eventType,
      "X-Webhook-Delivery-Id": deliveryId,
      ...signDelivery(cfg.signatureScheme, sub.secret, body, {
        id: deliveryId,
        timestamp: Math.floor(Date.now() / 1000),
      }),
    };
    let status: number | null = null;
    // Captured now: after a reset the engine hands out a fresh signal, and this stale chain must stop.
    const generation = this.deps.signal();
    // A listener, not AbortSignal.any(): the generation signal lives long and any() leaks on Node 20.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), cfg.deliveryTimeoutMs);
    const onReset = () => controller.abort();
    generation.addEventListener("abort", onReset, { once: true });
    try {
      status = await postForStatus(sub.url, headers, body, controller.signal);
    } catch (err) {
      if (generation.aborted) return;
      this.deps.log(
        `delivery ${attemptId} to webhook ${sub.id} got no response: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      clearTimeout(timer);
      generation.removeEventListener("abort", onReset);
    }
    if (generation.aborted) return;
    record.httpStatus = status;
    record.deliveredAt = status === null ? null : Date.now();
    stats.lastHttpStatus = status;
    if (status !== null && status >= 200 && status < 300) {
      record.status = "success";
      stats.delivered++;
      return;
    }
    const nextDelay = cfg.deliveryRetryScheduleMs[attemptNumber];
    if (nextDelay === undefined) {
      record.status = "abandoned";
      return;
    }
    record.status = "failed";
    this.deps.scheduler.after(nextDelay, () => this.attempt(chain, attemptNumber + 1));
  }

  private append(record: DeliveryRecord, limit: number): void {
    const list = this.logs.get(record.webhookId) ?? [];
    list.push(record);
    if (list.length > limit) list.splice(0, list.length - limit);
    this.logs.set(record.webhookId, list);
  }
}

export function deliveryDoc(r: DeliveryRecord) {
  return {
    id: r.id,
    delivery_id: r.deliveryId,
    event_type: r.eventType,
    job_id: r.jobId,
    attempt_number: r.attemptNumber,
    status: r.status,
    http_status: r.httpStatus,
    delivered_at: r.deliveredAt === null ? null : iso(r.deliveredAt),
    created_at: iso(r.createdAt),
  };
}
