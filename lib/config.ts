import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { parseAllowance } from "./net";
import { whsecSchema } from "./signing";
import { slot } from "./runtime";

// The only module that reads the environment. Everything else asks getConfig().

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` })
    .default(def);
const onOff = (def: "on" | "off") => z.enum(["on", "off"], { error: 'must be "on" or "off"' }).default(def);
const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .transform((u) => u.replace(/\/+$/, ""));
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v));

// OTLP over HTTP only: gRPC would need a second exporter stack (and @grpc/grpc-js) for what a collector
// takes as well over HTTP.
const otlpProtocol = optionalString.pipe(
  z
    .enum(["http/json", "http/protobuf"], {
      error: 'must be "http/json" or "http/protobuf" (Tally exports OTLP over HTTP; gRPC is not supported)',
    })
    .optional(),
);

// Every variable carries a `.describe("…")` sentence (or `.meta({ description, defaultText })` when its
// default is worked out at start-up): docs/configuration.md is generated from them (`npm run docs:config`),
// and test/config-docs.test.ts fails while one is missing or the file is stale.
export const envSchema = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"])
    .default("production")
    .describe("Set by Next (`next dev` sets `development`); there is no need to set it."),
  PORT: int(3000, 1, 65535).describe("The HTTP port the server listens on."),
  // Empty: every interface (IPv4 and IPv6), as `next start` does.
  TALLY_HOST: optionalString
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9.:[\]-]+$/, { error: "must be a host name or an IP address such as 127.0.0.1" })
        .optional(),
    )
    .meta({
      description:
        "The address to listen on, e.g. `127.0.0.1`. Unset: every interface (IPv4 and IPv6), as `next start` does.",
      defaultText: "(every interface)",
    }),
  DATABASE_URL: z
    .string()
    .regex(/^(file:.+|postgres(ql)?:\/\/.+)/, {
      error:
        'must be a SQLite URL such as "file:./data/tally.db" or a PostgreSQL URL such as "postgresql://user@host:5432/tally"',
    })
    .default("file:./data/tally.db")
    .describe(
      "The store: `file:…` is SQLite (WAL mode, busy timeout 5 s; the server and `npm run worker` checkpoint the WAL on a thread of their own), `postgresql://…` (or `postgres://…`) PostgreSQL through the same models. `npm start` migrates either.",
    ),
  TALLY_BODY_STORE: z
    .string()
    .regex(/^(file:.+|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^?#]*)?(\?forcePathStyle=(true|false))?)$/, {
      error:
        'must be a folder such as "file:./data/bodies" or a bucket such as "s3://my-bucket/tally/bodies" (add "?forcePathStyle=true" for S3-compatible servers that want it)',
    })
    .default("file:./data/bodies")
    .describe(
      "Where page bodies are kept ([Storage](operations/storage.md)): `file:<folder>` (relative to the working directory, or absolute), or `s3://<bucket>/<prefix>` in S3 or an S3-compatible store, with the endpoint, region and credentials from the standard AWS variables (`AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, or an instance role).",
    ),
  TALLY_BODY_CACHE_BYTES: int(64 * 1024 * 1024, 0, 16 * 1024 * 1024 * 1024).describe(
    "Bytes of recently read page bodies each process keeps as text, by key, so a page that many runs share is not decompressed and re-hashed for every reader ([Storage](operations/storage.md#reading-bodies)); 0 keeps none. A body over an eighth of it is never kept.",
  ),
  TALLY_JUDGE_THREADS: z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(256, { error: "must be at most 256" })
    .optional()
    .meta({
      description:
        "Worker threads per process that judge scraped pages (content checks, the block-page detector, selectors, fingerprints, diffs) off the event loop, so a hostile page cannot stall the receiver or the dashboard ([Security](operations/security.md#judging-pages-off-the-event-loop)).",
      defaultText: "the machine's cores less one, at least 1",
    }),
  TALLY_JUDGE_BUDGET_MS: int(2_000, 50, 600_000).describe(
    "The most time one page may be judged for. Past it the thread is stopped and the page is judged `suspect` with the check `budget_exceeded` (never stored as good); the next page goes on.",
  ),
  TALLY_JUDGE_MEMORY_MB: int(512, 128, 16_384).describe(
    "The heap a judging thread may use; a page that needs more is judged `suspect` with the check `memory_exceeded` and the thread is replaced.",
  ),
  GEONODE_SCRAPER_API_KEY: optionalString.describe(
    "The platform's API key. Unset means demo mode: Tally starts its built-in simulator and points its client at it.",
  ),
  SCRAPER_API_BASE_URL: optionalString.pipe(httpUrl.optional()).meta({
    description:
      "The platform's base URL. In demo mode Tally starts its simulator unless this points at one already running.",
    defaultText: "`https://scraper.geonode.io` in live mode; the built-in simulator in demo mode",
  }),
  GEONODE_WEBHOOK_SECRET: optionalString.describe(
    "An extra secret accepted on `POST /webhooks/geonode` besides the stored subscriptions' secrets.",
  ),
  TALLY_OPERATOR_PASSWORD: optionalString
    .pipe(z.string().min(8, { error: "must be at least 8 characters" }).optional())
    .meta({
      description:
        "The first admin's (`admin@localhost`) password. It makes that account on a database with no users, and stays its password until someone resets it (`npm run user -- reset-password admin@localhost`).",
      defaultText: "generated in demo mode (printed once in the server log); required in live mode",
    }),
  TALLY_API_TOKEN: optionalString
    .pipe(z.string().min(16, { error: "must be at least 16 characters" }).optional())
    .describe(
      "A bearer token for scripts that acts as an admin (audit actor `token:env`): `Authorization: Bearer …`. Personal API tokens are the better choice.",
    ),
  TALLY_SESSION_SECRET: optionalString
    .pipe(z.string().min(32, { error: "must be at least 32 characters" }).optional())
    .meta({
      description:
        "The key that signs the proxy's hand-over of the signed-in person to the route within one process. Sessions themselves are database rows: they survive restarts and work on every server without it.",
      defaultText: "random per process",
    }),
  TALLY_SESSION_TTL_HOURS: int(12, 1, 24 * 30).describe("Session lifetime, in hours."),
  TALLY_LOGIN_MAX_ATTEMPTS: int(5, 1, 1000).describe(
    "Failed sign-ins allowed per account from one client address per window; per address (all accounts), four times as many; per account (all addresses), three times as many.",
  ),
  TALLY_TRUSTED_PROXY_HOPS: int(0, 0, 10).describe(
    "Reverse proxies in front of Tally that append to `X-Forwarded-For`. The login throttle takes the client's address from the entry the last of them appended, and with `0` from the connection (a client's own `X-Forwarded-For` is never believed).",
  ),
  TALLY_LOGIN_WINDOW_SECONDS: int(900, 10, 86_400).describe(
    "The sign-in throttling window, in seconds; it starts at the first failure.",
  ),
  TALLY_PUBLIC_URL: optionalString.pipe(httpUrl.optional()).meta({
    description:
      "The URL the platform uses to reach this Tally's receiver (behind a load balancer: the balancer's address).",
    defaultText: "`http://127.0.0.1:$PORT`",
  }),
  TALLY_DELIVERY_MODE: z
    .enum(["webhooks", "polling", "both"], { error: 'must be "webhooks", "polling" or "both"' })
    .default("webhooks")
    .describe("How Tally notices settled jobs: by the platform's webhooks, by polling, or both."),
  TALLY_WEBHOOK_SCHEME: z
    .enum(["hmac", "standard"], { error: 'must be "hmac" or "standard"' })
    .default("hmac")
    .describe(
      "The default signature scheme: `hmac` (a header with the hex HMAC of the body, optional `sha256=` prefix) or `standard` (Standard Webhooks).",
    ),
  TALLY_WEBHOOK_SIGNATURE_HEADER: z
    .string()
    .min(1)
    .default("X-Webhook-Signature")
    .describe("The header carrying the `hmac` signature."),
  TALLY_WEBHOOK_SIGNATURE_ALGORITHM: z
    .enum(["sha256", "sha512"], { error: 'must be "sha256" or "sha512"' })
    .default("sha256")
    .describe("The hash of the `hmac` scheme."),
  TALLY_WEBHOOK_SIGNATURE_ENCODING: z
    .enum(["hex", "base64"], { error: 'must be "hex" or "base64"' })
    .default("hex")
    .describe("How the `hmac` scheme's signature is encoded."),
  TALLY_WEBHOOK_TOLERANCE_SECONDS: int(300, 1, 86_400).describe(
    "The Standard Webhooks timestamp tolerance, in seconds.",
  ),
  TALLY_WEBHOOK_MAX_BODY_BYTES: int(1_048_576, 1024, 64 * 1_048_576).describe(
    "The largest webhook body accepted, in bytes; a larger one is answered 413.",
  ),
  TALLY_REQUEST_TIMEOUT_SECONDS: int(30, 1, 3600).describe(
    "A request whose headers and body have not all arrived by then is answered 408 and its connection closed, so a slow or endless sender cannot hold connections. It bounds a request's arrival, not how long its answer takes to read.",
  ),
  TALLY_INBOUND_LOG_RETENTION_DAYS: int(14, 1, 3650).describe(
    "How long the inbound delivery log keeps rows (one per request, 401s included, never a body; a sender that hangs up mid-body is logged as 499).",
  ),
  TALLY_HISTORY_RETENTION_DAYS: int(30, 1, 3650).describe(
    "How long the mirror of the platform's delivery log, the API-calls-per-minute counts, finished queue items and ended sessions are kept. Jobs, their events and results are kept; dead items stay with their dead letters.",
  ),
  TALLY_RESULT_RETENTION_DAYS: int(0, 0, 36_500).describe(
    'Days a stored result keeps its page bodies (markdown and html); older ones are removed by the retention pass, the result row (URL, status, metadata, sizes) stays and readers say "body removed by retention" ([Storage](operations/storage.md)). 0 keeps them for ever.',
  ),
  TALLY_PREVIOUS_SECRET_TTL_SECONDS: int(300, 0, 86_400).describe(
    "How long a rotated-out secret still verifies, in seconds.",
  ),
  TALLY_ROTATION_SETTLE_SECONDS: int(30, 0, 3600).describe(
    "The wait after a rotation before replaying its 401s, in seconds.",
  ),
  // Fractions allowed (0.05 = 3 s), for short schedules in tests.
  TALLY_RECONCILE_INTERVAL_MINUTES: z.coerce
    .number({ error: "must be a number" })
    .min(0, { error: "must be at least 0" })
    .max(24 * 60, { error: `must be at most ${24 * 60}` })
    .default(10)
    .describe("The reconciliation schedule, in minutes; `0` turns it off (fractions allowed)."),
  TALLY_RECONCILE_THRESHOLD_SECONDS: int(600, 0, 7 * 86_400).describe(
    "A settled job older than this, in seconds, without an outcome is reprocessed.",
  ),
  // Scheduled reconciliations read only what is new since their watermark; a full scan of the platform's
  // history at most this often (0: every scheduled run is a full scan). Fractions allowed.
  TALLY_RECONCILE_FULL_SCAN_HOURS: z.coerce
    .number({ error: "must be a number of hours" })
    .min(0, { error: "must be at least 0" })
    .max(30 * 24, { error: `must be at most ${30 * 24} (30 days)` })
    .default(24)
    .describe(
      "A scheduled reconciliation lists only jobs created since its watermark (minus an overlap); a full scan of the platform's whole history runs at most this often, in hours. `0`: every run is full; fractions allowed.",
    ),
  TALLY_PENDING_ALERT_MINUTES: int(60, 1, 7 * 24 * 60).describe(
    "Local jobs pending longer than this, in minutes, are flagged (the `stale_pending` alert).",
  ),
  TALLY_WORKER: onOff("on").describe(
    "Run the queue worker inside the server; `off` when `npm run worker` runs elsewhere.",
  ),
  // on: this process runs the schedules (single-flight across processes); off: none of them;
  // external: no loops at all (no schedules, no in-server worker): a scheduler calls /api/cron/*.
  TALLY_SCHEDULER: z
    .enum(["on", "off", "external"], { error: 'must be "on", "off" or "external"' })
    .default("on")
    .describe(
      "`on`: this process runs the schedules (polling loop, reconciliation, secret clean-up, the sweep of interrupted runs, retention, demo traffic), each single-flight across processes; `off`: none of them; `external`: no loops at all (no schedules, no in-server worker), a scheduler calls `POST /api/cron/*`.",
    ),
  TALLY_CRON_SECRET: optionalString
    .pipe(z.string().min(16, { error: "must be at least 16 characters" }).optional())
    .describe("The bearer secret of `POST /api/cron/*`; required with `TALLY_SCHEDULER=external`."),
  TALLY_WORKER_CONCURRENCY: z.coerce
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(1, { error: "must be at least 1" })
    .max(64, { error: "must be at most 64" })
    .optional()
    .meta({
      description:
        "Queue items handled at once per worker process. Each mostly waits on the platform; more at once hides that wait, but every item waiting for a slot of the rate budget holds one, so fresh work can queue behind as many as this.",
      defaultText: "`TALLY_API_RPS` ÷ 10, at least 4 and at most 32",
    }),
  TALLY_SHUTDOWN_GRACE_MS: int(8000, 0, 600_000).describe(
    "After SIGTERM, the time in ms a server (or `npm run worker`) takes to stop: GET /api/ready answers 503 `draining` at once, requests in flight are answered, the worker claims nothing more and its items run on for all but the last quarter of it (at most 2 s), then are handed back (their leases released); the process exits 0 by the end. Keep it below the orchestrator's stop timeout (Docker's 10 s, Kubernetes' terminationGracePeriodSeconds).",
  ),
  TALLY_QUEUE_MAX_ATTEMPTS: int(10, 1, 100).describe("Attempts before a queue item is dead-lettered."),
  TALLY_LEASE_SECONDS: int(60, 5, 3600).describe(
    "A claimed item's lease, in seconds, renewed every third of it while the item runs: a crashed worker's items come back within this time.",
  ),
  TALLY_ITEM_TIMEOUT_SECONDS: int(600, 1, 86_400).describe(
    "An item still running after this long, in seconds (a hung call, an enormous crawl), is aborted and retried with backoff.",
  ),
  TALLY_RESUBMIT_MAX_CHAIN: int(2, 0, 10).describe("Resubmissions of one failed job before it is dead-lettered."),
  TALLY_RUN_MAX_URLS: int(100_000, 1, 1_000_000).describe(
    "The most URLs one run (POST /api/runs) may hold, counted after blank lines and duplicates are dropped.",
  ),
  TALLY_ITEM_RETRY_MAX: int(2, 0, 10).describe(
    "How many more times a run's URL that failed for a transient reason (target 5xx or 429, a timeout, a platform-side extraction failure) is sent again in a follow-up batch before it is final failed.",
  ),
  TALLY_API_RPS: int(10, 1, 1000).describe(
    "The rate budget for all calls to the platform, in requests per second, shared by every process on the database.",
  ),
  TALLY_API_TIMEOUT_MS: int(30_000, 100, 600_000).describe("The timeout per platform request, in milliseconds."),
  TALLY_PLATFORM_BREAKER_MAX_SECONDS: int(60, 1, 3600).describe(
    "The longest wait between two probes of a platform that counts as down (the circuit breaker shared by every process on the database): 1 s after it opens, doubling with each failed probe up to this. Smaller: the platform is probed more often and resumes sooner after it returns.",
  ),
  TALLY_PLATFORM_MAX_ANSWER_MB: int(128, 1, 512).describe(
    "The most one platform answer may hold, decoded, in MiB: a larger one is not read and fails its job as an invalid response (a page of 50 realistic results is 5–40 MB).",
  ),
  TALLY_POLL_INITIAL_MS: int(1000, 10, 600_000).describe(
    "The first polling delay, in milliseconds; it doubles per poll, spread ±20%.",
  ),
  TALLY_POLL_MAX_MS: int(30_000, 10, 3_600_000).describe(
    "The polling delay cap, in milliseconds; at least `TALLY_POLL_INITIAL_MS`.",
  ),
  TALLY_POLL_DEADLINE_MINUTES: int(60, 1, 7 * 24 * 60).describe(
    "A polled job past this, in minutes, is left to reconciliation.",
  ),
  TALLY_POLL_NO_WEBHOOK_SECONDS: int(300, 1, 86_400).describe(
    "In webhook mode, poll a job that has had no webhook for this long, in seconds.",
  ),
  TALLY_PRELOAD_ROUTES: onOff("on").describe(
    "Load every page and route when the server starts, so no first request waits while its code loads; `off` starts about a third lighter and loads each on its first request (the tests' many short-lived servers run so). Read by `next.config.js`.",
  ),
  TALLY_DEMO_TRAFFIC: onOff("on").describe("In demo mode, submit a trickle of jobs."),
  TALLY_DEMO_JOBS_PER_MINUTE: int(4, 0, 600).describe("The demo trickle's rate, in jobs per minute."),
  TALLY_SIM_PORT: int(4010, 0, 65535).describe("The port of the built-in simulator in demo mode (`0`: any free port)."),
  TALLY_SIM_BODY_BYTES: z
    .string()
    .default("20000,200000")
    .pipe(
      z
        .string()
        .regex(/^\s*\d{1,9}\s*,\s*\d{1,9}\s*$/, { error: 'must be "MIN,MAX": two whole numbers of bytes' })
        .transform((v) => v.split(",").map((n) => Number(n.trim())) as [number, number])
        .refine(([min, max]) => min <= max && max <= 16_000_000, {
          error: "must be MIN,MAX with MIN at most MAX and MAX at most 16000000",
        }),
    )
    .describe(
      "The size of the built-in simulator's pages in demo mode: `MIN,MAX` bytes of markdown (html about three times that). Realistic by default (20–200 KB, stored through the body store as a real deployment's are); lower it for a lighter demo.",
    ),
  TALLY_RECEIVER_PORT: int(3001, 1, 65535).describe(
    "The port of `npm run receiver`, the receiver alone on bare `node:http`.",
  ),
  // Forwarding (Tally as a webhook sender): a default destination, the inline size limit, retries.
  TALLY_FORWARD_URL: optionalString
    .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional())
    .describe(
      "A default forwarding destination (all three events), created or updated at start; needs `TALLY_FORWARD_SECRET`.",
    ),
  TALLY_FORWARD_SECRET: optionalString
    .pipe(whsecSchema.optional())
    .describe(
      "The default destination's signing secret: `whsec_` and the base64 of 24–64 random bytes; needs `TALLY_FORWARD_URL`.",
    ),
  TALLY_ALLOW_PRIVATE_DESTINATIONS: optionalString
    .pipe(
      z
        .string()
        .refine(
          (v) => {
            try {
              parseAllowance(v);
              return true;
            } catch {
              return false;
            }
          },
          { error: 'must be "all" or addresses and CIDRs separated by commas, such as "127.0.0.1,10.0.0.0/8"' },
        )
        .optional(),
    )
    .describe(
      "Private, loopback and link-local addresses that destinations registered at run time (API and pages) may point at: `all`, or CIDRs and addresses separated by commas (e.g. `127.0.0.1/32,10.0.0.0/8`). Unset: none (addresses in the environment, such as TALLY_FORWARD_URL, are always allowed).",
    ),
  TALLY_FORWARD_MAX_BYTES: int(262_144, 0, 16 * 1_048_576).describe(
    "A `job.stored` event carries its results inline up to this many bytes, else a `resultsUrl`.",
  ),
  TALLY_FORWARD_RETRY_HOURS: int(24, 1, 24 * 30).describe(
    "How long an outbound event is retried, in hours, before it becomes an outbound dead letter.",
  ),
  TALLY_FORWARD_TIMEOUT_MS: int(10_000, 100, 120_000).describe(
    "The timeout per outbound request, in milliseconds (a timeout is a failed attempt).",
  ),
  TALLY_FORWARD_RETRY_INITIAL_MS: int(5_000, 10, 3_600_000).describe(
    "The first outbound retry delay, in milliseconds; it doubles per attempt, with jitter.",
  ),
  TALLY_FORWARD_RETRY_MAX_MS: int(3_600_000, 10, 86_400_000).describe(
    "The outbound retry delay cap, in milliseconds; at least `TALLY_FORWARD_RETRY_INITIAL_MS`.",
  ),
  // Metrics and alerts (lib/metrics/, lib/alerts/).
  TALLY_METRICS_TOKEN: optionalString
    .pipe(z.string().min(16, { error: "must be at least 16 characters" }).optional())
    .describe("The bearer token for `GET /api/metrics`; `TALLY_API_TOKEN` works too."),
  // `npm run worker` only: the port of its own GET /api/metrics and /api/health (unset: none).
  TALLY_METRICS_PORT: optionalString
    .pipe(
      z.coerce
        .number<string>({ error: "must be a number" })
        .int({ error: "must be a whole number" })
        .min(1, { error: "must be at least 1" })
        .max(65535, { error: "must be at most 65535" })
        .optional(),
    )
    .describe(
      "`npm run worker` only: listen on this port (all interfaces) for `GET /api/metrics` (same bearer) and `GET /api/health`, so this worker's counters can be scraped. Unset: no listener (the worker logs that its metrics are not exposed). Give each worker on one machine its own port; a port in use stops the worker at start with a message.",
    ),
  TALLY_ALERTS: onOff("on").describe(
    "`off`: the alert schedule does not start in this process (with `TALLY_SCHEDULER=on`).",
  ),
  TALLY_COLLECTIONS_CHECK_MS: int(5000, 100, 60_000).describe(
    "How often, in milliseconds, the collections' schedules are checked for a due tick (with `TALLY_SCHEDULER=on`; one process per check across processes). A tick starts at most this late.",
  ),
  TALLY_ALERT_EVALUATE_SECONDS: int(15, 1, 30).describe(
    "How often the alert rules are evaluated, in seconds (single-flight across processes).",
  ),
  TALLY_ALERT_REPEAT_MINUTES: int(60, 1, 7 * 24 * 60).describe(
    "A rule still firing is sent again at most this often, in minutes.",
  ),
  TALLY_ALERT_DEAD_LETTERS: int(1, 1, 1_000_000).describe(
    "`dead_letters` fires when this many dead letters are open (1: any new one).",
  ),
  TALLY_ALERT_UNAUTHORIZED_COUNT: int(10, 1, 1_000_000).describe(
    "`unauthorized_spike` fires at this many 401s for one subscription (or the unkeyed route) within `TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES`.",
  ),
  TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES: int(5, 1, 24 * 60).describe(
    "The window of `TALLY_ALERT_UNAUTHORIZED_COUNT`, in minutes.",
  ),
  TALLY_ALERT_DRIFT_COUNT: int(1, 1, 1000).describe(
    "`subscription_drift` fires at this many differences found by the latest reconciliation.",
  ),
  TALLY_ALERT_QUEUE_STALLED_MINUTES: int(10, 1, 7 * 24 * 60).describe(
    "`queue_stalled` fires when the oldest due queue item has waited this long, in minutes.",
  ),
  TALLY_ALERT_OLD_TRANSACTION_MINUTES: int(15, 1, 7 * 24 * 60).describe(
    "`queue_bloat` fires (PostgreSQL) when a transaction in Tally's database has been open this long, in minutes: it holds back vacuum of the queue table.",
  ),
  TALLY_ALERT_QUEUE_DEAD_ROWS: int(200_000, 1_000, 1_000_000_000).describe(
    "`queue_bloat` also fires (PostgreSQL) when the queue table holds this many dead rows.",
  ),
  TALLY_ALERT_PLATFORM_ERROR_PERCENT: int(20, 1, 100).describe(
    "`platform_errors` fires when this share of platform calls, in percent (at least 5 calls), answered 5xx or not at all within `TALLY_ALERT_PLATFORM_ERROR_MINUTES`; it also fires at once while the platform counts as down (5 calls in a row failed).",
  ),
  TALLY_ALERT_PLATFORM_ERROR_MINUTES: int(5, 1, 24 * 60).describe(
    "The window of `TALLY_ALERT_PLATFORM_ERROR_PERCENT`, in minutes.",
  ),
  TALLY_ALERT_SAFETY_NET_HOURS: int(24, 1, 30 * 24).describe(
    "`safety_net_failed` looks at runs finished within this many hours.",
  ),
  TALLY_ALERT_SUSPECT_PERCENT: int(20, 1, 100).describe(
    "`run_suspect_share` fires when a run created in the last 24 hours (of at least 20 URLs) had this share of its URLs, in percent, fail a content check or come back BLOCKED at some rung.",
  ),
  TALLY_ALERT_WEBHOOK_URL: optionalString
    .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional())
    .describe("The generic alert webhook: a JSON body per alert (see [Alerts](operations/monitoring.md#alerts))."),
  TALLY_ALERT_WEBHOOK_SECRET: optionalString
    .pipe(whsecSchema.optional())
    .describe(
      "Signs the alert webhook with Standard Webhooks headers: `whsec_` and the base64 of 24–64 random bytes; needs `TALLY_ALERT_WEBHOOK_URL`.",
    ),
  TALLY_ALERT_SLACK_URL: optionalString
    .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional())
    .describe("A Slack incoming-webhook URL for alerts; the URL is itself a secret."),
  TALLY_ALERT_SMTP_URL: optionalString
    .pipe(
      z
        .url({
          protocol: /^smtps?$/,
          error: 'must be an SMTP URL such as "smtp://user:pass@mail.example.com:587" or "smtps://…:465"',
        })
        .optional(),
    )
    .describe(
      "The SMTP server for alert e-mails, `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`; needs `TALLY_ALERT_EMAIL_TO`.",
    ),
  TALLY_ALERT_EMAIL_TO: optionalString
    .pipe(
      z
        .string()
        .regex(/^[^\s@,]+@[^\s@,]+(\s*,\s*[^\s@,]+@[^\s@,]+)*$/, {
          error: "must be one e-mail address or several separated by commas",
        })
        .optional(),
    )
    .describe("The alert e-mails' recipients, comma-separated; needs `TALLY_ALERT_SMTP_URL`."),
  TALLY_ALERT_EMAIL_FROM: z
    .string()
    .regex(/^[^\s@]+@[^\s@]+$/, { error: "must be an e-mail address" })
    .default("tally@localhost")
    .describe("The alert e-mails' sender."),
  TALLY_LOG_LEVEL: z
    .enum(["debug", "info", "warn", "error"], { error: 'must be "debug", "info", "warn" or "error"' })
    .default("info")
    .describe("The lowest level of the log lines written (JSON lines on stdout)."),
  // OpenTelemetry's standard variables (lib/tracing, [Tracing](operations/tracing.md)): unset endpoint, no tracing at all.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalString
    .pipe(httpUrl.optional())
    .describe(
      "Turns tracing on: the OTLP/HTTP collector traces are exported to, e.g. `http://otel-collector:4318` (spans go to `<endpoint>/v1/traces`). Unset: no tracing, at no cost ([Tracing](operations/tracing.md)).",
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalString
    .pipe(httpUrl.optional())
    .describe(
      "The full URL for traces (used as is, without `/v1/traces` added), instead of the one `OTEL_EXPORTER_OTLP_ENDPOINT` gives; setting it also turns tracing on.",
    ),
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.meta({
    description:
      "The export protocol: `http/json` (OTLP/HTTP with JSON bodies) or `http/protobuf` (OTLP/HTTP with protobuf bodies); collectors take both on the same port. gRPC is not supported.",
    defaultText: "`http/json`",
  }),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.meta({
    description: "The export protocol for traces, instead of `OTEL_EXPORTER_OTLP_PROTOCOL`'s.",
    defaultText: "`OTEL_EXPORTER_OTLP_PROTOCOL`",
  }),
  OTEL_EXPORTER_OTLP_HEADERS: optionalString.describe(
    "Headers sent with each export, `key=value` pairs separated by commas (e.g. a collector's API key); read by the exporter, masked on Settings.",
  ),
  TALLY_TRUST_TRACEPARENT: onOff("off").describe(
    "`on` continues a webhook caller's `traceparent` (behind a proxy you trust to set or strip it). Off, the public receiver starts a trace of its own for each delivery and keeps the caller's as a span link only, so strangers cannot choose trace ids or force sampling ([Tracing](operations/tracing.md)).",
  ),
  OTEL_SDK_DISABLED: z
    .enum(["true", "false"], { error: 'must be "true" or "false"' })
    .default("false")
    .describe("`true` keeps tracing off even with an endpoint set."),
  OTEL_SERVICE_NAME: z.string().min(1).default("tally").describe("The traces' `service.name`."),
  OTEL_RESOURCE_ATTRIBUTES: optionalString.describe(
    "Extra resource attributes on every span, `key=value` pairs separated by commas (e.g. `deployment.environment=prod`).",
  ),
  OTEL_TRACES_SAMPLER: z
    .enum(
      [
        "always_on",
        "always_off",
        "traceidratio",
        "parentbased_always_on",
        "parentbased_always_off",
        "parentbased_traceidratio",
      ],
      {
        error:
          "must be one of OpenTelemetry's samplers: always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio",
      },
    )
    .default("parentbased_always_on")
    .describe(
      "Which traces are kept: `parentbased_*` follow the caller's `traceparent` sampled flag (an API call, the first attempt of a queue item) and decide new traces by the rest of the name.",
    ),
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number({ error: "must be a number" })
    .min(0, { error: "must be at least 0" })
    .max(1, { error: "must be at most 1" })
    .default(1)
    .describe("The share of new traces kept by the `traceidratio` samplers, 0 to 1."),
  OTEL_BSP_SCHEDULE_DELAY: int(5000, 1, 3_600_000).describe("Milliseconds between two exports of the finished spans."),
  OTEL_BSP_MAX_QUEUE_SIZE: int(2048, 1, 1_000_000).describe(
    "Finished spans kept waiting for export; past it, new spans are dropped (never the work).",
  ),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: int(512, 1, 1_000_000).describe("Spans per export request at most."),
});

