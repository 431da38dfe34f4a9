// The chaos run: simulator and Tally as separate processes, N jobs under injected faults, some
// cancelled on the platform, SIGKILLs of Tally's processes at random moments, a secret rotated
// mid-run (one by Tally, one "elsewhere"), a forwarding destination whose sink fails a share of
// requests and goes down for 15 s, a database sink and a broker sink whose connections are refused
// for 10 s meanwhile (scripts/chaos/sinks.ts), reconciliation at the end, then the ledger against the
// simulator's truth and each sink's record, and the platform calls against the rate budget.
// Default: one server (its own worker inside) on SQLite. With --servers N --workers M (e.g. on
// PostgreSQL): N servers with the worker off behind a round-robin balancer (the platform's webhooks
// and the harness's API calls both go through it), M `npm run worker` processes, and the kills
// alternate between a server and a worker.
import { z } from "zod";
import { createTallyClient, unwrap } from "../../lib/api-client";
import { mulberry32 } from "../../lib/simulator";
import { startBalancer, type Balancer } from "./balancer";
import { type BodiesOptions, checkBodies, startChaosBodyStore, startSweeper, sweepOnce, type Sweeper } from "./bodies";
import { computeForwarded, startChaosSink } from "./forwarded";
import { computeLedger, simStateSchema, type Ledger } from "./ledger";
import {
  CHAOS_API_KEY,
  CHAOS_TOKEN,
  chaosEnv,
  freePort,
  startFleet,
  startSimulator,
  type TallyProc,
  type WorkerProc,
} from "./processes";
import { fetchCallRate, type OwnCall } from "./rate";
import { startChaosSinks, type Broker } from "./sinks";
import {
  createChaosStore,
  DEFAULT_POSTGRES_ADMIN_URL,
  type ChaosStore,
  type PostgresOptions,
  type StoreKind,
} from "./store";

export type ChaosOptions = {
  jobs: number;
  kills: number;
  seed: number;
  timeoutMs: number;
  /** sqlite (default) or postgres: a database created for the run and dropped after it. */
  store?: StoreKind;
  postgres?: PostgresOptions;
  /** Server processes (default 1); with more than one, a round-robin balancer in front. */
  servers?: number;
  /** `npm run worker` processes (default 0: the server runs its own worker). */
  workers?: number;
  /** TALLY_API_RPS for every process (default 200): all of them together stay within it. */
  apiRps?: number;
  /**
   * TALLY_DELIVERY_MODE for every process (default webhooks). In polling mode no webhook is
   * registered (so there is nothing to rotate): Tally must notice every job by polling alone.
   */
  delivery?: DeliveryMode;
  /** The broker sink beside the postgres sink (default nats); `none` for the postgres sink alone. */
  broker?: Broker;
  /**
   * The body store mode (scripts/chaos/bodies.ts): pages of realistic size, kills while a put is
   * written, a sweeper with a short grace killed at random; the ledger gets `bodies`.
   */
  bodies?: BodiesOptions;
  log?: (s: string) => void;
};

export type DeliveryMode = "webhooks" | "polling";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What the run reads of POST /api/jobs's answer (the document describes no answer for it yet). */
const submittedJob = z.object({ jobId: z.string() });

export const CHAOS_FAULTS = {
  jobDurationMs: [300, 4000],
  failureRate: 0.1,
  retryableShare: 0.5,
  webhookDropRate: 0.2,
  webhookDuplicateRate: 0.1,
  webhookDelayRate: 0.1,
  webhookDelayMs: [200, 3000],
  earlyWebhookRate: 0.05,
  rateLimitRate: 0.025,
  serverErrorRate: 0.025,
  retryAfterSeconds: 1,
  deliveryRetryScheduleMs: [0, 500, 2000, 5000, 10000],
};

export async function runChaos(o: ChaosOptions): Promise<Ledger> {
  const store = await createChaosStore(o.store ?? "sqlite", o.postgres);
  try {
    return await runOnStore(o, store);
  } finally {
    await store
      .dispose()
      .catch((err: unknown) => (o.log ?? console.log)(`chaos: could not remove the run's database: ${String(err)}`));
  }
}

