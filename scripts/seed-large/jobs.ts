// Jobs and what hangs off them, in creation order over the last 30 days: the Job row, its receipt
// and queue item (done once an outcome exists, ready while pending), dead letters for dead-lettered
// jobs, and a sample of results and timeline events. Shares follow a busy webhook-mode deployment.
import type Database from "better-sqlite3";
import { at, DAY, idFor, inChunks, rng, urlFor, weighted } from "./gen";

export const KINDS = ["extract", "batch", "crawl"] as const;
export type Kind = (typeof KINDS)[number];
export const JOB_SPACE = 1;
const DELIVERY_SPACE = 2;
export const JOB_SPAN_MS = 30 * DAY;
export const SUBSCRIPTION_FOR: Record<Kind, string> = {
  extract: "large-extract",
  batch: "large-batch",
  crawl: "large-crawl",
};

export type SeedCtx = {
  db: Database.Database;
  salt: [number, number];
  now: number;
  chunk: number;
  /** Distinct page bodies (in the body store) the sampled results name (scripts/seed-large/bodies.ts). */
  pages: ReadonlyArray<{ key: string; codec: string; size: number }>;
};
export type JobsSeeded = { counts: Record<string, number>; kindOf: Uint8Array; jobs: number };

const pickKind = weighted<Kind>([
  ["extract", 70],
  ["batch", 20],
  ["crawl", 10],
]);
const pickSettled = weighted([
  ["completed", 91],
  ["failed", 7],
  ["cancelled", 1.5],
  ["unknown", 0.5],
] as const);
const pickOrigin = weighted([
  ["submitted", 88],
  ["webhook", 8],
  ["reconcile", 2],
  ["replay", 1],
  ["poll", 1],
] as const);
const pickDeadState = weighted([
  ["open", 35],
  ["retried", 10],
  ["discarded", 55],
] as const);
const ERRORS = [
  ["TARGET_NOT_FOUND", "target answered 404", false],
  ["BLOCKED_BY_TARGET", "target blocked the request (403)", false],
  ["EXTRACTION_FAILED", "no content could be extracted", false],
  ["TIMEOUT", "page did not load within 60 s", true],
  ["UPSTREAM_UNAVAILABLE", "proxy pool unavailable", true],
] as const;

const JOB_SQL = `INSERT INTO "Job" ("id","kind","url","request","platformStatus","outcome","origin","attempts","chainDepth","resubmittedAsId",
  "resubmittedFromId","errorCode","errorMessage","errorRetryable","tokensCharged","resultCount","itemsFailed","nextPollAt","pollCount","lastWebhookAt",
  "platformCreatedAt","settledAt","outcomeAt","createdAt","updatedAt") VALUES (${Array(25).fill("?").join(",")})`;