type Env = z.infer<typeof envSchema>;

export type TallyConfig = Omit<Env, "TALLY_WORKER_CONCURRENCY"> & {
  /** Set, or worked out from TALLY_API_RPS (defaultConcurrency). */
  TALLY_WORKER_CONCURRENCY: number;
  mode: "demo" | "live";
  /** The platform's base URL; undefined in demo mode until the built-in simulator is started. */
  apiBaseUrl: string | undefined;
  apiKey: string;
  publicUrl: string;
  operatorPassword: string;
  operatorPasswordGenerated: boolean;
  sessionSecret: string;
  /** The variables the environment set (not defaulted), for Settings' "source" column. */
  setVariables?: readonly string[];
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Tally cannot start: bad configuration\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const PRODUCTION_BASE_URL = "https://scraper.geonode.io";

/**
 * The worker's concurrency when TALLY_WORKER_CONCURRENCY is unset: a tenth of the rate budget, 4 to 32.
 * An item waiting for a slot of the budget holds it (lib/platform/shared-budget.ts), so a fresh submit
 * can wait behind as many slots as there are items running: about 0.5 s at any budget this way (4
 * slots at the default 10 rps; 32 at 1,000, 37 ms), while a budget of hundreds of calls a second gets
 * the items in flight its platform's answer time needs (bench/pipeline.ts: 16 instead of 4 at 1,000
 * rps, +5 % on SQLite and +20 % on PostgreSQL; bench/economy.ts's backlog at 50 rps: 16 items made fresh
 * submits wait 383 ms instead of 107).
 */
export function defaultConcurrency(apiRps: number): number {
  return Math.min(32, Math.max(4, Math.round(apiRps / 10)));
}

/** Validates an environment; throws ConfigError naming every bad variable and why. */
export function parseConfig(env: Record<string, string | undefined>): TallyConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${show(env, i.path)})`),
    );
  }
  const e = parsed.data;
  const mode = e.GEONODE_SCRAPER_API_KEY ? "live" : "demo";
  const problems: string[] = [];
  if (mode === "live" && !e.TALLY_OPERATOR_PASSWORD) {
    problems.push("TALLY_OPERATOR_PASSWORD: required in live mode (GEONODE_SCRAPER_API_KEY is set)");
  }
  if (e.TALLY_POLL_MAX_MS < e.TALLY_POLL_INITIAL_MS) {
    problems.push("TALLY_POLL_MAX_MS: must not be smaller than TALLY_POLL_INITIAL_MS");
  }
  if (e.TALLY_FORWARD_RETRY_MAX_MS < e.TALLY_FORWARD_RETRY_INITIAL_MS) {
    problems.push("TALLY_FORWARD_RETRY_MAX_MS: must not be smaller than TALLY_FORWARD_RETRY_INITIAL_MS");
  }
  // A default destination needs both: a URL without a secret could not be verified by its receiver.
  if (e.TALLY_FORWARD_URL && !e.TALLY_FORWARD_SECRET)
    problems.push("TALLY_FORWARD_SECRET: required when TALLY_FORWARD_URL is set");
  if (e.TALLY_FORWARD_SECRET && !e.TALLY_FORWARD_URL)
    problems.push("TALLY_FORWARD_URL: required when TALLY_FORWARD_SECRET is set");
  // Caught at start-up, not as a 401 on the scheduler's first call.
  if (e.TALLY_SCHEDULER === "external" && !e.TALLY_CRON_SECRET) {
    problems.push(
      "TALLY_CRON_SECRET: required when TALLY_SCHEDULER=external (the cron routes' bearer secret, at least 16 characters)",
    );
  }
  if (e.TALLY_ALERT_SMTP_URL && !e.TALLY_ALERT_EMAIL_TO)
    problems.push("TALLY_ALERT_EMAIL_TO: required when TALLY_ALERT_SMTP_URL is set (who gets the alert e-mails)");
  if (e.TALLY_ALERT_EMAIL_TO && !e.TALLY_ALERT_SMTP_URL)
    problems.push("TALLY_ALERT_SMTP_URL: required when TALLY_ALERT_EMAIL_TO is set (the SMTP server that sends them)");
  if (e.TALLY_ALERT_WEBHOOK_SECRET && !e.TALLY_ALERT_WEBHOOK_URL)
    problems.push("TALLY_ALERT_WEBHOOK_URL: required when TALLY_ALERT_WEBHOOK_SECRET is set");
  if (problems.length) throw new ConfigError(problems);

  const generated = !e.TALLY_OPERATOR_PASSWORD;
  const operatorPassword = e.TALLY_OPERATOR_PASSWORD ?? randomBytes(9).toString("base64url");
  return {
    ...e,
    TALLY_WORKER_CONCURRENCY: e.TALLY_WORKER_CONCURRENCY ?? defaultConcurrency(e.TALLY_API_RPS),
    mode,
    apiBaseUrl: e.SCRAPER_API_BASE_URL ?? (mode === "live" ? PRODUCTION_BASE_URL : undefined),
    apiKey: e.GEONODE_SCRAPER_API_KEY ?? "demo-key",
    publicUrl: e.TALLY_PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`,
    operatorPassword,
    operatorPasswordGenerated: generated,
    // Without an explicit secret, sessions are keyed by a fresh random value per process.
    sessionSecret: e.TALLY_SESSION_SECRET ?? randomBytes(32).toString("base64url"),
    setVariables: Object.keys(envSchema.shape).filter((name) => env[name] !== undefined),
  };
}