async function runOnStore(o: ChaosOptions, store: ChaosStore): Promise<Ledger> {
  const log = o.log ?? console.log;
  const random = mulberry32(o.seed);
  const serverCount = o.servers ?? 1;
  const workerCount = o.workers ?? 0;
  const apiRps = o.apiRps ?? 200;
  const delivery = o.delivery ?? "webhooks";
  const started = Date.now();
  const deadline = started + o.timeoutMs;
  // Every run's bodies in a place of its own (never the working directory's ./data/bodies).
  const bodyStore = await startChaosBodyStore(o.bodies?.backend ?? "file", o.bodies !== undefined);
  const sim = await startSimulator(o.seed);
  const sink = await startChaosSink(mulberry32(o.seed + 1));
  // The sinks' targets live where the run's PostgreSQL and brokers do (the maintenance database's server).
  const sinks = await startChaosSinks({
    broker: o.broker ?? "nats",
    postgresAdminUrl: o.postgres?.adminUrl ?? DEFAULT_POSTGRES_ADMIN_URL,
    log,
  });
  let outage: Promise<unknown> | null = null;
  let sweeper: Sweeper | null = null;
  const servers: TallyProc[] = [];
  const workers: WorkerProc[] = [];
  let balancer: Balancer | undefined;
  try {
    const ports = await Promise.all(Array.from({ length: serverCount }, () => freePort()));
    if (serverCount > 1) balancer = await startBalancer(ports.map((p) => `http://127.0.0.1:${p}`));
    // Every process shares these; the platform's webhooks go to the balancer when there is one.
    const common = {
      ...chaosEnv({
        storeUrl: store.url,
        simUrl: sim.url,
        publicUrl: balancer?.url ?? `http://127.0.0.1:${ports[0]}`,
        apiRps,
      }),
      // The run's sinks listen on 127.0.0.1; destinations registered through the API may use it only when allowed.
      TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
      TALLY_ROTATION_SETTLE_SECONDS: "2",
      TALLY_DELIVERY_MODE: delivery,
      // Outbound retries short enough that a 15 s outage is over well before the run ends.
      TALLY_FORWARD_RETRY_INITIAL_MS: "200",
      TALLY_FORWARD_RETRY_MAX_MS: "2000",
      TALLY_FORWARD_TIMEOUT_MS: "3000",
      ...bodyStore.env,
    };
    const fleet = await startFleet(common, ports, workerCount);
    servers.push(...fleet.servers);
    workers.push(...fleet.workers);
    const entry = balancer?.url ?? servers[0]!.url;
    const ownCalls: OwnCall[] = [];
    // Tally's own API, through the typed client: a call's path, body and answer are the document's.
    const tally = createTallyClient({ baseUrl: entry, token: CHAOS_TOKEN });
    // The harness's own calls to the platform meet the same injected 429s and 5xx: retry them.
    // Its /v1 calls are noted (sent, answered, status) so the rate check can leave them out.
    const simCall = async (method: string, p: string, body?: unknown) => {
      for (let attempt = 1; ; attempt++) {
        const from = Date.now();
        const res = await fetch(sim.url + p, {
          method,
          headers: { "x-api-key": CHAOS_API_KEY, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (p.startsWith("/v1/")) ownCalls.push({ from, to: Date.now(), status: res.status });
        if (res.ok) return res.json() as Promise<Record<string, unknown>>;
        if (attempt >= 20 || (res.status !== 429 && res.status < 500))
          throw new Error(`simulator ${method} ${p} → ${res.status}`);
        await sleep(300);
      }
    };

    if (delivery === "webhooks") await unwrap(tally.POST("/api/subscriptions/register"));
    const destination = await unwrap(
      tally.POST("/api/destinations", {
        body: { url: sink.url, events: ["job.stored", "job.dead_lettered", "job.cancelled"] },
      }),
    );
    const secret = destination.secret;
    if (!secret) throw new Error("POST /api/destinations answered no secret for a webhook destination");
    for (const d of sinks.destinations) {
      const made = await unwrap(
        tally.POST("/api/destinations", {
          body: { type: d.type, config: d.config, events: ["job.stored", "job.dead_lettered", "job.cancelled"] },
        }),
      );
      sinks.registered(d.type, made.id);
    }
    await simCall("POST", "/_sim/config", {
      seed: o.seed,
      ...CHAOS_FAULTS,
      ...(o.bodies ? { bodyBytes: o.bodies.bodyBytes } : {}),
    });
    if (o.bodies) {
      sweeper = startSweeper(common, o.bodies.graceMs, mulberry32(o.seed + 2));
      log(
        `chaos: body store ${bodyStore.url}${bodyStore.backend === "s3" ? ` (an s3rver at ${bodyStore.env.AWS_ENDPOINT_URL_S3})` : ""}, pages of ${o.bodies.bodyBytes.join("–")} bytes (html about 3×); a sweeper with ${o.bodies.graceMs / 1000} s of grace, killed at random`,
      );
    }
    log(
      `chaos: ${o.jobs} jobs, ${o.kills} kills, seed ${o.seed}, ${store.kind}, ${delivery}; simulator ${sim.url}, Tally ${entry}` +
        (balancer || workerCount
          ? ` (${serverCount} servers behind a round-robin balancer, ${workerCount} workers)`
          : ""),
    );

    // Kills happen at random points of the submission, plus at most one while the backlog drains.
    const killAt = new Set(Array.from({ length: o.kills }, () => Math.floor(random() * o.jobs)));
    const rotateAt = Math.floor(o.jobs / 2);
    let downUntil: Promise<void> | null = null;
    let crashes = 0;
    let killsDuringStores = 0;
    // Alone, the server is the one to kill (and submissions wait for it); with workers beside them,
    // kills alternate server, worker, server …; the balancer sends around a dead server.
    const crash = async () => {
      const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
      const k = crashes++;
      // With the body store: the kill waits (up to 5 s) for a put to be writing its temporary file.
      const midPut = o.bodies ? await bodyStore.nextPut(5_000) : false;
      if (midPut) killsDuringStores++;
      if (workers.length > 0 && k % 2 === 1) {
        const i = Math.floor(random() * workers.length);
        const w = workers[i]!;
        const pid = w.pid();
        await w.kill();
        log(
          `chaos: worker ${i + 1} (pid ${pid}) killed (SIGKILL) at ${at()}${midPut ? " while a body was being put" : ""}`,
        );
        await sleep(200 + random() * 800);
        w.restart();
        return;
      }
      const i = Math.floor(random() * servers.length);
      await servers[i]!.kill();
      log(
        `chaos: ${servers.length > 1 ? `server ${i + 1}` : "Tally"} killed (SIGKILL) at ${at()}${midPut ? " while a body was being put" : ""}`,
      );
      await sleep(200 + random() * 800);
      await servers[i]!.restart();
    };

    let next = 0;
    const stats = { accepted: 0, refused: 0, submitMs: 0, cancelled: 0 };
    const submitOne = async (i: number) => {
      const kind: "extract" | "batch" | "crawl" = i % 20 < 12 ? "extract" : i % 20 < 17 ? "batch" : "crawl";
      const url = `https://chaos.example/${o.seed}/${i}`;
      const body =
        kind === "batch"
          ? { kind, urls: [url, `${url}/b`, `${url}/c`] }
          : kind === "crawl"
            ? { kind, url, depth: 2, limit: 4 }
            : { kind, url };
      for (let attempt = 0; attempt < 50; attempt++) {
        if (downUntil) await downUntil;
        try {
          const t0 = Date.now();
          const job = submittedJob.parse(await unwrap(tally.POST("/api/jobs", { body })));
          stats.submitMs += Date.now() - t0;
          stats.accepted++;
          // Some batch and crawl jobs are cancelled on the platform while they run.
          if (kind !== "extract" && random() < 0.05) {
            void simCall("DELETE", `/v1/${kind}/${String(job.jobId)}`).then(
              () => stats.cancelled++,
              () => undefined, // already finished (409): nothing to cancel
            );
          }
          return;
        } catch (err) {
          // Tally down, or a 429/5xx from the platform passed on: the job may or may not exist
          // there; if it does, reconciliation has to find it. Try again after a pause.
          if (attempt === 49) throw err;
          stats.refused++;
          await sleep(300);
        }
      }
    };
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < o.jobs && Date.now() < deadline) {
          const i = next++;
          if (killAt.has(i)) {
            killAt.delete(i);
            const c = crash();
            if (servers.length === 1 && workers.length === 0) downUntil = c.finally(() => (downUntil = null));
            else void c.catch((err: unknown) => log(`chaos: restart failed: ${String(err)}`));
          }
          if (i === rotateAt && delivery === "webhooks") void rotate();
          if (i === Math.floor(o.jobs * 0.3)) {
            log(
              "chaos: forwarding sink down for 15 s, the database and broker sinks for 10 s or until each has failed once (connections refused)",
            );
            outage = Promise.all([sink.outage(15_000), sinks.outage(10_000, store)]);
          }
          await submitOne(i);
        }
      }),
    );
    log(
      `chaos: submitted ${next} jobs in ${((Date.now() - started) / 1000).toFixed(1)} s (mean ${Math.round(stats.submitMs / Math.max(1, stats.accepted))} ms per accepted POST, ${stats.refused} refused and retried, ${stats.cancelled} cancelled on the platform)`,
    );
    for (let k = killAt.size; k > 0; k--) await crash();

    async function rotate() {
      const subs = await store.all<{ id: string; platformId: string; eventType: string }>(
        `SELECT "id", "platformId", "eventType" FROM "Subscription"`,
      );
      const byTally = subs.find((s) => s.eventType === "extract_completed");
      const elsewhere = subs.find((s) => s.eventType === "batch_completed");
      // The server that takes a call may be killed under it (a 502 from the balancer, or no answer
      // at all): the operator tries again. A rotation repeated is still a rotation.
      const again = async (f: () => Promise<unknown>) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await f();
          } catch (err) {
            if (attempt >= 60) throw err;
            await sleep(500);
          }
        }
      };
      try {
        if (byTally)
          await again(() =>
            unwrap(tally.POST("/api/subscriptions/{id}/rotate", { params: { path: { id: byTally.id } } })),
          );
        if (elsewhere) {
          const rotated = await simCall("POST", `/v1/webhooks/${elsewhere.platformId}/rotate-secret`);
          log("chaos: batch_completed secret rotated on the platform; Tally learns it in 3 s");
          await sleep(3000);
          await again(() =>
            unwrap(
              tally.POST("/api/subscriptions/{id}/secret", {
                params: { path: { id: elsewhere.id } },
                body: { secret: String(rotated.secret) },
              }),
            ),
          );
        }
        log("chaos: secrets rotated (extract by Tally, batch elsewhere)");
      } catch (err) {
        log(`chaos: rotation step failed: ${String(err)}`);
      }
    }

    await outage;
    // Drain: wait for the platform to settle, reconcile, wait for Tally's queue; repeat while
    // resubmissions create new platform jobs.
    // A round is final only when no platform job appeared during it: a resubmission made while the
    // queue drained may finish at once, its webhook still on its way, and needs one more round.
    for (let round = 1; round <= 8 && Date.now() < deadline; round++) {
      let jobsAtStart = 0;
      await waitUntil(async () => {
        const s = simStateSchema.parse(await simCall("GET", "/_sim/state"));
        const running = (s.jobs.byStatus.queued ?? 0) + (s.jobs.byStatus.processing ?? 0);
        jobsAtStart = s.jobs.total;
        return running === 0 && (s.deliveries.byStatus.pending ?? 0) === 0;
      }, deadline);
      // In polling mode the first round gives the polls time to notice every job Tally knows of
      // before reconciliation looks (the ledger's "noticed by" then shows polling did the work):
      // until no job is pending, or two polling caps.
      if (delivery === "polling" && round === 1)
        await waitUntil(async () => (await pendingJobs(store)) === 0, Math.min(deadline, Date.now() + 60_000)).catch(
          () => undefined,
        );
      const run = await unwrap(tally.POST("/api/operations/reconcile", { body: { olderThanSeconds: 0 } }));
      await waitUntil(
        async () =>
          (await unwrap(tally.GET("/api/operations/{runId}", { params: { path: { runId: run.runId } } }))).state !==
          "running",
        deadline,
      );
      await waitUntil(() => queueIdle(store), deadline);
      const s = simStateSchema.parse(await simCall("GET", "/_sim/state"));
      const running = (s.jobs.byStatus.queued ?? 0) + (s.jobs.byStatus.processing ?? 0);
      const appeared = s.jobs.total - jobsAtStart;
      log(
        `chaos: drain round ${round} done; platform jobs still running: ${running}, new during the round: ${appeared}`,
      );
      if (running === 0 && appeared === 0) break;
    }
    const state = simStateSchema.parse(await simCall("GET", "/_sim/state"));
    const ledger = await computeLedger(store, state);
    if (o.bodies && sweeper) {
      await sweeper.stop();
      // Past the grace (the pipeline is idle now): a sweep with none leaves only what rows name.
      ledger.bodies = await checkBodies(store, bodyStore, { kills: crashes, killsDuringStores, sweeper }, () =>
        sweepOnce(common, 0),
      );
    }
    ledger.forwarded = await computeForwarded(store, sink, secret, String(destination.id));
    ledger.sinks = await sinks.tally(store);
    ledger.calls = await fetchCallRate(sim.url, apiRps, ownCalls);
    if (balancer) log(`chaos: requests through the balancer per server: ${balancer.served.join(", ")}`);
    log(`chaos: finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return ledger;
  } finally {
    await Promise.all([...servers, ...workers].map((p) => p.stop().catch(() => undefined)));
    await balancer?.close().catch(() => undefined);
    await sim.stop().catch(() => undefined);
    await sink.close().catch(() => undefined);
    await sinks.close();
    await sweeper?.stop().catch(() => undefined);
    await bodyStore.dispose().catch(() => undefined);
  }
}

async function pendingJobs(store: ChaosStore): Promise<number> {
  const [row] = await store.all<{ n: number | string }>(`SELECT COUNT(*) n FROM "Job" WHERE "outcome" = 'pending'`);
  return Number(row?.n ?? 0);
}

async function queueIdle(store: ChaosStore): Promise<boolean> {
  const [row] = await store.all<{ n: number | string }>(
    `SELECT COUNT(*) n FROM "QueueItem" WHERE "state" IN ('ready','leased')`,
  );
  return Number(row?.n ?? 0) === 0;
}

async function waitUntil(check: () => boolean | Promise<boolean>, deadline: number) {
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      // a transient failure (e.g. Tally restarting) is just another wait
    }
    await sleep(500);
  }
  throw new Error("chaos: timed out waiting for the pipeline to settle");
}