export function seedJobs(ctx: SeedCtx, n: number): JobsSeeded {
  const { db, salt, now } = ctx;
  const r = rng(salt[0] ^ 0x5eed);
  // Failed items inside stored batches and crawls (5 % each, the demo's rate), from a stream of their
  // own so the other draws stay what they were for a given seed.
  const rf = rng(salt[1] ^ 0xfa11);
  const job = db.prepare(JOB_SQL);
  const receipt = db.prepare(
    `INSERT INTO "Receipt" ("jobId","eventType","deliveryId","subscriptionId","source","receivedAt") VALUES (?,?,?,?,?,?)`,
  );
  const item =
    db.prepare(`INSERT INTO "QueueItem" ("kind","payload","jobId","dedupeKey","state","attempts","maxAttempts","availableAt","createdAt","updatedAt","doneAt")
    VALUES ('process_job',?,?,?,?,?,10,?,?,?,?)`);
  const dead =
    db.prepare(`INSERT INTO "DeadLetter" ("jobId","queueItemId","kind","errorCode","errorMessage","attempts","state","resolution","resolvedBy","resolvedAt","createdAt","updatedAt")
    VALUES (?,?,'process_job',?,?,1,?,?,?,?,?,?)`);
  const result = db.prepare(
    `INSERT INTO "Result" ("jobId","itemKey","url","status","format","markdownKey","markdownCodec","markdownSize","metadata","tokensCharged","createdAt") VALUES (?,'0',?,'completed','markdown',?,?,?,?,1,?)`,
  );
  const event = db.prepare(`INSERT INTO "JobEvent" ("jobId","at","type","detail") VALUES (?,?,?,?)`);
  const counts: Record<string, number> = { Job: 0, Receipt: 0, QueueItem: 0, DeadLetter: 0, Result: 0, JobEvent: 0 };
  const kindOf = new Uint8Array(n);
  const start = now - JOB_SPAN_MS;
  let chainFrom: { id: string; kind: Kind; url: string } | null = null;

  inChunks(db, n, ctx.chunk, (i) => {
    const id = idFor(salt, JOB_SPACE, i);
    const createdAt = Math.min(now - 1000, start + ((i + r()) * JOB_SPAN_MS) / n);
    const age = now - createdAt;
    const from = chainFrom;
    chainFrom = null;
    const kind = from?.kind ?? pickKind(r());
    kindOf[i] = KINDS.indexOf(kind);
    const url = from?.url ?? urlFor(i, r);
    const running = age < 90_000 + r() * 60_000;
    const status = running ? (r() < 0.4 ? "queued" : "processing") : pickSettled(r());
    const error = status === "failed" ? ERRORS[Math.floor(r() * ERRORS.length)] : null;
    // A retryable failure is resubmitted as the next job (same kind and URL) unless it is the last row.
    const resubmitted = error !== null && error[2] && i + 1 < n && !from;
    // A few settled jobs still wait for their worker: a backlog minutes old, and rare older gaps.
    const waiting = running || status === "unknown" || r() < (age < 10 * 60_000 ? 0.3 : 0.0005);
    const outcome = waiting
      ? "pending"
      : status === "completed"
        ? "stored"
        : status === "cancelled"
          ? "cancelled"
          : resubmitted
            ? "resubmitted"
            : "dead_lettered";
    const origin = from ? "submitted" : status === "unknown" ? "reconcile" : pickOrigin(r());
    const settledAt = running ? null : createdAt + 2000 + r() * (kind === "crawl" ? 300_000 : 60_000);
    const outcomeAt = outcome === "pending" || settledAt === null ? null : settledAt + 300 + r() * 5000;
    const results =
      outcome !== "stored"
        ? 0
        : kind === "extract"
          ? 1
          : kind === "batch"
            ? 3 + Math.floor(r() * 8)
            : 5 + Math.floor(r() * 16);
    let itemsFailed = 0;
    if (kind !== "extract") for (let k = 0; k < results; k++) if (rf() < 0.05) itemsFailed++;
    const request =
      kind === "batch"
        ? { urls: [url, `${url}?v=2`, `${url}?v=3`], formats: ["markdown"] }
        : kind === "crawl"
          ? { url, depth: 2, limit: 20 }
          : { url, formats: ["markdown"], processing_mode: "async" };
    const webhookAt =
      settledAt !== null && (origin === "submitted" || origin === "webhook") ? settledAt + 200 + r() * 2000 : null;
    const polled = origin === "poll";
    if (resubmitted) chainFrom = { id, kind, url };
    job.run(
      id,
      kind,
      url,
      JSON.stringify(request),
      status,
      outcome,
      origin,
      outcome === "pending" ? 0 : 1 + (r() < 0.04 ? 1 : 0),
      from ? 1 : 0,
      resubmitted ? idFor(salt, JOB_SPACE, i + 1) : null,
      from?.id ?? null,
      error?.[0] ?? null,
      error?.[1] ?? null,
      error === null ? null : error[2] ? 1 : 0,
      outcome === "stored" ? results : settledAt === null ? null : 0,
      results,
      itemsFailed,
      polled && outcome === "pending" ? at(now + r() * 30_000) : null,
      polled ? 2 + Math.floor(r() * 6) : 0,
      webhookAt === null ? null : at(webhookAt),
      at(createdAt - 150),
      settledAt === null ? null : at(settledAt),
      outcomeAt === null ? null : at(outcomeAt),
      at(createdAt),
      at(outcomeAt ?? webhookAt ?? createdAt),
    );
    counts.Job++;
    if (settledAt === null) return;

    // Settled: it was heard of (webhook, poll, replay or reconciliation) and queued once.
    const heardAt = webhookAt ?? settledAt + 1000 + r() * 60_000;
    const source = origin === "submitted" ? "webhook" : origin;
    const deliveryId = source === "webhook" ? idFor(salt, DELIVERY_SPACE, i) : null;
    receipt.run(
      id,
      `${kind}_completed`,
      deliveryId,
      source === "webhook" ? SUBSCRIPTION_FOR[kind] : null,
      source,
      at(heardAt),
    );
    const done = outcomeAt !== null;
    const payload = JSON.stringify({ jobId: id, eventType: `${kind}_completed`, deliveryId, source });
    const q = item.run(
      payload,
      id,
      done ? null : `job:${id}`,
      done ? "done" : "ready",
      done ? 1 : 0,
      at(heardAt),
      at(heardAt),
      at(outcomeAt ?? heardAt),
      done ? at(outcomeAt) : null,
    );
    counts.Receipt++;
    counts.QueueItem++;
    if (outcome === "dead_lettered" && error && outcomeAt !== null) {
      const state = age < 2 * DAY ? "open" : pickDeadState(r());
      const resolvedAt = state === "open" ? null : at(outcomeAt + r() * DAY);
      dead.run(
        id,
        Number(q.lastInsertRowid),
        error[0],
        error[1],
        state,
        state === "discarded"
          ? "target gone; not worth retrying"
          : state === "retried"
            ? "resubmitted from the dashboard"
            : null,
        state === "open" ? null : "operator",
        resolvedAt,
        at(outcomeAt),
        resolvedAt ?? at(outcomeAt),
      );
      counts.DeadLetter++;
    }
    // A sample of stored extractions keeps a result and a timeline (a full set would dwarf the lists under test).
    if (outcome === "stored" && kind === "extract" && outcomeAt !== null && i % 50 === 0) {
      // A realistic page (20–200 KB) from the pool, by key: most pages are fetched again unchanged.
      const page = ctx.pages[(i / 50) % ctx.pages.length];
      result.run(
        id,
        url,
        page.key,
        page.codec,
        page.size,
        JSON.stringify({ http_status: 200, duration_ms: 800 }),
        at(outcomeAt),
      );
      event.run(id, at(createdAt), "submitted", null);
      event.run(id, at(heardAt), "enqueued", JSON.stringify({ source }));
      event.run(id, at(outcomeAt), "outcome", JSON.stringify({ outcome }));
      counts.Result++;
      counts.JobEvent += 3;
    }
  });
  return { counts, kindOf, jobs: n };
}