// Secrets never appear in error messages; other values are shown, shortened.
function show(env: Record<string, string | undefined>, path: PropertyKey[]): string {
  const name = String(path[0]);
  const value = env[name];
  if (value === undefined) return "nothing";
  if (SECRET_VARIABLES.has(name)) return "a hidden value";
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

const configSlot = slot<TallyConfig>("config");

/** The process's configuration, validated once (modules load more than once under Next). */
export function getConfig(): TallyConfig {
  return configSlot.getOr(() => parseConfig(process.env));
}

/** Validated configuration, or exit with the list of bad variables (no stack trace). */
export function configOrExit(): TallyConfig {
  try {
    return getConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Demo mode starts the simulator on a port it picks; the client must then follow it. */
export function setApiBaseUrl(url: string): void {
  getConfig().apiBaseUrl = url;
}

/** Tests replace the configuration wholesale. */
export function setConfigForTests(replacement: TallyConfig | undefined): void {
  if (replacement) configSlot.set(replacement);
  else configSlot.clear();
}

/** The variables that hold secrets: masked wherever configuration is shown. */
export const SECRET_VARIABLES = new Set([
  "GEONODE_SCRAPER_API_KEY",
  "GEONODE_WEBHOOK_SECRET",
  "TALLY_OPERATOR_PASSWORD",
  "TALLY_API_TOKEN",
  "TALLY_SESSION_SECRET",
  "TALLY_FORWARD_SECRET",
  "TALLY_CRON_SECRET",
  "TALLY_METRICS_TOKEN",
  "TALLY_ALERT_WEBHOOK_SECRET",
  // URLs that carry credentials: a Slack webhook URL is itself the secret; an SMTP URL holds a password.
  "TALLY_ALERT_SLACK_URL",
  "TALLY_ALERT_SMTP_URL",
  // A collector's credentials ride in the export headers.
  "OTEL_EXPORTER_OTLP_HEADERS",
]);

export type ConfigSource = "set" | "default" | "derived" | "unset";

/**
 * How much of a secret a reader may see: `last4` (operators and admins: "••••abcd", enough to tell
 * which secret is in effect) or `hidden` (viewers: whether it is set, nothing of its value).
 */
export type SecretView = "last4" | "hidden";

/**
 * Names of settings safe to show to operators, with secrets masked.
 * Every variable with the value in effect and where it came from: `set` in the environment, the
 * schema's `default`, `derived` from other settings at start-up (the public URL from the port, the
 * platform's URL from the mode or the simulator, a generated password or session key, the worker's
 * concurrency from the rate budget), or `unset`.
 * URL-shaped values never show user info, a password or a query value (see redactUrlSecrets).
 */
export function describeConfig(
  config: TallyConfig,
  secrets: SecretView = "hidden",
): Array<{ name: string; value: string; source: ConfigSource; note?: string }> {
  const set = new Set(config.setVariables ?? []);
  const derived: Record<string, { value: string | undefined; note: string }> = {
    TALLY_PUBLIC_URL: { value: config.publicUrl, note: "from PORT" },
    SCRAPER_API_BASE_URL: {
      value: config.apiBaseUrl,
      note: config.mode === "demo" ? "the built-in simulator (demo mode)" : "the platform's production URL (live mode)",
    },
    TALLY_OPERATOR_PASSWORD: {
      value: config.operatorPassword,
      note: "generated at start (printed once in the server log)",
    },
    TALLY_SESSION_SECRET: { value: config.sessionSecret, note: "random per process (sessions end on restart)" },
    TALLY_WORKER_CONCURRENCY: {
      value: String(config.TALLY_WORKER_CONCURRENCY),
      note: "from TALLY_API_RPS: a tenth of it, 4 to 32",
    },
  };
  const shown = (name: string, value: string) => {
    if (SECRET_VARIABLES.has(name)) return maskFor(value, secrets);
    return redactUrlSecrets(value);
  };
  return Object.keys(envSchema.shape).map((name) => {
    const raw = (config as unknown as Record<string, unknown>)[name];
    const d = derived[name];
    if (!set.has(name) && d && d.value !== undefined && d.value !== "") {
      return { name, value: shown(name, d.value), source: "derived" as const, note: d.note };
    }
    const value = raw === undefined ? "" : String(raw);
    const source: ConfigSource = set.has(name) ? "set" : value === "" ? "unset" : "default";
    // A viewer is told an unset secret is unset (""), as the other unset variables are.
    const v = SECRET_VARIABLES.has(name) && secrets === "hidden" && value === "" ? "" : shown(name, value);
    return { name, value: v, source };
  });
}

export function mask(secret: string | null | undefined): string {
  if (!secret) return "(not set)";
  return secret.length <= 8 ? "••••" : `••••${secret.slice(-4)}`;
}

/** A secret as `view` allows: its last 4 characters, or only whether it is set. */
export function maskFor(secret: string | null | undefined, view: SecretView): string {
  if (view === "last4") return mask(secret);
  return secret ? "(hidden)" : "(not set)";
}

// Query parameters whose values say how to connect, never who: shown as they are.
const HARMLESS_QUERY = new Set(["sslmode", "schema", "connection_limit", "connect_timeout", "pool_timeout"]);

/**
 * A URL fit for any screen: user info (name and password) becomes "••••@", every query value but a few
 * harmless connection options becomes "••••", and the fragment is dropped. Values that are not
 * `scheme://` URLs (a SQLite `file:` path, a number) are returned as they are.
 */
export function redactUrlSecrets(value: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    // Unparseable: keep the scheme, hide everything else rather than guess where a secret ends.
    const scheme = value.slice(0, value.indexOf("://"));
    return `${scheme}://${value.includes("@") ? "••••@" : ""}…`;
  }
  const userInfo = u.username || u.password ? "••••@" : "";
  const params = [...u.searchParams.keys()].map((k) =>
    HARMLESS_QUERY.has(k.toLowerCase())
      ? `${encodeURIComponent(k)}=${encodeURIComponent(u.searchParams.get(k) ?? "")}`
      : `${encodeURIComponent(k)}=••••`,
  );
  const path = u.pathname === "/" && !value.slice(value.indexOf("://") + 3).includes("/") ? "" : u.pathname;
  return `${u.protocol}//${userInfo}${u.host}${path}${params.length ? `?${[...new Set(params)].join("&")}` : ""}`;
}

export type Store = "sqlite" | "postgres";

/** Which store a DATABASE_URL names: `postgresql://…` (or `postgres://…`) is PostgreSQL, `file:…` SQLite. */
export function storeOf(url: string): Store {
  return /^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite";
}

/** A database URL fit for logs: a password in it is replaced by "***". */
export function redactUrl(url: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/, "$1***@");
}
