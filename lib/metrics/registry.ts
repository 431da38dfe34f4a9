import "server-only";
import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { singleton } from "../runtime";

// Tally's Prometheus metrics. Counters and histograms count what THIS process did and carry a
// `process` label (host:pid:random), so several servers and workers scraped apart add up in
// Prometheus. Gauges that describe shared state (queue depth, open dead letters) carry no such label:
// they are read from the database at scrape time (scrape.ts) and every process reports the same value.
// A process-wide singleton: the receiver's bundle (server.ts) and Next's copy of lib/ must count into one registry.

export type Metrics = ReturnType<typeof create>;

function create() {
  const registry = new Registry();
  const processTag = `${hostname()}:${process.pid}:${randomUUID().slice(0, 6)}`;
  const labelNames = <T extends string>(...names: T[]) => ["process", ...names] as Array<T | "process">;
  collectDefaultMetrics({ register: registry, labels: { process: processTag } });
  const m = {
    registry,
    processTag,
    deliveries: new Counter({
      name: "tally_deliveries_total",
      help: "Requests to the webhook receiver by answer: accepted, duplicate, ignored, or the HTTP status (401, 400, 404, 405, 413, 499, 5xx)",
      labelNames: labelNames("status"),
      registers: [registry],
    }),
    deliveryDuration: new Histogram({
      name: "tally_delivery_duration_seconds",
      help: "Receiver: from receipt of the request to the answer (the commit included)",
      labelNames: labelNames(),
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    jobOutcomes: new Counter({
      name: "tally_job_outcomes_total",
      help: "Job outcomes recorded by this process, by job kind (extract, batch, crawl) and outcome (stored, resubmitted, dead_lettered, cancelled)",
      labelNames: labelNames("kind", "outcome"),
      registers: [registry],
    }),
    settledToStored: new Histogram({
      name: "tally_settled_to_stored_seconds",
      help: "From the job settling on the platform to its results stored by Tally",
      labelNames: labelNames(),
      buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200],
      registers: [registry],
    }),
    platformCalls: new Counter({
      name: "tally_platform_calls_total",
      help: "Calls to the platform API by endpoint template and status class (2xx, 3xx, 4xx, 5xx; none = timeout or network error)",
      labelNames: labelNames("endpoint", "status_class"),
      registers: [registry],
    }),
    rateLimitedSeconds: new Counter({
      name: "tally_platform_rate_limited_seconds_total",
      help: "Seconds of 429 pause this process imposed on all platform calls (Retry-After honoured)",
      labelNames: labelNames(),
      registers: [registry],
    }),
    checkVerdicts: new Counter({
      name: "tally_content_check_verdicts_total",
      help: "Pages of runs' chunks judged by their content checks when stored, by verdict (ok, suspect, blocked, not_found, transient)",
      labelNames: labelNames("verdict"),
      registers: [registry],
    }),
    judgeQueued: new Gauge({
      name: "tally_judge_queued",
      help: "Pages (and diffs, fingerprints) waiting for a thread of this process's judging pool",
      labelNames: labelNames(),
      registers: [registry],
    }),
    judgeBusy: new Gauge({
      name: "tally_judge_busy_threads",
      help: "Threads of this process's judging pool at work now",
      labelNames: labelNames(),
      registers: [registry],
    }),
    judgeThreads: new Gauge({
      name: "tally_judge_threads",
      help: "Threads this process's judging pool may run at once (TALLY_JUDGE_THREADS)",
      labelNames: labelNames(),
      registers: [registry],
    }),
    judgeOverruns: new Counter({
      name: "tally_judge_overruns_total",
      help: "Judging tasks stopped without an answer, by task kind and reason (budget_exceeded, memory_exceeded, failed): each such page is judged suspect, never stored as good",
      labelNames: labelNames("kind", "reason"),
      registers: [registry],
    }),
    judgeDuration: new Histogram({
      name: "tally_judge_duration_seconds",
      help: "Time a judging task took on its thread, by task kind (checks, fingerprint, diff)",
      labelNames: labelNames("kind"),
      buckets: [0.001, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    runTokens: new Counter({
      name: "tally_run_tokens_total",
      help: "Tokens the platform charged for the pages of runs' chunks, by escalation rung (0 = the run's own options)",
      labelNames: labelNames("rung"),
      registers: [registry],
    }),
    safetyNetRuns: new Counter({
      name: "tally_safety_net_runs_total",
      help: "Safety-net runs finished by this process, by kind (reconcile, replay, rotate, register, poll) and state (succeeded, failed)",
      labelNames: labelNames("kind", "state"),
      registers: [registry],
    }),
    bodyMissing: new Counter({
      name: "tally_body_missing_total",
      help: "Page bodies a reader could not return as stored, by code: body_missing (no object under the key the row names) or body_corrupt (the object does not decode or hash to its key)",
      labelNames: labelNames("code"),
      registers: [registry],
    }),
    bodyUnavailable: new Counter({
      name: "tally_body_unavailable_total",
      help: "Reads of a page body the body store did not answer (no answer in time, a refused connection, an S3 error, a disk error): the reader showed body_unavailable for that result, or its sink or settle pass retries later",
      labelNames: labelNames(),
      registers: [registry],
    }),
    bodyPutDuration: new Histogram({
      name: "tally_body_put_duration_seconds",
      help: "Body store: one body put (hashing, compressing and the durable write; a body already kept is a lookup)",
      labelNames: labelNames(),
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    bodyGetDuration: new Histogram({
      name: "tally_body_get_duration_seconds",
      help: "Body store: one body read back in full by a reader (fetch, decompress, verify)",
      labelNames: labelNames(),
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    bodyReads: new Counter({
      name: "tally_body_reads_total",
      help: "Page bodies in the body store read back by readers, by source: cache (the process's cache of texts, TALLY_BODY_CACHE_BYTES, after checking the object is still there) or store (read, decompressed and hashed)",
      labelNames: labelNames("source"),
      registers: [registry],
    }),
    bodySweepDeleted: new Counter({
      name: "tally_body_sweep_deleted_total",
      help: "Body store: unreferenced objects past the grace removed by the sweep",
      labelNames: labelNames(),
      registers: [registry],
    }),
    bodySweepDeletedBytes: new Counter({
      name: "tally_body_sweep_deleted_bytes_total",
      help: "Body store: stored bytes of the objects the sweep removed",
      labelNames: labelNames(),
      registers: [registry],
    }),
    // Shared state, set from the database just before each scrape.
    queueItems: new Gauge({
      name: "tally_queue_items",
      help: "Queue items by state (ready, leased, done, dead), across all processes",
      labelNames: ["state"],
      registers: [registry],
    }),
    queueOldestReadyAge: new Gauge({
      name: "tally_queue_oldest_ready_age_seconds",
      help: "Age of the oldest queue item that is due now (0 when none): how far behind the workers are",
      registers: [registry],
    }),
    dbOldestTransactionAge: new Gauge({
      name: "tally_db_oldest_transaction_age_seconds",
      help: "PostgreSQL: age of the oldest transaction open in Tally's database (0 when none; always 0 on SQLite). A long one holds back vacuum of the queue table",
      registers: [registry],
    }),
    queueDeadRows: new Gauge({
      name: "tally_queue_dead_rows",
      help: "PostgreSQL: dead rows in the queue table as the statistics last counted them (always 0 on SQLite); rising while an old transaction is open means bloat",
      registers: [registry],
    }),
    deadLettersOpen: new Gauge({
      name: "tally_dead_letters_open",
      help: "Dead letters not yet retried or discarded",
      registers: [registry],
    }),
    budgetCallsPerSecond: new Gauge({
      name: "tally_platform_budget_calls_per_second",
      help: "TALLY_API_RPS: the platform calls a second every process together may send (at most about 87% of it goes out); the saturation is sum(rate(tally_platform_calls_total)) over this",
      registers: [registry],
    }),
    collectionScheduleBehind: new Gauge({
      name: "tally_collection_schedule_behind_seconds",
      help: "How long the oldest due tick of a collection's schedule has waited for its run to start (0 when none): no scheduler running, or a run still going when its next tick came (overlap: queue)",
      registers: [registry],
    }),
    outboundOldestUndelivered: new Gauge({
      name: "tally_outbound_oldest_undelivered_age_seconds",
      help: "Per enabled destination (webhook or sink): age of its oldest event not yet delivered, pending or retrying (0 when none): how far behind it is",
      labelNames: ["destination", "type"],
      registers: [registry],
    }),
    bodyStoreObjects: new Gauge({
      name: "tally_body_store_objects",
      help: "Body store: objects kept, as the last sweep counted them (hourly; 0 before the first)",
      registers: [registry],
    }),
    bodyStoreBytes: new Gauge({
      name: "tally_body_store_bytes",
      help: "Body store: bytes kept as stored (compressed), as the last sweep counted them",
      registers: [registry],
    }),
    bodyStoreSavedBytes: new Gauge({
      name: "tally_body_store_shared_saved_bytes",
      help: "Body store: uncompressed bytes not stored again because rows share a body (the bytes every row names less those of the distinct bodies), as the last sweep counted them",
      registers: [registry],
    }),
    jobsPendingOldestAge: new Gauge({
      name: "tally_jobs_pending_oldest_age_seconds",
      help: "Age of the oldest job still without an outcome (0 when none): known to Tally, not yet stored, resubmitted, dead-lettered or cancelled",
      registers: [registry],
    }),
  };
  // Zero from the start, so a scrape shows the series before the first 429 (rate() needs a base).
  m.rateLimitedSeconds.inc({ process: processTag }, 0);
  for (const code of ["body_missing", "body_corrupt"]) m.bodyMissing.inc({ process: processTag, code }, 0);
  for (const source of ["cache", "store"]) m.bodyReads.inc({ process: processTag, source }, 0);
  m.bodyUnavailable.inc({ process: processTag }, 0);
  return m;
}

export function metrics(): Metrics {
  return singleton("metrics", create);
}
